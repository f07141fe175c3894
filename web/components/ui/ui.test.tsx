import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import i18n from '@web/lib/i18n';
import { Button } from './button';
import { Checkbox, Select, TextArea, TextField } from './fields';
import { Modal } from './modal';
import { ToastProvider, useToast } from './toast';
import { ConfirmProvider, useConfirm } from './confirm-dialog';
import { StatusBadge } from './status-badge';

const wrap = (ui: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

beforeEach(async () => {
  await i18n.changeLanguage('de');
});

describe('form fields', () => {
  it('wire label, hint and error to the control', () => {
    wrap(
      <>
        <TextField label="Name" hint="Vor- und Nachname" error="Pflichtfeld fehlt" required />
        <TextArea label="Notiz" hint="Optional" />
        <Select label="Kurs" error="Bitte wählen">
          <option value="">–</option>
        </Select>
        <Checkbox label="Alle Schüler auswählen" hint="Auch neue" />
      </>,
    );
    const name = screen.getByLabelText('Name');
    expect(name).toBeRequired();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Vor- und Nachname Pflichtfeld fehlt');
    expect(screen.getByLabelText('Notiz')).toHaveAccessibleDescription('Optional');
    expect(screen.getByLabelText('Notiz')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Kurs')).toHaveAccessibleDescription('Bitte wählen');
    expect(screen.getByRole('checkbox', { name: 'Alle Schüler auswählen' })).toHaveAccessibleDescription('Auch neue');
  });
});

describe('Button', () => {
  it('is disabled and busy while loading', () => {
    wrap(<Button loading>Speichern</Button>);
    const b = screen.getByRole('button', { name: 'Speichern' });
    expect(b).toBeDisabled();
    expect(b).toHaveAttribute('aria-busy', 'true');
    expect(b).toHaveAttribute('type', 'button');
  });
});

describe('Modal', () => {
  function Harness({ size }: { size?: 'sm' | '6xl' }) {
    const [open, setOpen] = useState(true);
    return (
      <Modal open={open} onClose={() => setOpen(false)} title="Kurs bearbeiten" size={size} footer={<Button>Speichern</Button>}>
        <p>Inhalt</p>
      </Modal>
    );
  }

  it('has a title, body, footer and a named close button that closes it', async () => {
    wrap(<Harness />);
    const dialog = await screen.findByRole('dialog', { name: 'Kurs bearbeiten' });
    expect(dialog).toHaveTextContent('Inhalt');
    expect(screen.getByRole('button', { name: 'Speichern' })).toBeInTheDocument();
    expect(dialog.querySelector('.sm\\:max-w-lg')).not.toBeNull(); // default size lg
    await userEvent.setup().click(screen.getByRole('button', { name: 'Schließen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('takes the sizes sm to 6xl', async () => {
    wrap(<Harness size="6xl" />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.querySelector('.sm\\:max-w-6xl')).not.toBeNull();
  });
});

describe('toasts', () => {
  afterEach(() => vi.useRealTimers());

  function Trigger({ ms }: { ms?: number }) {
    const toast = useToast();
    return (
      <>
        <button onClick={() => toast.success('Gespeichert', ms)}>ok</button>
        <button onClick={() => toast.error('Fehlgeschlagen', ms)}>bad</button>
      </>
    );
  }

  it('close after 5000 ms by default', async () => {
    vi.useFakeTimers();
    wrap(
      <ToastProvider>
        <Trigger />
      </ToastProvider>,
    );
    act(() => screen.getByText('ok').click());
    expect(screen.getByRole('status')).toHaveTextContent('Gespeichert');
    act(() => vi.advanceTimersByTime(4900));
    expect(screen.queryByText('Gespeichert')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByText('Gespeichert')).not.toBeInTheDocument();
  });

  it('stay open with duration 0 until closed; errors are alerts', async () => {
    vi.useFakeTimers();
    wrap(
      <ToastProvider>
        <Trigger ms={0} />
      </ToastProvider>,
    );
    act(() => screen.getByText('bad').click());
    act(() => vi.advanceTimersByTime(60_000));
    expect(screen.getByRole('alert')).toHaveTextContent('Fehlgeschlagen');
    act(() => screen.getByRole('button', { name: 'Benachrichtigung schließen' }).click());
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('useConfirm', () => {
  function Deleter({ onResult }: { onResult: (ok: boolean) => void }) {
    const confirm = useConfirm();
    return <button onClick={async () => onResult(await confirm({ message: 'Sind Sie sicher?' }))}>Löschen starten</button>;
  }

  it.each([
    ['Löschen', true],
    ['Abbrechen', false],
  ])('resolves by the button pressed (%s → %s)', async (button, expected) => {
    const onResult = vi.fn();
    const u = userEvent.setup();
    wrap(
      <ConfirmProvider>
        <Deleter onResult={onResult} />
      </ConfirmProvider>,
    );
    await u.click(screen.getByText('Löschen starten'));
    const dialog = await screen.findByRole('dialog', { name: 'Wirklich löschen?' });
    expect(dialog).toHaveTextContent('Sind Sie sicher?');
    await u.click(screen.getByRole('button', { name: button }));
    await waitFor(() => expect(onResult).toHaveBeenCalledWith(expected));
  });
});

describe('StatusBadge', () => {
  it.each([
    ['completed', 'Erledigt', 'Tamamlandı'],
    ['open', 'Offen', 'Açık'],
    ['overdue', 'Überfällig', 'Gecikmiş'],
    ['expired', 'Verfallen', 'Süresi doldu'],
    ['today', 'Heute', 'Bugün'],
  ] as const)('%s → %s / %s', async (status, de, tr) => {
    const { unmount } = wrap(<StatusBadge status={status} />);
    expect(screen.getByText(de)).toBeInTheDocument();
    unmount();
    await i18n.changeLanguage('tr');
    wrap(<StatusBadge status={status} />);
    expect(screen.getByText(tr)).toBeInTheDocument();
  });
});
