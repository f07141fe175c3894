import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { aRecording } from '@web/test/fixtures';
import { FakeObserver } from '@web/test/intersection';
import { RecordingPlayer } from './recording-player';

// The waveform library needs Web Audio: a stand-in that reports 'ready' once it is given the take.
const wave = vi.hoisted(() => ({ loaded: [] as Blob[], played: 0 }));
vi.mock('wavesurfer.js', () => ({
  default: {
    create: () => {
      const handlers = new Map<string, (arg?: unknown) => void>();
      return {
        on: (event: string, cb: (arg?: unknown) => void) => void handlers.set(event, cb),
        loadBlob: async (blob: Blob) => {
          wave.loaded.push(blob);
          handlers.get('ready')?.(12);
        },
        destroy: () => undefined,
        setTime: () => undefined,
        play: async () => {
          wave.played++;
        },
        pause: () => undefined,
        playPause: async () => undefined,
        getCurrentTime: () => 0,
      };
    },
  },
}));

const recording = aRecording();

const FILE = '/api/media-file/recordings/7/31.webm?exp=1&sig=x';

/** The server: the signed link and the file, each failing the first `fails` times it is asked; the file waits for `held` when given. */
function stubServer(fails: { link?: number; file?: number }, held?: Promise<void>) {
  const asked: string[] = [];
  let link = fails.link ?? 0;
  let file = fails.file ?? 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(url);
      if (url.startsWith('/api/media/')) return link-- > 0 ? jsonResponse(500, { message: 'Serverfehler' }) : jsonResponse(200, { url: FILE });
      if (url === FILE) await held;
      if (url === FILE) return file-- > 0 ? new Response('', { status: 404 }) : new Response('take', { status: 200, headers: { 'Content-Type': 'audio/webm' } });
      return jsonResponse(404, { message: 'Nicht gefunden' });
    }),
  );
  return asked;
}

beforeEach(async () => {
  wave.loaded.length = 0;
  wave.played = 0;
  FakeObserver.last = null;
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('the recording player', () => {
  it("fetches the take's file through its signed link and hands it to the waveform", async () => {
    const asked = stubServer({});
    renderWithApp(<RecordingPlayer recording={recording} />);
    await waitFor(() => expect(screen.getByTestId('waveform')).toHaveAttribute('data-ready', 'true'));
    expect(asked).toContain(FILE);
    expect(await wave.loaded[0]?.text()).toBe('take');
    expect(screen.getByRole('button', { name: 'Abspielen' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says so when the file cannot be loaded, and loads it again on "Erneut versuchen"', async () => {
    const asked = stubServer({ file: 1 });
    renderWithApp(<RecordingPlayer recording={recording} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Die Aufnahme konnte nicht geladen werden.');
    expect(screen.getByRole('button', { name: 'Abspielen' })).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    await waitFor(() => expect(screen.getByTestId('waveform')).toHaveAttribute('data-ready', 'true'));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(asked.filter((u) => u === FILE)).toHaveLength(2);
  });

  it('says so in Turkish when the signed link cannot be read, and asks for it again on the retry', async () => {
    await i18n.changeLanguage('tr');
    const asked = stubServer({ link: 1 });
    renderWithApp(<RecordingPlayer recording={recording} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Kayıt yüklenemedi.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Tekrar dene' }));
    await waitFor(() => expect(screen.getByTestId('waveform')).toHaveAttribute('data-ready', 'true'));
    expect(asked.filter((u) => u.startsWith('/api/media/'))).toHaveLength(2);
  });

  it('far below the viewport it asks for nothing; coming into view loads and draws the take', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const asked = stubServer({});
    renderWithApp(<RecordingPlayer recording={recording} />);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked).toEqual([]);
    expect(screen.getByTestId('waveform')).toHaveAttribute('data-ready', 'false');
    act(() => FakeObserver.last!.enter());
    await waitFor(() => expect(screen.getByTestId('waveform')).toHaveAttribute('data-ready', 'true'));
    expect(asked).toContain(FILE);
    expect(wave.played).toBe(0);
  });

  it('Play pressed before the take is loaded loads it and plays once it is ready (once)', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    let release = () => {};
    const asked = stubServer({}, new Promise<void>((r) => (release = r)));
    renderWithApp(<RecordingPlayer recording={recording} />);
    const play = screen.getByRole('button', { name: 'Abspielen' });
    expect(play).toBeEnabled();
    await userEvent.setup().click(play);
    // while the file is on its way the button says so
    await waitFor(() => expect(asked).toContain(FILE));
    expect(play).toHaveAttribute('aria-busy', 'true');
    expect(wave.played).toBe(0);
    release();
    await waitFor(() => expect(screen.getByTestId('waveform')).toHaveAttribute('data-ready', 'true'));
    await waitFor(() => expect(wave.played).toBe(1));
    expect(asked.filter((u) => u === FILE)).toHaveLength(1);
    // the button says it is busy only while the take loads
    expect(screen.getByRole('button', { name: 'Abspielen' })).not.toHaveAttribute('aria-busy');
  });
});
