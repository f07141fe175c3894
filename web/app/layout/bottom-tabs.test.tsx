import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { BottomTabs, hasBottomTabs } from './bottom-tabs';

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

const tabNames = () => within(screen.getByTestId('bottom-tabs')).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')]);

describe('phone tabs by role', () => {
  it('students, administrators and guardians have tabs; teachers use the menu', () => {
    expect(['student', 'admin', 'guardian', 'teacher', null].map((r) => hasBottomTabs(r as never))).toEqual([true, true, true, false, false]);
  });

  it("administrators: the dashboard, teachers, students and the audit log; the current one is marked", () => {
    renderWithApp(<BottomTabs role="admin" />, { path: '/school/students' });
    expect(tabNames()).toEqual([
      ['Dashboard', '/'],
      ['Lehrkräfte', '/school/teachers'],
      ['Schüler', '/school/students'],
      ['Protokoll', '/school/audit'],
    ]);
    expect(screen.getByRole('link', { name: 'Schüler' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('navigation', { name: 'Schnellnavigation' })).toBeInTheDocument();
  });

  it('students: Heute, Aufgaben, Nachrichten with the unread count, and the tools', async () => {
    vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.startsWith('/api/conversations/unread') ? jsonResponse(200, { unread: 3 }) : jsonResponse(404, {}))));
    renderWithApp(<BottomTabs role="student" />, { path: '/nachrichten/7' });
    const messages = await screen.findByRole('link', { name: /^Nachrichten ?, 3 ungelesen$/ });
    expect(messages).toHaveAttribute('href', '/nachrichten');
    expect(messages).toHaveAttribute('aria-current', 'page');
    expect(within(messages).getByTestId('messages-tab-badge')).toHaveTextContent('3');
    expect(tabNames().map(([, href]) => href)).toEqual(['/', '/submissions', '/nachrichten', '/tools']);
  });

  it('guardians: the overview and each child by first name', async () => {
    const child = (id: number, name: string) => ({
      id,
      name,
      teacher: { name: 'Mehmet Yılmaz' },
      current_streak: 0,
      weekly_practice_time_minutes: 0,
      open_submissions: 0,
      overdue_submissions: 0,
      new_feedback: 0,
    });
    let kids = [child(3, 'Ayşe Demir'), child(8, 'Can Demir')];
    vi.stubGlobal('fetch', vi.fn(async (url: string) => (url.startsWith('/api/conversations/unread') ? jsonResponse(200, { unread: 0 }) : jsonResponse(200, { data: kids }))));
    const { unmount } = renderWithApp(<BottomTabs role="guardian" />, { path: '/children/8' });
    expect(await screen.findByRole('link', { name: 'Can' })).toHaveAttribute('aria-current', 'page');
    // two children leave room for Nachrichten (four tabs fit a 390 px phone)
    expect(tabNames()).toEqual([
      ['Dashboard', '/'],
      ['Ayşe', '/children/3'],
      ['Can', '/children/8'],
      ['Nachrichten', '/nachrichten'],
    ]);
    unmount();
    // three children: Nachrichten is in the menu
    kids = [...kids, child(9, 'Elif Demir')];
    renderWithApp(<BottomTabs role="guardian" />, { path: '/' });
    expect(await screen.findByRole('link', { name: 'Elif' })).toBeInTheDocument();
    expect(tabNames().map(([, href]) => href)).toEqual(['/', '/children/3', '/children/8', '/children/9']);
  });

  it('teachers have none', () => {
    renderWithApp(<BottomTabs role="teacher" />);
    expect(screen.queryByTestId('bottom-tabs')).not.toBeInTheDocument();
  });
});
