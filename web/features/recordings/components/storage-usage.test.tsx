import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { StudentStorage } from '@contract/storage';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { storageErrorText } from '@web/lib/storage-errors';
import { StorageUsage } from './storage-usage';

const MiB = 1024 * 1024;

function serve(usage: StudentStorage) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (new URL(url, 'http://localhost').pathname === '/api/storage/usage' ? jsonResponse(200, usage) : jsonResponse(404, { message: 'nope' }))),
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('StorageUsage (before the student records)', () => {
  it('shows "X von Y belegt" and no warning while there is room', async () => {
    serve({ used_bytes: 120 * MiB, quota_bytes: 1024 * MiB, available_bytes: 904 * MiB, school_full: false });
    renderWithApp(<StorageUsage />);
    expect(await screen.findByTestId('storage-usage-text')).toHaveTextContent('120 MB von 1 GB belegt');
    expect(screen.getByRole('meter', { name: 'Speicher für deine Aufnahmen' })).toHaveAttribute('aria-valuenow', '12');
    expect(screen.queryByTestId('storage-warn')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('warns near the limit and says what to do', async () => {
    serve({ used_bytes: 900 * MiB, quota_bytes: 1024 * MiB, available_bytes: 124 * MiB, school_full: false });
    renderWithApp(<StorageUsage />);
    expect(await screen.findByTestId('storage-warn')).toHaveTextContent('Dein Speicher ist fast voll: noch 124 MB frei. Lösche ältere Aufnahmen');
  });

  it('says when it is full, and when it is the school that is full (Turkish too)', async () => {
    serve({ used_bytes: 1024 * MiB, quota_bytes: 1024 * MiB, available_bytes: 0, school_full: false });
    const first = renderWithApp(<StorageUsage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Dein Speicher ist voll. Lösche ältere Aufnahmen, um neue zu senden, oder frag deine Lehrkraft.');
    first.unmount();

    await i18n.changeLanguage('tr');
    serve({ used_bytes: 10 * MiB, quota_bytes: 1024 * MiB, available_bytes: 0, school_full: true });
    renderWithApp(<StorageUsage />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Okulunun depolama alanı dolu.');
    expect(screen.getByTestId('storage-usage-text')).toHaveTextContent('1 GB alanın 10 MB kadarı dolu');
  });
});

describe('storageErrorText (the refusal of an upload for want of room)', () => {
  const refusal = (status: number, body: object) => new ApiError(status, 'Server', undefined, body);

  it("maps each code to the web app's own text with what to do, in German and Turkish", async () => {
    const student = refusal(413, { message: 'x', code: 'storage_quota_student', used_bytes: 50 * MiB, quota_bytes: 50 * MiB });
    expect(storageErrorText(student)).toBe(
      'Dein Speicher für Aufnahmen ist voll (50 MB von 50 MB). Lösche ältere Aufnahmen oder frag deine Lehrkraft. Die Aufnahme bleibt auf diesem Gerät gespeichert.',
    );
    expect(storageErrorText(refusal(413, { message: 'x', code: 'storage_quota_school' }))).toMatch(/^Der Speicher deiner Schule ist voll/);
    expect(storageErrorText(refusal(507, { message: 'x', code: 'insufficient_storage' }))).toMatch(/^Auf dem Server ist gerade kein Platz frei/);
    await i18n.changeLanguage('tr');
    expect(storageErrorText(student)).toMatch(/^Kayıtların için depolama alanın dolu/);
  });

  it('is null for every other error (a 413 of a too large file, a 500)', () => {
    expect(storageErrorText(refusal(413, { message: 'Die Aufnahme ist zu groß (max. 50 MB).' }))).toBeNull();
    expect(storageErrorText(refusal(500, { message: 'x', code: 'storage_quota_student' }))).toBeNull();
    expect(storageErrorText(new Error('x'))).toBeNull();
  });
});
