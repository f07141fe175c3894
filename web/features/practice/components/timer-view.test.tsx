import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { PracticeSession } from '@contract/practice';
import i18n from '@web/lib/i18n';
import { TimerView, type TimerViewProps } from './timer-view';

const NOW = new Date('2026-11-22T10:00:00.000Z');
const session = (id: number, startedSecondsAgo: number, durationMinutes: number | null = null): PracticeSession => ({
  id,
  submission_id: 1,
  started_at: new Date(NOW.getTime() - startedSecondsAgo * 1000).toISOString(),
  ended_at: durationMinutes === null ? null : new Date(NOW.getTime() - startedSecondsAgo * 1000 + durationMinutes * 60000).toISOString(),
  duration_minutes: durationMinutes,
  tempo_bpm: null,
  recorded_offline: false,
});

function view(p: Partial<TimerViewProps> = {}) {
  const props: TimerViewProps = {
    exerciseTitle: 'Lange Töne',
    running: null,
    checking: false,
    busy: null,
    sessions: [],
    sessionsLoading: false,
    sessionsFailed: false,
    onStart: vi.fn(),
    onStop: vi.fn(),
    today: '2026-11-22',
    ...p,
  };
  render(<TimerView {...props} />);
  return props;
}

const display = () => screen.getByTestId('timer-display').textContent;
/** The one Start/Stop control. */
const toggle = () => screen.getByTestId('practice-toggle');

beforeEach(async () => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW);
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('TimerView', () => {
  it('ticks mm:ss each second from the server start of a running session', () => {
    view({ running: session(9, 65) });
    expect(display()).toBe('01:05');
    act(() => vi.advanceTimersByTime(1000));
    expect(display()).toBe('01:06');
    act(() => vi.advanceTimersByTime(60_000));
    expect(display()).toBe('02:06');
    expect(toggle()).toHaveTextContent('Stopp');
    expect(toggle()).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByRole('button', { name: /^Start$/ })).toBeNull();
  });

  it('shows today\'s total on the task: finished sessions of today plus the running one; after Stop the total stays', () => {
    // 2 min finished today, one from yesterday (not counted), one running for 30 s
    const yesterday = { ...session(4, 26 * 3600, 10) };
    view({ running: session(9, 30), sessions: [session(9, 30), session(8, 600, 2), yesterday], estimatedMinutes: 20 });
    expect(display()).toBe('02:30');
    expect(screen.getByText(/Diese Sitzung: 00:30/)).toBeInTheDocument();
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuemax', '20');
    expect(screen.getByTestId('practice-goal')).toHaveTextContent('2 min von 20 min');
    cleanup();
    // stopped: the session now has its duration; the clock keeps the total
    view({ running: null, sessions: [session(9, 30, 0.5), session(8, 600, 2), yesterday], estimatedMinutes: 20 });
    expect(display()).toBe('02:30');
    expect(toggle()).toHaveTextContent('Start');
  });

  it('shows the true time at once when a sleeping phone wakes up', () => {
    view({ running: session(9, 0) });
    expect(display()).toBe('00:00');
    // the device slept for 10 minutes: no interval fired, the clock moved on
    vi.setSystemTime(new Date(NOW.getTime() + 10 * 60_000 + 3000));
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(display()).toBe('10:03');
  });

  it('waits at 00:00 with Start when nothing runs; the one control starts, then stops', () => {
    const p = view();
    expect(display()).toBe('00:00');
    act(() => vi.advanceTimersByTime(5000));
    expect(display()).toBe('00:00');
    expect(toggle()).toHaveTextContent('Start');
    fireEvent.click(toggle());
    expect(p.onStart).toHaveBeenCalledTimes(1);
    expect(p.onStop).not.toHaveBeenCalled();
    cleanup();
    const q = view({ running: session(1, 10) });
    fireEvent.click(toggle());
    expect(q.onStop).toHaveBeenCalledTimes(1);
  });

  it('waits (aria-disabled, still focusable) while the running session is looked up or a call runs', () => {
    const p = view({ checking: true });
    expect(toggle()).toHaveAttribute('aria-disabled', 'true');
    expect(toggle()).toBeEnabled();
    fireEvent.click(toggle());
    expect(p.onStart).not.toHaveBeenCalled();
    cleanup();
    view({ running: session(1, 10), busy: 'stop' });
    expect(screen.getByRole('button', { name: /Wird beendet/ })).toHaveAttribute('aria-disabled', 'true');
  });

  it('stops counting at 180 minutes and says so', () => {
    view({ running: session(3, 4 * 3600) });
    expect(display()).toBe('180:00');
    expect(screen.getByText(/Nach 180 Minuten/)).toBeInTheDocument();
  });

  it('lists the last 5 sessions, under a minute in seconds', () => {
    view({
      sessions: [session(7, 100), session(6, 200, 0.5), session(5, 300, 12.4), session(4, 400, 75), session(3, 500, 1), session(2, 600, 2)],
    });
    const items = within(screen.getByTestId('practice-sessions')).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('läuft');
    expect(items[1]).toHaveTextContent('30 s');
    expect(items[2]).toHaveTextContent('12 min');
    expect(items[3]).toHaveTextContent('1:15 h');
    expect(items[4]).toHaveTextContent('1 min');
  });

  it('speaks Turkish', async () => {
    await act(async () => {
      await i18n.changeLanguage('tr');
    });
    view();
    expect(toggle()).toHaveTextContent(/Başlat/);
    expect(screen.getByText('Çalışma süresini kaydet')).toBeInTheDocument();
    expect(screen.getByText('Henüz çalışma süresi kaydedilmedi.')).toBeInTheDocument();
  });
});
