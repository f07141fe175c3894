import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import i18n from '@web/lib/i18n';
import { LazySection, lazyPart } from './lazy-section';

function Chart({ label }: { label: string }) {
  return <p>{label}</p>;
}

const wrap = (ui: React.ReactNode) => render(<I18nextProvider i18n={i18n}>{ui}</I18nextProvider>);

describe('LazySection', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('de');
    // React reports the caught error; the boundary logs it once more. Neither is this test's business.
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  it("keeps a failed chunk inside its section and loads it again on 'Erneut versuchen'", async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Chart }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: /assets/chart-abc.js'))
      .mockResolvedValue({ default: Chart });
    const LazyChart = lazyPart(load);
    const user = userEvent.setup();
    wrap(
      <main>
        <p>Timer läuft: 03:12</p>
        <LazySection fallback={<p>Diagramm wird geladen</p>}>
          <LazyChart label="Übungsminuten je Woche" />
        </LazySection>
      </main>,
    );
    expect(screen.getByText('Diagramm wird geladen')).toBeInTheDocument();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Dieser Teil der Seite konnte nicht geladen werden.');
    // the rest of the screen is untouched
    expect(screen.getByText('Timer läuft: 03:12')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Übungsminuten je Woche')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('a part that loaded once is not imported again when another section retries', async () => {
    const good = vi.fn(() => Promise.resolve({ default: Chart }));
    const bad = vi
      .fn<() => Promise<{ default: typeof Chart }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue({ default: Chart });
    const Good = lazyPart(good);
    const Bad = lazyPart(bad);
    const user = userEvent.setup();
    wrap(
      <>
        <LazySection fallback={null}>
          <Good label="Metronom" />
        </LazySection>
        <LazySection fallback={null}>
          <Bad label="Stimmgerät" />
        </LazySection>
      </>,
    );
    expect(await screen.findByText('Metronom')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Stimmgerät')).toBeInTheDocument();
    expect(good).toHaveBeenCalledTimes(1);
    expect(bad).toHaveBeenCalledTimes(2);
  });

  it('speaks Turkish in a Turkish interface', async () => {
    await i18n.changeLanguage('tr');
    const Broken = lazyPart(() => Promise.reject(new TypeError('Failed to fetch')));
    wrap(
      <LazySection fallback={null}>
        <Broken />
      </LazySection>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sayfanın bu bölümü yüklenemedi.');
    expect(screen.getByRole('button', { name: 'Tekrar dene' })).toBeInTheDocument();
  });

  it('a part that fails while it renders is not blamed on the connection', async () => {
    let broken = true;
    function Flaky() {
      if (broken) throw new Error('render bug');
      return <p>Übersicht</p>;
    }
    const user = userEvent.setup();
    wrap(
      <>
        <p>Timer läuft</p>
        <LazySection fallback={null}>
          <Flaky />
        </LazySection>
      </>,
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Dieser Teil der Seite konnte nicht angezeigt werden.');
    expect(alert).not.toHaveTextContent('Verbindung');
    expect(screen.getByText('Timer läuft')).toBeInTheDocument();
    broken = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Übersicht')).toBeInTheDocument();
  });
});
