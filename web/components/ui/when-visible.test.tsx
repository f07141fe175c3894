import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeObserver } from '@web/test/intersection';
import { WhenVisible } from './when-visible';

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

  it('with onScroll, the first scroll of the page renders it wherever it is; without, a scroll does not', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    render(
      <>
        <WhenVisible fallback={<p>Platzhalter A</p>} onScroll>
          <p>Aufnahmen</p>
        </WhenVisible>
        <WhenVisible fallback={<p>Platzhalter B</p>}>
          <p>Kalender</p>
        </WhenVisible>
      </>,
    );
    expect(screen.queryByText('Aufnahmen')).toBeNull();
    act(() => void window.dispatchEvent(new Event('scroll')));
    expect(await screen.findByText('Aufnahmen')).toBeInTheDocument();
    expect(screen.getByText('Platzhalter B')).toBeInTheDocument();
    expect(screen.queryByText('Kalender')).toBeNull();
  });

  it('eager renders it at once (a link that lands inside it), and it stays when eager goes again', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const view = render(
      <WhenVisible fallback={<p>Platzhalter</p>} eager>
        <p>Aufnahmen</p>
      </WhenVisible>,
    );
    expect(await screen.findByText('Aufnahmen')).toBeInTheDocument();
    view.rerender(
      <WhenVisible fallback={<p>Platzhalter</p>} eager={false}>
        <p>Aufnahmen</p>
      </WhenVisible>,
    );
    expect(screen.getByText('Aufnahmen')).toBeInTheDocument();
    expect(screen.queryByText('Platzhalter')).toBeNull();
  });
});
