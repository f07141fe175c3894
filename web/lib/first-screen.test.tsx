import { Suspense, use } from 'react';
import { act, render, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FIRST_SCREEN_LIMIT_MS, FIRST_SCREEN_LOOK_MS, resetFirstScreenForTests, useFirstScreenSettled, watchFirstScreen } from './first-screen';

beforeEach(() => {
  vi.useFakeTimers();
  resetFirstScreenForTests();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  resetFirstScreenForTests();
});

describe('the first screen', () => {
  it('is there at once where nothing watches for it (a screen rendered alone)', () => {
    const { result } = renderHook(() => useFirstScreenSettled());
    expect(result.current).toBe(true);
  });

  it('holds second things back until the start says it is quiet, then lets them go', async () => {
    let quiet = false;
    const done = vi.fn();
    void watchFirstScreen(() => quiet).then(done);
    const { result } = renderHook(() => useFirstScreenSettled());
    expect(result.current).toBe(false);
    await act(() => vi.advanceTimersByTimeAsync(FIRST_SCREEN_LOOK_MS * 5));
    expect(result.current).toBe(false);
    expect(done).not.toHaveBeenCalled();
    quiet = true;
    await act(() => vi.advanceTimersByTimeAsync(FIRST_SCREEN_LOOK_MS));
    expect(result.current).toBe(true);
    expect(done).toHaveBeenCalledOnce();
  });

  it('lets the held-back parts in as a transition: what is on screen stays until they are ready', async () => {
    let quiet = false;
    void watchFirstScreen(() => quiet);
    const never = new Promise<never>(() => undefined);
    function Probe() {
      // The parts let in suspend (their chunk or read is on its way): a blocking update would
      // replace the screen with the fallback, a transition keeps it.
      if (useFirstScreenSettled()) use(never);
      return <p>screen</p>;
    }
    render(
      <Suspense fallback={<p>fallback</p>}>
        <Probe />
      </Suspense>,
    );
    expect(screen.getByText('screen')).toBeTruthy();
    quiet = true;
    await act(() => vi.advanceTimersByTimeAsync(FIRST_SCREEN_LOOK_MS * 2));
    expect(screen.queryByText('fallback')).toBeNull();
    expect(screen.getByText('screen')).toBeTruthy();
  });

  it('after the reads, waits for the browser to be idle (React has drawn what they brought)', async () => {
    let idle: (() => void) | null = null;
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => {
      idle = callback;
      return 1;
    });
    const done = vi.fn();
    void watchFirstScreen(() => true).then(done);
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_LOOK_MS);
    expect(idle).not.toBeNull();
    expect(done).not.toHaveBeenCalled();
    idle!();
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toHaveBeenCalledOnce();
  });

  it('waits at most its limit, whatever the start says', async () => {
    const done = vi.fn();
    void watchFirstScreen(() => false).then(done);
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_LIMIT_MS - FIRST_SCREEN_LOOK_MS);
    expect(done).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_LOOK_MS * 2);
    expect(done).toHaveBeenCalledOnce();
  });

  it('is watched once per page: a second call gets the same wait', () => {
    const first = watchFirstScreen(() => false);
    expect(watchFirstScreen(() => true)).toBe(first);
  });
});
