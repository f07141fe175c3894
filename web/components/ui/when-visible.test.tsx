import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WhenVisible } from './when-visible';

/** A stand-in for the browser's IntersectionObserver that the test drives. */
class FakeObserver {
  static last: FakeObserver | null = null;
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.last = this;
  }
  observe = vi.fn();
  disconnect = vi.fn();
  unobserve = vi.fn();
  takeRecords = () => [];
  enter() {
    this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}

describe('WhenVisible', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the fallback until its place comes near the viewport', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    render(
      <WhenVisible fallback={<p>Platzhalter</p>} testId="slot">
        <button type="button">Metronom starten</button>
      </WhenVisible>,
    );
    expect(screen.getByText('Platzhalter')).toBeInTheDocument();
    expect(screen.queryByRole('button')).toBeNull();
    act(() => FakeObserver.last!.enter());
    expect(await screen.findByRole('button', { name: 'Metronom starten' })).toBeInTheDocument();
    expect(screen.getByTestId('slot')).toHaveAttribute('data-shown', 'true');
  });

  it('the first Tab renders it, so a keyboard user finds its controls in their place', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const user = userEvent.setup();
    render(
      <>
        <button type="button">Start</button>
        <WhenVisible fallback={<p>Platzhalter</p>}>
          <button type="button">Metronom starten</button>
        </WhenVisible>
      </>,
    );
    // Other keys (typing in a field) do not.
    await user.keyboard('a');
    expect(screen.queryByRole('button', { name: 'Metronom starten' })).toBeNull();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Start' })).toHaveFocus();
    expect(await screen.findByRole('button', { name: 'Metronom starten' })).toBeInTheDocument();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Metronom starten' })).toHaveFocus();
  });
});
