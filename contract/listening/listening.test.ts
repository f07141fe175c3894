import { describe, expect, it } from 'vitest';
import { analyzePcm, analyzeTrack, storeTrack } from './analyze';
import { decodeTrack, encodeTrack, fromBase64, toBase64 } from './encoding';
import { makamReport, parseKey, westernReport } from './intonation';
import { listeningReportSchema, storedTrackSchema } from './schema';
import { audioTrack, directTrack, hardAudioTrack, measure, measureTempo } from './testing/accuracy';
import { planTake, rng, synthAudio, synthTrack } from './testing/synth';
import { PitchDetector } from 'pitchy';
import { CLARITY, decimate, detectOnsets, MAX_HZ, MIN_HZ, TrackBuilder, trackFromPcm, type PitchTrack } from './track';

// What runs where: docs/decisions/listening.md ("Tests").

describe('pitch track from PCM', () => {
  it('finds a 440 Hz tone within a cent, and silence as unvoiced', () => {
    const sr = 44100;
    const pcm = new Float32Array(sr * 2);
    for (let i = 0; i < sr; i++) pcm[i] = 0.5 * Math.sin((2 * Math.PI * 440 * i) / sr) + 0.2 * Math.sin((2 * Math.PI * 880 * i) / sr);
    const t = trackFromPcm(pcm, sr);
    expect(t.hopMs).toBe(20);
    const voiced = Array.from(t.f0.slice(5, 45));
    for (const f of voiced) expect(Math.abs(1200 * Math.log2(f / 440))).toBeLessThan(1);
    expect(Array.from(t.f0.slice(55, 95)).every((f) => f === 0)).toBe(true);
  });

  it('gives a Worker the stored track and the report in one call', () => {
    const take = planTake({ seed: 31, makam: 'rast', notes: 16 });
    const { track, report } = analyzePcm(synthAudio(take, 31, 16000, 'voice', 25), 16000, { makam: 'rast' });
    expect(storedTrackSchema.parse(track)).toEqual(track);
    expect(listeningReportSchema.parse(report)).toEqual(report);
    expect(report.makam?.durak).toBe('Rast');
  });

  /** The whole-take computation as it was before the builder (decimate all, then every frame). */
  function wholeTake(pcm: Float32Array, sampleRate: number): PitchTrack {
    const factor = Math.max(1, Math.floor(sampleRate / 11025));
    const x = decimate(pcm, factor);
    const sr = sampleRate / factor;
    const win = 1024;
    const hop = (sr * 20) / 1000;
    const frames = Math.max(0, Math.floor((x.length / sr) * (1000 / 20)));
    const f0 = new Float32Array(frames);
    const rms = new Float32Array(frames);
    const buf = new Float32Array(win);
    const detector = PitchDetector.forFloat32Array(win);
    detector.minVolumeDecibels = -70;
    let loudest = 0;
    for (let i = 0; i < frames; i++) {
      const start = Math.round(i * hop) - win / 2;
      let e = 0;
      for (let j = 0; j < win; j++) {
        const k = start + j;
        const v = k >= 0 && k < x.length ? (x[k] as number) : 0;
        buf[j] = v;
        e += v * v;
      }
      const r = Math.sqrt(e / win);
      rms[i] = r;
      if (r > loudest) loudest = r;
      if (r < 1e-5) continue;
      const [hz, clarity] = detector.findPitch(buf, sr);
      if (clarity >= CLARITY && hz >= MIN_HZ && hz <= MAX_HZ) f0[i] = hz;
    }
    for (let i = 0; i < frames; i++) if ((rms[i] as number) < loudest * 10 ** (-45 / 20)) f0[i] = 0;
    return { hopMs: 20, f0, onsetsMs: detectOnsets(x, sr) };
  }

  it('gives, fed in pieces of any size, the very track of the whole take at once (only a few thousand samples held)', () => {
    for (const [sr, seed] of [[44100, 3], [48000, 4], [16000, 6]] as const) {
      const pcm = synthAudio(planTake({ seed, makam: 'hicaz', notes: 6 }), seed, sr, 'ney', 25);
      const whole = wholeTake(pcm, sr);
      expect(whole.onsetsMs.length).toBeGreaterThan(3);
      expect(trackFromPcm(pcm, sr)).toEqual(whole);
      const random = rng(seed);
      for (const largest of [1, 700, 5000, 100_000]) {
        const b = new TrackBuilder(sr);
        for (let at = 0; at < pcm.length; ) {
          const n = largest === 1 ? 1 : 1 + Math.floor(random() * largest);
          b.push(pcm.slice(at, at + n));
          at += n;
          if (largest === 1 && at > 3000) {
            b.push(pcm.slice(at));
            break;
          }
        }
        expect(b.finish(), `${sr} Hz, pieces up to ${largest}`).toEqual(whole);
      }
    }
  }, 60_000);

  it('cuts a take at an hour and says it is full', () => {
    const b = new TrackBuilder(8000, { onsets: false });
    const second = new Float32Array(8000);
    for (let i = 0; i < 3601 && !b.full; i++) b.push(second);
    expect(b.full).toBe(true);
    expect(b.samples).toBe(3600 * 8000);
    b.push(second);
    expect(b.finish().f0.length).toBe(3600 * 50);
  });

  it('rejects an impossible sample rate', () => {
    expect(() => trackFromPcm(new Float32Array(10), 10)).toThrow(RangeError);
  });
});

describe('compact encoding', () => {
  const take = planTake({ seed: 7, makam: 'hicaz', notes: 600 });
  const track: PitchTrack = { ...synthTrack(take, 7), onsetsMs: take.notes.map((n) => Math.round(n.startMs)) };

  it('round-trips within a quarter cent and keeps the onsets', () => {
    const bytes = encodeTrack(track);
    const back = decodeTrack(bytes);
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.track.f0.length).toBe(track.f0.length);
    expect(back.track.onsetsMs).toEqual(track.onsetsMs);
    let worst = 0;
    let unvoicedKept = true;
    for (let i = 0; i < track.f0.length; i++) {
      const a = track.f0[i] as number;
      const b = back.track.f0[i] as number;
      if (a === 0) unvoicedKept &&= b === 0;
      else worst = Math.max(worst, Math.abs(1200 * Math.log2(b / a)));
    }
    expect(unvoicedKept).toBe(true);
    expect(worst).toBeLessThanOrEqual(0.13);
    const stored = storeTrack(track);
    expect(storedTrackSchema.parse(stored)).toEqual(stored);
    expect(fromBase64(stored.data)).toEqual(bytes);
  });

  it('keeps a 5-minute take to a few tens of KB', () => {
    const minutes = (track.f0.length * track.hopMs) / 60000;
    const perFiveMinutes = (encodeTrack(track).length / minutes) * 5;
    expect(minutes).toBeGreaterThan(4);
    expect(perFiveMinutes).toBeLessThan(40 * 1024);
  });

  it('never throws on garbage, truncation or lies in the header', () => {
    const r = rng(3);
    const good = encodeTrack(track);
    const cases: Uint8Array[] = [new Uint8Array(0), new Uint8Array([1, 2, 3]), good.slice(0, good.length - 1), good.slice(0, 20)];
    for (let k = 0; k < 200; k++) {
      const bad = good.slice(0, 64 + Math.floor(r() * 2000));
      for (let j = 0; j < 10; j++) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256);
      cases.push(bad);
    }
    const huge = good.slice();
    huge[6] = 255;
    huge[7] = 255;
    huge[8] = 255;
    huge[9] = 127;
    cases.push(huge);
    for (const c of cases) {
      const res = decodeTrack(c);
      if (!res.ok) expect(res.error).toMatch(/\w/);
    }
    expect(decodeTrack(huge)).toMatchObject({ ok: false });
    expect(decodeTrack(good, { maxBytes: 100 })).toMatchObject({ ok: false, error: expect.stringContaining('bytes') });
    expect(fromBase64('@@@@')).toBeNull();
    expect(fromBase64('abc')).toBeNull();
    expect(toBase64(new Uint8Array([1, 2, 3, 4]))).toBe('AQIDBA==');
    expect(fromBase64('AQIDBA==')).toEqual(new Uint8Array([1, 2, 3, 4]));
  });
});

describe('makam intonation on generated takes', () => {
  it('200 pitch tracks: tonic within 10 cents in ≥ 99 %, per-perde error median ≤ 3 cents, makam right in ≥ 90 % with the tonic known', () => {
    const a = measure(200, directTrack);
    expect(a.tonicWithin10).toBeGreaterThanOrEqual(0.99);
    expect(a.deviationErrorMedian).toBeLessThanOrEqual(3);
    expect(a.makamRight).toBeGreaterThanOrEqual(0.9);
    expect(a.makamRightSameScale).toBeGreaterThanOrEqual(0.97);
  });

  it('20 takes through audio (ney- and voice-like, vibrato, glides, 20 dB SNR) and the pitch tracker', () => {
    const a = measure(20, audioTrack);
    expect(a.tonicWithin10).toBeGreaterThanOrEqual(0.95);
    expect(a.deviationErrorMedian).toBeLessThanOrEqual(3);
    expect(a.makamRightSameScale).toBeGreaterThanOrEqual(0.9);
  }, 30_000);

  // Towards real performances (docs/decisions/listening.md, "Real performances"): the tonic must
  // survive an ensemble over a drone and an old band-limited recording; a take cut before its
  // final durak is the known weak case, held to what it reaches today (bench: 22 takes each).
  it('harder takes: an ensemble with a drone, an old recording, a take without its final durak', () => {
    const ensemble = measure(12, hardAudioTrack('ensemble'));
    expect(ensemble.tonicWithin10).toBeGreaterThanOrEqual(0.95);
    expect(ensemble.deviationErrorMedian).toBeLessThanOrEqual(3);
    const old = measure(12, hardAudioTrack('old-recording'));
    expect(old.tonicWithin10).toBeGreaterThanOrEqual(0.95);
    expect(old.deviationErrorMedian).toBeLessThanOrEqual(3);
    const cut = measure(12, hardAudioTrack('no-final'));
    expect(cut.tonicWithin10).toBeGreaterThanOrEqual(0.66);
  }, 60_000);

  it('says where practice differs from AEU next to the deviation (Uşşak segâh)', () => {
    const take = planTake({ seed: 11, makam: 'ussak' });
    const rep = makamReport(synthTrack(take, 11), 'ussak');
    const segah = rep?.degrees.find((d) => d.perde === 'Segâh');
    expect(segah?.practice_note?.cents).toBe(-34);
    expect(rep?.degrees.find((d) => d.perde === 'Çargâh')?.practice_note).toBeNull();
    expect(segah?.moments.length).toBeGreaterThan(0);
    expect(rep?.durak).toBe('Dügâh');
    expect(rep?.last_note_is_durak).toBe(true);
  });

  it('flags a take that is not in the exercise makam', () => {
    const take = planTake({ seed: 5, makam: 'hicaz', maxOffset: 3 });
    const track = synthTrack(take, 5);
    const rep = makamReport(track, 'rast');
    expect(rep?.best_makam).not.toBe('rast');
    expect(rep?.other_makam).toBe(true);
    expect(makamReport(track, 'hicaz')?.other_makam).toBe(false);
  });

  it('a report validates against its schema', () => {
    const take = planTake({ seed: 9, makam: 'saba' });
    const report = analyzeTrack({ ...synthTrack(take, 9), onsetsMs: take.notes.map((n) => Math.round(n.startMs)) }, { makam: 'saba', tempo: { bpm: 90, unit: 'quarter' } });
    expect(listeningReportSchema.parse(report)).toEqual(report);
    expect(report.makam?.degrees.find((d) => d.perde === 'Hicaz')?.practice_note).not.toBeNull();
    expect(report.tempo).not.toBeNull();
  });

  it('returns null rather than a guess on silence', () => {
    expect(makamReport({ hopMs: 20, f0: new Float32Array(500), onsetsMs: [] }, 'rast')).toBeNull();
  });
});

describe('western intonation', () => {
  it('per 12-TET note: deviation, share, in key', () => {
    const hop = 20;
    const f0 = new Float32Array(1000);
    // A4 +10 cents, then C5 −20 cents, then F#4 exact.
    for (let i = 0; i < 1000; i++) f0[i] = i < 400 ? 440 * 2 ** (10 / 1200) : i < 700 ? 523.2511 * 2 ** (-20 / 1200) : 369.9944;
    const rep = westernReport({ hopMs: hop, f0, onsetsMs: [] }, 'C');
    const by = Object.fromEntries(rep.notes.map((n) => [n.note, n]));
    expect(by.A?.deviation_cents).toBeCloseTo(10, 0);
    expect(by.C?.deviation_cents).toBeCloseTo(-20, 0);
    expect(by['F#']?.in_key).toBe(false);
    expect(by.A?.in_key).toBe(true);
    expect(by.A?.share).toBeCloseTo(0.4, 1);
    expect(parseKey('Bb')).toEqual({ pc: 10, minor: false });
    expect(parseKey('f#m')).toEqual({ pc: 6, minor: true });
    expect(parseKey('H')).toBeNull();
  });
});

describe('tempo from onsets', () => {
  it('is within 1 % and the drift within 0.5 BPM/min on generated rhythms (tones, through the onset detector)', () => {
    const res = measureTempo([
      { seed: 1, bpm: 100, drift: 0, seconds: 60 },
      { seed: 2, bpm: 90, drift: 5, seconds: 120 },
      { seed: 3, bpm: 140, drift: -4, seconds: 90 },
      { seed: 4, bpm: 72, drift: 2, seconds: 90 },
    ]);
    for (const c of res.cases) {
      expect(c.meanErrPct, `${c.bpm} ${c.drift}`).toBeLessThanOrEqual(1);
      expect(c.driftErr, `${c.bpm} ${c.drift}`).toBeLessThanOrEqual(0.5);
    }
  }, 30_000);
});
