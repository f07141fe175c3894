import { sql, type SQL } from 'drizzle-orm';
import { analyzeTrack } from '@contract/listening/analyze';
import { decodeTrack, fromBase64, toBase64 } from '@contract/listening/encoding';
import { listeningReportSchema, type ListeningReport } from '@contract/listening/schema';
import type { PitchTrack } from '@contract/listening/track';
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
import { recordingMessages } from './recordings.service';

/**
 * A take's analysis (docs/decisions/listening.md, "Where it runs"): a browser computes the pitch
 * track and onsets from the take's audio and sends the track; the server checks it with the bounded
 * decoder and computes the report itself from the track and the exercise's settings, never from a
 * client's report. The report is kept with the settings and analysis version it was computed with;
 * a read with other settings (the teacher changed the exercise's makam or tempo) computes it again.
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
} satisfies Record<string, Msg>;

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
  track: string;
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
    sql`select encode(a.track, 'base64') as track, a.computed_by, a.computed_at, a.report, a.analysis_version, a.settings_key, a.report_at
        from recording_analyses a where a.recording_id = ${recordingId} and a.school_id = ${schoolId}`,
  );
  return a ?? null;
}

/** The settings the report uses: the exercise's makam and durak, its tempo in its written unit. */
export function settingsOf(t: Omit<Target, 'id' | 'duration_ms'>): AnalysisSettings {
  const makam = t.makam && (MAKAM_KEYS as readonly string[]).includes(t.makam) ? (t.makam as MakamKey) : null;
  const unit: TempoUnit = effectiveTempoUnit(t);
  return { makam, durak: makam ? t.durak : null, tempo_bpm: t.tempo_bpm, tempo_unit: unit };
}

const keyOf = (s: AnalysisSettings) => JSON.stringify([ANALYSIS_VERSION, s.makam, s.durak, s.tempo_bpm, s.tempo_unit]);

/** The report of a track under the exercise's settings (the same function as the Worker and the CLI). */
export function reportOf(track: PitchTrack, s: AnalysisSettings): ListeningReport {
  const report = analyzeTrack(track, {
    makam: s.makam,
    durak: s.durak,
    tuning: s.makam ? 'makam' : '12tet',
    tempo: { bpm: s.tempo_bpm, unit: s.tempo_unit },
  });
  // What leaves the server is what the contract describes (a fault here is ours: 500, logged).
  return listeningReportSchema.parse(report);
}

const iso = (v: Date | string) => new Date(v).toISOString();
const missing = () => new AppError(404, analysisMessages.missing, undefined, { code: 'analysis_missing' });
const badTrack = (msg: Msg) => invalid({ track: msg });

/** Base64 from PostgreSQL's encode() (lines of 76) to bytes. */
const bytesOf = (b64: string) => fromBase64(b64.replace(/\s+/g, ''), Number.MAX_SAFE_INTEGER);

export class AnalysisService {
  constructor(private readonly db: Db) {}

  /** GET: the report from the stored track under the exercise's current settings (kept until they change). */
  async get(user: AuthUser, recordingId: number): Promise<RecordingAnalysis> {
    if (user.role === 'admin') throw forbidden();
    const target = await findTarget(this.db, user, recordingId);
    if (!target) throw notFound(recordingMessages.notFound);
    const row = await findAnalysis(this.db, user.schoolId, recordingId);
    if (!row) throw missing();
    const settings = settingsOf(target);
    const key = keyOf(settings);
    const kept = row.settings_key === key ? listeningReportSchema.safeParse(row.report) : null;
    if (kept?.success) return this.answer(recordingId, row, settings, kept.data, row.report_at);
    // Settings or method changed since: compute again from the stored track, and keep it.
    const bytes = bytesOf(row.track);
    const decoded = bytes ? decodeTrack(bytes, { maxBytes: ANALYSIS_LIMITS.maxTrackBytes }) : null;
    if (!decoded?.ok) throw new Error(`stored track of recording ${recordingId} is unreadable: ${decoded?.error ?? 'base64'}`);
    const report = reportOf(decoded.track, settings);
    const [u] = await rows<{ report_at: Date | string }>(
      this.db,
      sql`update recording_analyses set report = ${JSON.stringify(report)}::jsonb, analysis_version = ${ANALYSIS_VERSION}, settings_key = ${key}, report_at = now()
          where recording_id = ${recordingId} and school_id = ${user.schoolId} returning report_at`,
    );
    return this.answer(recordingId, row, settings, report, u?.report_at ?? new Date());
  }

  /**
   * PUT: a browser's track for the take. Checked (base64, the bounded decoder, its counts, its hop,
   * not longer than the take), the report computed here, stored. The first track sent is kept: a
   * second one (the teacher's browser while the student's was on its way) answers 200 with the stored
   * analysis; a new one answers 201.
   */
  async put(user: AuthUser, recordingId: number, body: AnalysisPutBody): Promise<{ created: boolean; analysis: RecordingAnalysis }> {
    if (user.role !== 'student' && user.role !== 'teacher') throw forbidden();
    const target = await findTarget(this.db, user, recordingId);
    if (!target) throw notFound(recordingMessages.notFound);
    const t = body.track;
    const bytes = fromBase64(t.data, Math.ceil((ANALYSIS_LIMITS.maxTrackBytes * 4) / 3) + 4);
    if (!bytes) {
      if (t.data.length > Math.ceil((ANALYSIS_LIMITS.maxTrackBytes * 4) / 3) + 4) throw new AppError(413, analysisMessages.tooLarge);
      throw badTrack(analysisMessages.notBase64);
    }
    if (bytes.length > ANALYSIS_LIMITS.maxTrackBytes) throw new AppError(413, analysisMessages.tooLarge);
    const decoded = decodeTrack(bytes, { maxBytes: ANALYSIS_LIMITS.maxTrackBytes });
    if (!decoded.ok) throw badTrack(analysisMessages.unreadable);
    const track = decoded.track;
    if (track.f0.length !== t.frames || track.onsetsMs.length !== t.onsets || Math.abs(track.hopMs - t.hop_ms) > 0.05) throw badTrack(analysisMessages.counts);
    if (track.hopMs < ANALYSIS_LIMITS.minHopMs || track.hopMs > ANALYSIS_LIMITS.maxHopMs) throw badTrack(analysisMessages.hop);
    const lastOnset = track.onsetsMs[track.onsetsMs.length - 1] ?? 0;
    const limit = target.duration_ms + ANALYSIS_LIMITS.slackMs;
    if (track.f0.length * track.hopMs > limit || lastOnset > limit) throw badTrack(analysisMessages.tooLong);

    const settings = settingsOf(target);
    const report = reportOf(track, settings);
    const by: AnalysisComputedBy = user.role;
    const inserted = await rows<{ recording_id: number }>(
      this.db,
      sql`insert into recording_analyses (recording_id, school_id, track, track_version, computed_by, report, analysis_version, settings_key)
          values (${recordingId}, ${user.schoolId}, decode(${toBase64(bytes)}, 'base64'), ${t.version}, ${by}, ${JSON.stringify(report)}::jsonb, ${ANALYSIS_VERSION}, ${keyOf(settings)})
          on conflict (recording_id) do nothing returning recording_id`,
    );
    return { created: inserted.length > 0, analysis: await this.get(user, recordingId) };
  }

  private answer(recordingId: number, row: AnalysisRow, settings: AnalysisSettings, report: ListeningReport, reportAt: Date | string): RecordingAnalysis {
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
