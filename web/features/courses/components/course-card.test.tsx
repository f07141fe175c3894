import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { Course } from '@contract/courses';
import { CourseCard } from './course-card';

const course: Course = { id: 7, name: 'Bağlama Anfänger', description: null, created_at: '2026-10-01T10:00:00.000Z', students_count: 3 };

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('CourseCard CSV download', { timeout: 20_000 }, () => {
  it('downloads the course progress as the file the server names', async () => {
    const csv = '\uFEFFName;E-Mail\r\n';
    const fetchMock = vi.fn(async () => new Response(csv, { status: 200, headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="kursfortschritt-7-2026-11-23.csv"' } }));
    vi.stubGlobal('fetch', fetchMock);
    URL.createObjectURL = vi.fn(() => 'blob:csv');
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(`${this.download} ${this.href}`);
    });
    const user = userEvent.setup();
    renderWithApp(<CourseCard course={course} onEdit={() => {}} onDelete={() => {}} />);
    await user.click(screen.getByRole('button', { name: 'Fortschritt des Kurses Bağlama Anfänger als CSV herunterladen' }));
    await waitFor(() => expect(clicked).toEqual(['kursfortschritt-7-2026-11-23.csv blob:csv']));
    expect(String((fetchMock.mock.calls[0] as unknown[])[0])).toContain('/api/courses/7/progress.csv?language=de');
  });

  it('says so when the file cannot be made', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(404, { message: 'Nicht gefunden.' })));
    const user = userEvent.setup();
    renderWithApp(<CourseCard course={course} onEdit={() => {}} onDelete={() => {}} />);
    await user.click(screen.getByRole('button', { name: /als CSV herunterladen/ }));
    expect(await screen.findByText('Die CSV-Datei konnte nicht erstellt werden.')).toBeInTheDocument();
  });
});
