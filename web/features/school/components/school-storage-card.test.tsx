import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SchoolStorage } from '@contract/storage';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { stubServer } from '../test/fetch-stub';
import { SchoolStorageCard } from './school-storage-card';

vi.setConfig({ testTimeout: 20_000 });

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

const storage = (over: Partial<SchoolStorage> = {}): SchoolStorage => ({
  used_bytes: 42 * GiB,
  recordings_bytes: 40 * GiB,
  media_bytes: 2 * GiB,
  quota_bytes: 50 * GiB,
  student_quota_bytes: 1024 * MiB,
  defaults: { quota_bytes: 50 * GiB, student_quota_bytes: 1024 * MiB },
  custom: { quota: false, student_quota: false },
  top_students: [
    { id: 3, name: 'Ayşe Demir', teacher: { id: 2, name: 'Mehmet Yılmaz' }, used_bytes: 980 * MiB, recordings: 31 },
    { id: 4, name: 'Lukas Becker', teacher: { id: 2, name: 'Mehmet Yılmaz' }, used_bytes: 200 * MiB, recordings: 1 },
  ],
  ...over,
});

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('SchoolStorageCard (the administrator)', () => {
  it("shows the school's total against its quota, the warning near it, and the largest students", async () => {
    stubServer({ 'GET /api/school/storage': storage() });
    renderWithApp(<SchoolStorageCard />);
    expect(await screen.findByTestId('storage-total')).toHaveTextContent('42 GB von 50 GB belegt');
    expect(screen.getByRole('meter', { name: 'Speicherplatz' })).toHaveAttribute('aria-valuenow', '84');
    expect(screen.getByTestId('storage-school-warn')).toHaveTextContent('fast voll');
    expect(screen.getByTestId('storage-student-quota')).toHaveTextContent('1 GB (Standard)');
    const rows = within(screen.getByTestId('storage-top')).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Ayşe Demir');
    expect(rows[0]).toHaveTextContent('980 MB von 1 GB');
    expect(rows[0]).toHaveTextContent('31 Aufnahmen');
    expect(rows[1]).toHaveTextContent('1 Aufnahme');
  });

  it('changes the quotas in GB and MB (empty: the default) and shows a refusal at its field', async () => {
    let answer = 0;
    const server = stubServer({
      'GET /api/school/storage': storage(),
      'PUT /api/school/storage': () =>
        answer++ === 0
          ? jsonResponse(422, { message: 'Bitte überprüfen Sie Ihre Eingaben', errors: { student_quota_bytes: ['Der Speicherplatz je Schüler darf nicht größer sein als der Speicherplatz der Schule.'] } })
          : jsonResponse(200, storage({ quota_bytes: 80 * GiB, custom: { quota: true, student_quota: false } })),
    });
    const user = userEvent.setup();
    renderWithApp(<SchoolStorageCard />);
    await user.click(await screen.findByTestId('storage-edit'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Speicherplatz der Schule (GB)'), '80');
    await user.type(within(dialog).getByLabelText('Speicherplatz je Schüler für Aufnahmen (MB)'), '90000');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByText('Der Speicherplatz je Schüler darf nicht größer sein als der Speicherplatz der Schule.')).toBeInTheDocument();
    expect(server.writes()[0]?.body).toEqual({ quota_bytes: 80 * GiB, student_quota_bytes: 90000 * MiB });

    await user.clear(within(dialog).getByLabelText('Speicherplatz je Schüler für Aufnahmen (MB)'));
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(server.writes()).toHaveLength(2));
    expect(server.writes()[1]?.body).toEqual({ quota_bytes: 80 * GiB, student_quota_bytes: null });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('checks the numbers before sending (whole numbers within the limits)', async () => {
    const server = stubServer({ 'GET /api/school/storage': storage() });
    const user = userEvent.setup();
    renderWithApp(<SchoolStorageCard />);
    await user.click(await screen.findByTestId('storage-edit'));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Speicherplatz je Schüler für Aufnahmen (MB)'), '10');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByText('Bitte eine ganze Zahl von 50 bis 1048576 MB eingeben.')).toBeInTheDocument();
    expect(server.writes()).toHaveLength(0);
  });
});
