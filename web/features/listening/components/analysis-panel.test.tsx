import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { analyzeTrack } from '@contract/listening/analyze';
import type { ListeningReport } from '@contract/listening/schema';
import { planTake, synthTrack } from '@contract/listening/testing/synth';
import type { RecordingAnalysis } from '@contract/recording-analysis';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { ParentTakeLine, TeacherAnalysis } from './analysis-panel';
import { SummaryLines } from './summary';

/** A Hicaz take through the real analysis (a generated pitch track with its notes' starts as onsets). */
function hicazReport(): ListeningReport {
  const take = planTake({ seed: 11, makam: 'hicaz', notes: 30 });
  const track = { ...synthTrack(take, 11), onsetsMs: take.notes.map((n) => Math.round(n.startMs)) };
  return analyzeTrack(track, { makam: 'hicaz', tempo: { bpm: 100, unit: 'quarter' } });
}

function analysis(report: ListeningReport): RecordingAnalysis {
  return {
    recording_id: 5,
    computed_by: 'student',
    computed_at: '2026-01-01T10:00:00.000Z',
    analysis_version: 1,
    report_at: '2026-01-01T10:00:00.000Z',
    settings: { makam: 'hicaz', durak: null, tempo_bpm: 100, tempo_unit: 'quarter' },
    report,
  };
}

function serve(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => (new URL(url, 'http://localhost').pathname === '/api/recordings/5/analysis' ? jsonResponse(status, body) : jsonResponse(404, { message: 'nope' }))),
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe("the teacher's report", () => {
  it('shows the makam and tonic, the chart on the koma grid, a row per perde and the tempo; a perde plays its moments one after another', async () => {
    const report = hicazReport();
    serve(200, analysis(report));
    const onPlay = vi.fn();
    renderWithApp(<TeacherAnalysis take={{ id: 5, path: 'recordings/1/a.wav' }} onPlay={onPlay} />);
    expect(await screen.findByTestId('analysis-makam', {}, { timeout: 5000 })).toHaveTextContent(/^Hicaz auf Dügâh · Grundton \d+,?\d* Hz/);
    expect(screen.getByRole('img', { name: 'Tonhöhen auf dem Koma-Raster' })).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Perdes' });
    const rows = within(table).getAllByTestId('perde-row');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(report.makam!.degrees.map((d) => d.perde));
    expect(rows[0]).toHaveTextContent('Dügâh');
    const dugah = report.makam!.degrees[0]!;
    const button = within(rows[0]!).getByRole('button', { name: /^Dügâh ab \d+:\d\d abspielen$/ });
    fireEvent.click(button);
    expect(onPlay).toHaveBeenLastCalledWith(dugah.moments[0]!.start_ms);
    fireEvent.click(button);
    expect(onPlay).toHaveBeenLastCalledWith(dugah.moments[1]!.start_ms);
    expect(screen.getByText(/^Im Mittel ♩ = \d+$/)).toBeInTheDocument();
    expect(screen.getByText('Ziel ♩ = 100')).toBeInTheDocument();
    expect(screen.getByTestId('tempo-chart')).toBeInTheDocument();
  });

  it('says when a take is not analysed yet (and starts analysing it)', async () => {
    serve(404, { message: 'Diese Aufnahme ist noch nicht ausgewertet.', code: 'analysis_missing' });
    renderWithApp(<TeacherAnalysis take={{ id: 5, path: 'recordings/1/a.wav' }} onPlay={() => {}} />);
    expect(await screen.findByTestId('analysis-missing')).toHaveTextContent(/^Noch nicht ausgewertet – wird ausgewertet …$|^Die Aufnahme konnte in diesem Browser nicht ausgewertet werden\.$/);
  });

  it('a load error says so with a way to try again', async () => {
    serve(500, { message: 'kaputt' });
    renderWithApp(<TeacherAnalysis take={{ id: 5, path: 'recordings/1/a.wav' }} onPlay={() => {}} />);
    expect(await screen.findByRole('alert', {}, { timeout: 5000 })).toHaveTextContent('Die Auswertung konnte nicht geladen werden.');
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });
});

describe('the one-line summaries', () => {
  const report = (deviation: number, perde = 'Segâh'): ListeningReport => ({
    version: 1,
    duration_ms: 60_000,
    makam: {
      makam: 'rast',
      durak: 'Rast',
      tonic_hz: 293.3,
      tonic_score: 0.9,
      best_makam: 'rast',
      other_makam: false,
      makam_scores: [],
      voiced_share: 0.8,
      last_note_is_durak: true,
      degrees: [
        { perde: 'Rast', role: 'durak', aeu_koma: 0, aeu_cents: 0, played_cents: 0, played_koma: 0, deviation_cents: 0, spread_cents: 5, share: 0.3, moments: [], practice_note: null },
        { perde, role: 'degree', aeu_koma: 17, aeu_cents: 384.9, played_cents: 384.9 + deviation, played_koma: 17.2, deviation_cents: deviation, spread_cents: 9, share: 0.2, moments: [], practice_note: null },
      ],
    },
    western: null,
    tempo: { unit: 'eighth', target_bpm: 160, mean_bpm: 152.4, drift_bpm_per_min: 2.4, ioi_spread_ms: 30, onsets: 40, curve: [], moments: [] },
  });

  it('speaks to the student ("du"/"sen") and describes the take for the parents', async () => {
    const first = renderWithApp(<SummaryLines report={report(12.4)} voice="student" />);
    expect(screen.getByTestId('listening-pitch')).toHaveTextContent('Dein Segâh war im Mittel 12 Cent zu hoch.');
    expect(screen.getByTestId('listening-tempo')).toHaveTextContent('Tempo im Mittel ♪ = 152 (Ziel ♪ = 160), du wirst schneller (+2,4 BPM pro Minute).');
    first.unmount();
    const second = renderWithApp(<SummaryLines report={report(-15)} voice="neutral" />);
    expect(screen.getByTestId('listening-pitch')).toHaveTextContent('Segâh im Mittel 15 Cent zu tief');
    second.unmount();
    await i18n.changeLanguage('tr');
    renderWithApp(<SummaryLines report={report(12.4)} voice="student" />);
    expect(screen.getByTestId('listening-pitch')).toHaveTextContent('Segâh perden ortalama 12 sent tizdi.');
    expect(screen.getByTestId('listening-tempo')).toHaveTextContent('hızlanıyorsun');
  });

  it('a take close to AEU everywhere says so', () => {
    renderWithApp(<SummaryLines report={report(3)} voice="student" />);
    expect(screen.getByTestId('listening-pitch')).toHaveTextContent('Deine Töne lagen nah an ihrem Platz (höchstens 3 Cent daneben).');
  });

  it("the parents' line: not analysed yet", async () => {
    serve(404, { message: 'Diese Aufnahme ist noch nicht ausgewertet.', code: 'analysis_missing' });
    renderWithApp(<ParentTakeLine take={{ id: 5, path: 'recordings/1/a.wav' }} />);
    expect(await screen.findByTestId('parent-analysis')).toHaveTextContent('Noch nicht ausgewertet.');
  });
});
