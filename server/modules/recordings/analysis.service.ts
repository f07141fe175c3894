import { sql, type SQL } from 'drizzle-orm';
import { listeningReportSchema, type ListeningReport } from '@contract/listening/schema';
import { effectiveTempoUnit, MAKAM_KEYS, type MakamKey, type TempoUnit } from '@contract/music-keys';
import {
  ANALYSIS_LIMITS,
  ANALYSIS_VERSION,
  type AnalysisComputedBy,
  type AnalysisPutBody,
  type AnalysisSettings,
  type RecordingAnalysis,
} from '@contract/recording-analysis';
import { rows, type Db, type DbOrTx } from '../../db/client';
import { AppError, forbidden, invalid, notFound, type Msg } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import { MAX_TRACK_CHARS, type AnalysisJob, type AnalysisResult, type TrackRefusal } from './analysis-compute';
import { AnalysisLimiter } from './analysis-limit';
import { AnalysisWorkerLimit, runAnalysis } from './analysis-pool';
import { recordingMessages } from './recordings.service';

/**
 * A take's analysis (docs/decisions/listening.md, "Where it runs"): a browser computes the pitch
 * track and onsets from the take's audio and sends the track; the server checks it with the bounded
 * decoder and computes the report itself from the track and the exercise's settings, never from a
 * client's report. The report is kept with the settings and analysis version it was computed with;
 * a read with other settings (the teacher changed the exercise's makam or tempo) computes it again.
 *
 * What it may cost ("What a report may cost"): this thread compares the sizes and counts the body
 * states with ANALYSIS_LIMITS and does the database work; decoding and the report run in the
 * analysis worker (analysis-pool.ts), and only for a take that has no analysis yet, within the
 * user's bucket (analysis-limit.ts).
 */

export const analysisMessages = {
  missing: {
    de: 'Diese Aufnahme ist noch nicht ausgewertet.',
    tr: 'Bu kayıt henüz değerlendirilmedi.',
  },
  unreadable: { de: 'Die Tonhöhenspur ist nicht lesbar.', tr: 'Perde izi okunamıyor.' },
  notBase64: { de: 'Die Tonhöhenspur muss Base64 sein.', tr: 'Perde izi Base64 olmalı.' },
  counts: { de: 'Die Angaben passen nicht zur Tonhöhenspur.', tr: 'Bilgiler perde iziyle uyuşmuyor.' },
  hop: {
    de: `Der Abstand der Messpunkte muss ${ANALYSIS_LIMITS.minHopMs}–${ANALYSIS_LIMITS.maxHopMs} ms betragen.`,
    tr: `Ölçüm noktaları arasındaki aralık ${ANALYSIS_LIMITS.minHopMs}–${ANALYSIS_LIMITS.maxHopMs} ms olmalı.`,
  },
  tooLong: { de: 'Die Tonhöhenspur ist länger als die Aufnahme.', tr: 'Perde izi kayıttan daha uzun.' },
  tooLarge: {
    de: `Die Tonhöhenspur ist zu groß (max. ${ANALYSIS_LIMITS.maxTrackBytes / 1024} KB).`,
    tr: `Perde izi çok büyük (en fazla ${ANALYSIS_LIMITS.maxTrackBytes / 1024} KB).`,
  },
  tooManyFrames: {
    de: `Die Tonhöhenspur hat zu viele Messpunkte (max. ${ANALYSIS_LIMITS.maxFrames.toLocaleString('de-DE')}, eine Aufnahme von 60 Minuten).`,
    tr: `Perde izinde çok fazla ölçüm noktası var (en fazla ${ANALYSIS_LIMITS.maxFrames.toLocaleString('de-DE')}, 60 dakikalık bir kayıt).`,
  },
  rateLimited: {
    de: 'Zu viele Auswertungen in kurzer Zeit. Bitte in einigen Minuten erneut versuchen.',
    tr: 'Kısa sürede çok fazla değerlendirme istendi. Birkaç dakika sonra tekrar denenmeli.',
  },
  busy: {
    de: 'Der Server wertet gerade viele Aufnahmen aus. Bitte gleich noch einmal versuchen.',
    tr: 'Sunucu şu anda çok sayıda kaydı değerlendiriyor. Biraz sonra tekrar denenmeli.',
  },
  workerLimits: {
    de: 'Die Auswertung dieser Aufnahme hat zu lange gedauert und wurde abgebrochen. Bitte später erneut versuchen.',
    tr: 'Bu kaydın değerlendirilmesi çok uzun sürdü ve durduruldu. Daha sonra tekrar denenmeli.',
  },
} satisfies Record<string, Msg>;

/** Seconds a client should wait after a 503 of the analysis. */
const RETRY_AFTER_S = 60;

type Target = {
  id: number;
  duration_ms: number;
  makam: string | null;
  durak: string | null;
  tempo_bpm: number | null;
  tempo_unit: string | null;
  usul: string | null;
  meter: string | null;
  meter_grouping: string | null;
};

/** Who may see a take's analysis: its student, their teacher, their guardians (everyone else: the same 404 as none). */
function whoSql(user: AuthUser): SQL {
  if (user.role === 'student') return sql`r.student_id = ${user.id}`;
  if (user.role === 'teacher') return sql`r.teacher_id = ${user.id}`;
  if (user.role === 'guardian')
    return sql`exists (select 1 from guardian_links gl where gl.guardian_id = ${user.id} and gl.student_id = r.student_id and gl.school_id = r.school_id)`;
  return sql`false`;
}

/** The recording (if the caller may see it) with its task's exercise settings (none when the exercise is gone). */
async function findTarget(db: DbOrTx, user: AuthUser, id: number): Promise<Target | null> {
  const [r] = await rows<Target>(
    db,
    sql`select r.id, r.duration_ms, e.makam, e.durak, e.tempo_bpm, e.tempo_unit, e.usul, e.meter, e.meter_grouping
        from recordings r
        join submissions s on s.id = r.submission_id and s.school_id = r.school_id
        left join exercises e on e.id = s.exercise_id and e.school_id = r.school_id
        where r.id = ${id} and r.school_id = ${user.schoolId} and ${whoSql(user)}`,
  );
  return r ?? null;
}

type AnalysisRow = {
  computed_by: AnalysisComputedBy;
  computed_at: Date | string;
  report: unknown;
  analysis_version: number;
  settings_key: string;
  report_at: Date | string;
};

async function findAnalysis(db: DbOrTx, schoolId: number, recordingId: number): Promise<AnalysisRow | null> {
  const [a] = await rows<AnalysisRow>(
    db,
    sql`select a.computed_by, a.computed_at, a.report, a.analysis_version, a.settings_key, a.report_at
        from recording_analyses a where a.recording_id = ${recordingId} and a.school_id = ${schoolId}`,
  );
  return a ?? null;
}

/** The stored track as base64 (only read when the report must be computed again). */
async function findTrack(db: DbOrTx, schoolId: number, recordingId: number): Promise<string | null> {
  const [a] = await rows<{ track: string }>(db, sql`select encode(track, 'base64') as track from recording_analyses where recording_id = ${recordingId} and school_id = ${schoolId}`);
  return a?.track ?? null;
}

/** The settings the report uses: the exercise's makam and durak, its tempo in its written unit. */
export function settingsOf(t: Omit<Target, 'id' | 'duration_ms'>): AnalysisSettings {
  const makam = t.makam && (MAKAM_KEYS as readonly string[]).includes(t.makam) ? (t.makam as MakamKey) : null;
  const unit: TempoUnit = effectiveTempoUnit(t);
  return { makam, durak: makam ? t.durak : null, tempo_bpm: t.tempo_bpm, tempo_unit: unit };
}

const keyOf = (s: AnalysisSettings) => JSON.stringify([ANALYSIS_VERSION, s.makam, s.durak, s.tempo_bpm, s.tempo_unit]);

const iso = (v: Date | string) => new Date(v).toISOString();
const missing = () => new AppError(404, analysisMessages.missing, undefined, { code: 'analysis_missing' });
const badTrack = (msg: Msg) => invalid({ track: msg });

/** A track the worker refused: 413 for its size, else 422 on track with the reason's text. */
function refusal(reason: TrackRefusal): AppError {
  return reason === 'tooLarge' ? new AppError(413, analysisMessages.tooLarge) : badTrack(analysisMessages[reason]);
}

/** The worker's answer to a job, its limits as 503 (try again later). */
async function compute(job: AnalysisJob): Promise<AnalysisResult> {
  try {
    return await runAnalysis(job);
  } catch (e) {
    if (!(e instanceof AnalysisWorkerLimit)) throw e;
    const busy = e.reason === 'busy';
    throw new AppError(
      503,
      busy ? analysisMessages.busy : analysisMessages.workerLimits,
      undefined,
      { code: busy ? 'analysis_busy' : 'analysis_limits' },
      { 'retry-after': String(RETRY_AFTER_S) },
    );
  }
}

/** The decoded length of base64 of this many characters (padding aside): compared before anything is decoded. */
const decodedBytes = (b64: string) => Math.floor((b64.length * 3) / 4) - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

export class AnalysisService {
  private readonly limiter: AnalysisLimiter;
  /** Reports being computed again (GET), by recording and settings: readers at the same moment share one job. */
  private readonly recomputing = new Map<string, Promise<{ report: ListeningReport; reportAt: Date | string }>>();

  constructor(private readonly db: Db) {
    this.limiter = new AnalysisLimiter(db);
  }

  /** GET: the report from the stored track under the exercise's current settings (kept until they change). */
  async get(user: AuthUser, recordingId: number): Promise<RecordingAnalysis> {
    if (user.role === 'admin') throw forbidden();
    const target = await findTarget(this.db, user, recordingId);
    if (!target) throw notFound(recordingMessages.notFound);
    return this.stored(user.schoolId, recordingId, target);
  }

  /** The stored analysis under the target's current settings; computed again (in the worker, once) when they changed. */
  private async stored(schoolId: number, recordingId: number, target: Target): Promise<RecordingAnalysis> {
    const row = await findAnalysis(this.db, schoolId, recordingId);
    if (!row) throw missing();
    const settings = settingsOf(target);
    const key = keyOf(settings);
    const kept = row.settings_key === key ? listeningReportSchema.safeParse(row.report) : null;
    if (kept?.success) return this.answer(recordingId, row, settings, kept.data, row.report_at);
    // Settings or method changed since: compute again from the stored track, and keep it.
    const flight = `${recordingId}|${key}`;
    let p = this.recomputing.get(flight);
    if (!p) {
      p = this.recompute(schoolId, recordingId, settings, key).finally(() => this.recomputing.delete(flight));
      this.recomputing.set(flight, p);
    }
    const { report, reportAt } = await p;
    return this.answer(recordingId, row, settings, report, reportAt);
  }

  private async recompute(schoolId: number, recordingId: number, settings: AnalysisSettings, key: string) {
    const track = await findTrack(this.db, schoolId, recordingId);
    if (track === null) throw missing();
    const r = await compute({ kind: 'stored', data: track, settings });
    if (!r.ok) throw new Error(`the report of recording ${recordingId} could not be computed again: ${'error' in r ? r.error : r.refused}`);
    const [u] = await rows<{ report_at: Date | string }>(
      this.db,
      sql`update recording_analyses set report = ${JSON.stringify(r.report)}::jsonb, analysis_version = ${ANALYSIS_VERSION}, settings_key = ${key}, report_at = now()
          where recording_id = ${recordingId} and school_id = ${schoolId} returning report_at`,
    );
    return { report: r.report, reportAt: u?.report_at ?? new Date() };
  }

  /**
   * PUT: a browser's track for the take. The sizes and counts the body states are checked here
   * (413, 422); a take that has an analysis answers it (200) without decoding anything; otherwise
   * the user's bucket is charged (429 when empty) and the worker decodes and checks the track
   * (base64, the bounded decoder, its counts and hop, not longer than the take) and computes the
   * report, which is stored (201). The first track sent is kept: one that arrives while another is
   * computed (the teacher's browser racing the student's) answers 200 with the stored analysis.
   */
  async put(user: AuthUser, recordingId: number, body: AnalysisPutBody): Promise<{ created: boolean; analysis: RecordingAnalysis }> {
    if (user.role !== 'student' && user.role !== 'teacher') throw forbidden();
    const target = await findTarget(this.db, user, recordingId);
    if (!target) throw notFound(recordingMessages.notFound);
    const t = body.track;
    if (t.data.length > MAX_TRACK_CHARS || decodedBytes(t.data) > ANALYSIS_LIMITS.maxTrackBytes) throw new AppError(413, analysisMessages.tooLarge);
    if (t.hop_ms < ANALYSIS_LIMITS.minHopMs || t.hop_ms > ANALYSIS_LIMITS.maxHopMs) throw badTrack(analysisMessages.hop);
    if (t.frames > ANALYSIS_LIMITS.maxFrames) throw badTrack(analysisMessages.tooManyFrames);
    const limitMs = target.duration_ms + ANALYSIS_LIMITS.slackMs;
    if (t.frames * t.hop_ms > limitMs) throw badTrack(analysisMessages.tooLong);

    // Stored already: its analysis, and nothing of this track is read.
    const existing = await findAnalysis(this.db, user.schoolId, recordingId);
    if (existing) return { created: false, analysis: await this.stored(user.schoolId, recordingId, target) };

    const retryAfter = await this.limiter.take(user.id, t.frames * t.hop_ms);
    if (retryAfter > 0) throw new AppError(429, analysisMessages.rateLimited, undefined, undefined, { 'retry-after': String(retryAfter) });

    const settings = settingsOf(target);
    const r = await compute({ kind: 'track', data: t.data, declared: { frames: t.frames, onsets: t.onsets, hop_ms: t.hop_ms }, limitMs, settings });
    if (!r.ok) {
      if ('refused' in r) throw refusal(r.refused);
      throw new Error(`the report of recording ${recordingId} could not be computed: ${r.error}`);
    }
    const by: AnalysisComputedBy = user.role;
    const [inserted] = await rows<{ computed_at: Date | string; report_at: Date | string }>(
      this.db,
      sql`insert into recording_analyses (recording_id, school_id, track, track_version, computed_by, report, analysis_version, settings_key)
          values (${recordingId}, ${user.schoolId}, decode(${r.data}, 'base64'), ${t.version}, ${by}, ${JSON.stringify(r.report)}::jsonb, ${ANALYSIS_VERSION}, ${keyOf(settings)})
          on conflict (recording_id) do nothing returning computed_at, report_at`,
    );
    if (!inserted) return { created: false, analysis: await this.stored(user.schoolId, recordingId, target) };
    return { created: true, analysis: this.answer(recordingId, { computed_by: by, computed_at: inserted.computed_at }, settings, r.report, inserted.report_at) };
  }

  private answer(recordingId: number, row: Pick<AnalysisRow, 'computed_by' | 'computed_at'>, settings: AnalysisSettings, report: ListeningReport, reportAt: Date | string): RecordingAnalysis {
    return {
      recording_id: recordingId,
      computed_by: row.computed_by,
      computed_at: iso(row.computed_at),
      analysis_version: ANALYSIS_VERSION,
      report_at: iso(reportAt),
      settings,
      report,
    };
  }
}
