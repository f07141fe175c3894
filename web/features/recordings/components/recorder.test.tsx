import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp } from '@web/test/render';
import i18n from '@web/lib/i18n';
import type { PendingTake } from '../lib/outbox';
import { uploads } from '@web/lib/outbox/progress';
import { Recorder } from './recorder';

const pending: PendingTake[] = [];
vi.mock('../lib/outbox', () => ({
  newTakeId: () => 'take-new',
  outbox: {
    put: vi.fn(async (t: PendingTake) => {
      pending.push(t);
    }),
    remove: vi.fn(async () => undefined),
    list: vi.fn(async (userId: number, submissionId?: number) => pending.filter((t) => t.userId === userId && (submissionId === undefined || t.submissionId === submissionId))),
    subscribe: () => () => undefined,
  },
}));

class FakeRecorder {
  static isTypeSupported = () => true;
}

function denyWith(name: string) {
  Object.defineProperty(navigator, 'mediaDevices', {
    configurable: true,
    value: { getUserMedia: vi.fn(() => Promise.reject(new DOMException('nope', name))) },
  });
}

describe('Recorder', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('de');
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    pending.length = 0;
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each([
    ['NotFoundError', 'Kein Mikrofon gefunden.'],
    ['NotAllowedError', 'Der Zugriff auf das Mikrofon wurde verweigert. Erlaube ihn in den Einstellungen des Browsers.'],
    ['NotReadableError', 'Das Mikrofon wird von einer anderen Anwendung verwendet.'],
  ])('shows a clear message for %s', async (name, message) => {
    denyWith(name);
    renderWithApp(<Recorder submissionId={7} userId={3} title="Tonleiter" />);
    await userEvent.click(screen.getByRole('button', { name: 'Aufnahme starten' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    // The student can try again or choose a file.
    expect(screen.getByRole('button', { name: 'Aufnahme starten' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Datei wählen' })).toBeInTheDocument();
  });

  it('shows the Turkish message for a denied microphone', async () => {
    await i18n.changeLanguage('tr');
    denyWith('NotAllowedError');
    renderWithApp(<Recorder submissionId={7} userId={3} title="Tonleiter" />);
    await userEvent.click(screen.getByRole('button', { name: 'Kaydı başlat' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Mikrofon erişimi reddedildi.');
  });

  it('offers a take that never reached the server again, only to its owner and on its task', async () => {
    const blob = new Blob([new Uint8Array(2000)], { type: 'audio/webm' });
    const base = { blob, type: 'audio/webm', kind: 'audio' as const, durationMs: 3000, message: '', title: 'Tonleiter', createdAt: '2026-03-01T10:00:00.000Z' };
    pending.push({ ...base, id: 'a', submissionId: 7, userId: 3 }, { ...base, id: 'b', submissionId: 8, userId: 3 }, { ...base, id: 'c', submissionId: 7, userId: 4 });
    renderWithApp(<Recorder submissionId={7} userId={3} title="Tonleiter" />);
    const buttons = await screen.findAllByRole('button', { name: 'Aufnahme erneut senden' });
    expect(buttons).toHaveLength(1);
    expect(screen.getByText('Noch nicht gesendet')).toBeInTheDocument();
    expect(screen.getByText(/0:03/)).toBeInTheDocument();
  });

  it("follows an upload of a pending take: its progress, then 'send again' when it ends without arriving", async () => {
    const blob = new Blob([new Uint8Array(2000)], { type: 'audio/webm' });
    pending.push({ id: 'u', submissionId: 7, userId: 3, blob, type: 'audio/webm', kind: 'audio', durationMs: 3000, message: '', title: 'T', createdAt: '2026-03-01T10:00:00.000Z' });
    renderWithApp(<Recorder submissionId={7} userId={3} title="T" />);
    expect(await screen.findByRole('button', { name: 'Aufnahme erneut senden' })).toBeInTheDocument();
    // the upload runs outside React (web/lib/outbox/progress.ts): the list follows it
    act(() => void uploads.begin('u'));
    expect(await screen.findByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
    act(() => uploads.progress('u', 0.5));
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    act(() => uploads.end('u'));
    expect(screen.queryByRole('progressbar')).toBeNull();
    expect(screen.getByRole('button', { name: 'Aufnahme erneut senden' })).toBeInTheDocument();
  });

  it('sends a pending take again and removes it from the device when the server acknowledged it', async () => {
    const { outbox } = await import('../lib/outbox');
    const blob = new Blob([new Uint8Array(2000)], { type: 'audio/webm' });
    pending.push({ id: 'a', submissionId: 7, userId: 3, blob, type: 'audio/webm', kind: 'audio', durationMs: 3000, message: 'Takt 12', title: 'T', createdAt: '2026-03-01T10:00:00.000Z' });
    const sent: { url: string; body: Document | XMLHttpRequestBodyInit | null | undefined }[] = [];
    class FakeXhr {
      status = 0;
      responseText = '';
      upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      onabort: (() => void) | null = null;
      private url = '';
      open(_m: string, url: string) {
        this.url = url;
      }
      setRequestHeader() {}
      getResponseHeader(): string | null {
        return null;
      }
      abort() {}
      send(body?: Document | XMLHttpRequestBodyInit | null) {
        sent.push({ url: this.url, body });
        setTimeout(() => {
          this.upload.onprogress?.({ lengthComputable: true, loaded: 1, total: 1 });
          this.status = 201;
          this.responseText = JSON.stringify({ id: 1 });
          this.onload?.();
        }, 0);
      }
    }
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    renderWithApp(<Recorder submissionId={7} userId={3} title="T" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Aufnahme erneut senden' }));
    expect(await screen.findByText('Aufnahme gesendet.')).toBeInTheDocument();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.url).toContain('/api/submissions/7/recordings');
    const form = sent[0]?.body as FormData;
    expect(form.get('message')).toBe('Takt 12');
    expect(form.get('duration_ms')).toBe('3000');
    await waitFor(() => expect(outbox.remove).toHaveBeenCalledWith('a'));
  });
});
