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
    ...p,
  };
  render(<TimerView {...props} />);
  return props;
}

const display = () => screen.getByTestId('timer-display').textContent;
const startButton = () => screen.getByRole('button', { name: /Start/ });
const stopButton = () => screen.getByRole('button', { name: /Stopp/ });

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
    expect(startButton()).toBeDisabled();
    expect(stopButton()).toBeEnabled();
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

  it('waits at 00:00 with Start enabled and Stop disabled when nothing runs', () => {
    const p = view();
    expect(display()).toBe('00:00');
    act(() => vi.advanceTimersByTime(5000));
    expect(display()).toBe('00:00');
    expect(startButton()).toBeEnabled();
    expect(stopButton()).toBeDisabled();
    fireEvent.click(startButton());
    expect(p.onStart).toHaveBeenCalledTimes(1);
  });

  it('disables both buttons while the running session is looked up or a call runs', () => {
    view({ checking: true });
    expect(startButton()).toBeDisabled();
    expect(stopButton()).toBeDisabled();
    cleanup();
    view({ running: session(1, 10), busy: 'stop' });
    expect(screen.getByRole('button', { name: /Wird beendet/ })).toBeDisabled();
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
    expect(screen.getByRole('button', { name: /Başlat/ })).toBeEnabled();
    expect(screen.getByText('Çalışma süresini kaydet')).toBeInTheDocument();
    expect(screen.getByText('Henüz çalışma süresi kaydedilmedi.')).toBeInTheDocument();
  });
});
