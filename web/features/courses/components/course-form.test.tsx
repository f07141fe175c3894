import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLayoutEffect } from 'react';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import type { Course, CourseBody } from '@contract/courses';
import { CourseForm } from './course-form';

const course: Course = { id: 7, name: 'Bağlama Anfänger', description: 'Montags 17 Uhr', created_at: '2026-11-01T10:00:00.000Z', students_count: 3 };

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(cleanup);
// Typing through user-event is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const nameField = () => screen.getByLabelText(/^Name/, { selector: 'input' });

function setup(props: Partial<Parameters<typeof CourseForm>[0]> = {}) {
  const onSubmit = vi.fn<(b: CourseBody) => Promise<void>>(async () => {});
  const onClose = vi.fn();
  render(<CourseForm open onClose={onClose} onSubmit={onSubmit} {...props} />);
  return { onSubmit, onClose, user: userEvent.setup() };
}

describe('CourseForm', () => {
  it('requires a name and sends nothing without one', async () => {
    const { onSubmit, user } = setup();
    expect(screen.getByRole('dialog', { name: 'Neuen Kurs anlegen' })).toBeInTheDocument();
    await user.type(nameField(), '   ');
    await user.click(screen.getByRole('button', { name: 'Kurs anlegen' }));
    expect(await screen.findByText('Bitte geben Sie einen Namen ein.')).toBeInTheDocument();
    expect(nameField()).toHaveAttribute('aria-invalid', 'true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends the trimmed name and an empty description as null', async () => {
    const { onSubmit, user } = setup();
    await user.type(nameField(), '  Saz Gruppe  ');
    await user.type(screen.getByLabelText(/^Beschreibung/, { selector: 'textarea' }), '   ');
    await user.click(screen.getByRole('button', { name: 'Kurs anlegen' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Saz Gruppe', description: null }));
  });

  it('edits an existing course: fields filled, description kept', async () => {
    const { onSubmit, user } = setup({ course });
    expect(screen.getByRole('dialog', { name: 'Kurs bearbeiten' })).toBeInTheDocument();
    const name = nameField();
    expect(name).toHaveValue('Bağlama Anfänger');
    expect(screen.getByLabelText(/^Beschreibung/, { selector: 'textarea' })).toHaveValue('Montags 17 Uhr');
    await user.clear(name);
    await user.type(name, 'Bağlama Mittelstufe');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ name: 'Bağlama Mittelstufe', description: 'Montags 17 Uhr' }));
  });

  it("shows the server's 422 field errors under the fields and stays open", async () => {
    const { user } = setup({
      onSubmit: async () => {
        throw new ApiError(422, 'Bitte überprüfen Sie Ihre Eingaben', { name: ['Zu lang.'], description: ['Beschreibung zu lang.'] });
      },
    });
    await user.type(nameField(), 'Kurs');
    await user.click(screen.getByRole('button', { name: 'Kurs anlegen' }));
    expect(await screen.findByText('Zu lang.')).toBeInTheDocument();
    expect(screen.getByText('Beschreibung zu lang.')).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('opened again, it starts afresh: the first frame already shows the course, not the last text or errors', async () => {
    const onSubmit = vi.fn<(b: CourseBody) => Promise<void>>(async () => {});
    const user = userEvent.setup();
    // what the name field shows at each commit while open (a layout effect runs before any effect could reset it)
    const shown: (string | null)[] = [];
    function Page({ open, edit }: { open: boolean; edit: Course | null }) {
      useLayoutEffect(() => {
        if (open) shown.push(document.querySelector<HTMLInputElement>('input[name="name"]')?.value ?? null);
      });
      return <CourseForm open={open} course={edit} onClose={() => undefined} onSubmit={onSubmit} />;
    }
    const { rerender } = render(<Page open edit={null} />);
    await user.type(nameField(), '   ');
    await user.click(screen.getByRole('button', { name: 'Kurs anlegen' }));
    expect(await screen.findByText('Bitte geben Sie einen Namen ein.')).toBeInTheDocument();
    rerender(<Page open={false} edit={null} />);
    // a closed dialog is gone at once (docs/decisions/dialogs.md); a person opens it again later
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    shown.length = 0;
    rerender(<Page open edit={course} />);
    expect(await screen.findByLabelText(/^Name/, { selector: 'input' })).toHaveValue('Bağlama Anfänger');
    expect(screen.queryByText('Bitte geben Sie einen Namen ein.')).toBeNull();
    expect(shown).not.toContain('   ');
  });

  it('cancel closes; the texts are Turkish in Turkish', async () => {
    await i18n.changeLanguage('tr');
    const { onClose, user } = setup();
    expect(screen.getByRole('dialog', { name: 'Yeni kurs oluştur' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Kurs oluştur' }));
    expect(await screen.findByText('Lütfen bir ad girin.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'İptal' }));
    expect(onClose).toHaveBeenCalled();
  });
});
