import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import i18n from '@web/lib/i18n';
import type { Role } from '@web/lib/auth/auth-provider';
import { jsonResponse, renderWithApp, stubFetch } from '@web/test/render';
import { Navigation } from './navigation';
import { messagesInTabs, useMenuUnread } from './messages-badge';

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

const child = (id: number) => ({ id, name: `Kind ${id}`, teacher: { name: 'Mehmet Yılmaz' }, current_streak: 0, weekly_practice_time_minutes: 0, open_submissions: 0, overdue_submissions: 0, new_feedback: 0 });

function serve(unread: number, children = 1) {
  return stubFetch((c) => {
    if (c.url.startsWith('/api/conversations/unread')) return jsonResponse(200, { unread });
    if (c.url.startsWith('/api/guardian/children')) return jsonResponse(200, { data: Array.from({ length: children }, (_, i) => child(i + 1)) });
    return jsonResponse(200, { data: [] });
  });
}

function MenuProbe({ role }: { role: Role }) {
  return <output data-testid="menu-unread">{useMenuUnread(role)}</output>;
}

describe('Nachrichten in the navigation', () => {
  it.each(['teacher', 'student', 'guardian'] as const)('%s: the entry carries the unread count in its name', async (role) => {
    serve(3);
    renderWithApp(<Navigation role={role} />);
    const link = await screen.findByRole('link', { name: /^Nachrichten ?, 3 ungelesen$/ });
    expect(link).toHaveAttribute('href', '/nachrichten');
    expect(link).toHaveTextContent(/^Nachrichten3/);
  });

  it('no badge at 0; the administrator has no entry and asks nothing', async () => {
    const calls = serve(0);
    const { unmount } = renderWithApp(<Navigation role="teacher" />);
    expect(await screen.findByRole('link', { name: 'Nachrichten' })).toBeInTheDocument();
    await vi.waitFor(() => expect(calls.map((c) => c.url)).toContain('/api/conversations/unread'));
    expect(screen.queryByTestId('messages-badge')).not.toBeInTheDocument();
    unmount();
    const admin = serve(5);
    renderWithApp(<Navigation role="admin" />);
    expect(screen.queryByRole('link', { name: /Nachrichten/ })).not.toBeInTheDocument();
    expect(admin.filter((c) => c.url.startsWith('/api/conversations'))).toEqual([]);
  });

  it('the menu button counts the unread messages where Nachrichten is not a phone tab', async () => {
    expect([1, 2, 3, 4].map((n) => messagesInTabs('guardian', n))).toEqual([true, true, false, false]);
    expect(messagesInTabs('student', undefined)).toBe(true);
    expect(messagesInTabs('teacher', undefined)).toBe(false);

    serve(4);
    const teacher = renderWithApp(<MenuProbe role="teacher" />);
    expect(await screen.findByText('4')).toBeInTheDocument();
    teacher.unmount();

    serve(4);
    const student = renderWithApp(<MenuProbe role="student" />);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.getByTestId('menu-unread')).toHaveTextContent('0');
    student.unmount();

    serve(4, 3);
    renderWithApp(<MenuProbe role="guardian" />);
    expect(await screen.findByText('4')).toBeInTheDocument();
  });
});
