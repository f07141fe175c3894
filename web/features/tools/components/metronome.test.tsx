import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { Metronome } from './metronome';

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(cleanup);

const display = () => screen.getByTestId('tempo-display');

describe('Metronome: the tempo in the unit the music is written in', { timeout: 20_000 }, () => {
  it('9/8 counts eighths: "♪ = 80", named "Achtel = 80", no unit to choose', () => {
    render(<Metronome initialMeter="9/8" initialTempo={80} />);
    expect(display()).toHaveAttribute('data-unit', 'eighth');
    expect(within(display()).getByRole('img', { name: 'Achtel = 80' })).toBeInTheDocument();
    expect(screen.getByRole('slider', { name: 'Tempo (Schläge pro Minute)' })).toHaveAttribute('aria-valuetext', 'Achtel = 80');
    expect(screen.queryByTestId('tempo-unit')).toBeNull();
  });

  it('4/4 counts quarters, Aksak eighths, a stored unit wins', () => {
    const { unmount } = render(<Metronome initialMeter="4/4" initialTempo={80} />);
    expect(screen.getByRole('img', { name: 'Viertel = 80' })).toBeInTheDocument();
    unmount();
    render(<Metronome initialUsul="aksak" initialMeter="4/4" initialTempo={80} />);
    expect(screen.getByRole('img', { name: 'Achtel = 80' })).toBeInTheDocument();
    cleanup();
    render(<Metronome initialMeter="6/8" initialTempo={60} initialTempoUnit="dotted-quarter" />);
    expect(screen.getByRole('img', { name: 'punktierte Viertel = 60' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'punktierte Viertel' })).toBeChecked();
  });

  it('6/8 lets one count dotted quarters: the same pulse, the number converted', async () => {
    const user = userEvent.setup({ delay: null });
    const onTempoChange = vi.fn();
    render(<Metronome initialMeter="6/8" initialTempo={180} onTempoChange={onTempoChange} />);
    const group = screen.getByRole('group', { name: 'Zählzeit' });
    expect(within(group).getByRole('radio', { name: 'Achtel' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'punktierte Viertel' }));
    expect(screen.getByRole('img', { name: 'punktierte Viertel = 60' })).toBeInTheDocument();
    expect(onTempoChange).toHaveBeenLastCalledWith(60);
    // a bar that is not compound counts its written unit again
    await user.selectOptions(screen.getByLabelText('Takt oder Usul'), 'meter:9/8');
    expect(display()).toHaveAttribute('data-unit', 'eighth');
    expect(screen.queryByTestId('tempo-unit')).toBeNull();
    // 12/8 keeps a dotted quarter chosen in 6/8
    await user.selectOptions(screen.getByLabelText('Takt oder Usul'), 'meter:6/8');
    await user.click(screen.getByRole('radio', { name: 'punktierte Viertel' }));
    await user.selectOptions(screen.getByLabelText('Takt oder Usul'), 'meter:12/8');
    expect(display()).toHaveAttribute('data-unit', 'dotted-quarter');
  });

  it('names the note in Turkish: "sekizlik = 80"', async () => {
    await i18n.changeLanguage('tr');
    render(<Metronome initialUsul="aksak" initialTempo={80} />);
    expect(screen.getByRole('img', { name: 'sekizlik = 80' })).toBeInTheDocument();
    cleanup();
    render(<Metronome initialUsul="yuruk_semai" initialTempo={60} initialTempoUnit="dotted-quarter" />);
    expect(screen.getByRole('group', { name: 'Vuruş birimi' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'noktalı dörtlük = 60' })).toBeInTheDocument();
  });
});
