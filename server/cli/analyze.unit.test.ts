import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planTake, synthAudio, synthTrack } from '@contract/listening/testing/synth';
import { encodeWav16 } from '@contract/listening/wav';
import { decodeWav } from '@contract/listening/wav';
import { analyzeCommand, parseAnalyzeArgs, parsePitchText } from './analyze';

let dir = '';
const take = planTake({ seed: 21, makam: 'hicaz', notes: 30 });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'uk-analyze-'));
  await writeFile(join(dir, 'take.wav'), encodeWav16(synthAudio(take, 21, 22050, 'ney', 25), 22050));
  const tr = synthTrack(take, 21, 10);
  await mkdir(join(dir, 'tracks'));
  await writeFile(join(dir, 'tracks', 'a.txt'), Array.from(tr.f0, (f) => f.toFixed(3)).join('\n'));
  await writeFile(join(dir, 'tracks', 'b.f0'), Array.from(tr.f0, (f, i) => `${(i * 0.01).toFixed(2)}\t${f.toFixed(3)}`).join('\n'));
  await writeFile(join(dir, 'tracks', 'c.mp3'), 'not really');
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

const run = async (argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await analyzeCommand(argv, (l) => out.push(l), (l) => err.push(l));
  return { code, out, err };
};

const cents = (a: number, b: number) => Math.abs(((((1200 * Math.log2(a / b)) % 1200) + 1800) % 1200) - 600);

describe('npm run cli -- analyze', () => {
  it('reads a WAV take and prints one JSON line with the tonic, the makam and the degrees', async () => {
    const { code, out } = await run([join(dir, 'take.wav'), '--makam', 'Hicaz', '--json']);
    expect(code).toBe(0);
    expect(out).toHaveLength(1);
    const line = JSON.parse(out[0] as string) as { file: string; tonic_hz: number; makam: string; best_makam: string; degrees: Array<{ perde: string; aeu_cents: number; deviation_cents: number | null; share: number }> };
    expect(line.makam).toBe('hicaz');
    expect(line.best_makam).toBe('hicaz');
    expect(cents(line.tonic_hz, take.tonicHz)).toBeLessThan(10);
    expect(line.degrees.map((d) => d.perde).slice(0, 3)).toEqual(['Dügâh', 'Dik Kürdî', 'Nim Hicaz']);
    expect(Object.keys(line).sort()).toEqual(['best_makam', 'degrees', 'file', 'makam', 'other_makam', 'tempo', 'tonic_hz']);
  });

  it('walks a folder of pitch tracks (one Hz per line, or time and Hz), names spellings, says which formats it cannot read', async () => {
    const { code, out } = await run([join(dir, 'tracks'), '--makam', 'hıcaz', '--hop', '0.01', '--json']);
    expect(code).toBe(1);
    const lines = out.map((l) => JSON.parse(l) as { file: string; tonic_hz?: number; error?: string });
    expect(lines).toHaveLength(3);
    for (const l of lines.slice(0, 2)) expect(cents(l.tonic_hz ?? 0, take.tonicHz)).toBeLessThan(10);
    expect(lines[2]?.error).toMatch(/MP3 is not read yet/);
  });

  it('prints a readable table, and a 12-TET report with --key', async () => {
    const t = await run([join(dir, 'tracks', 'a.txt'), '--makam', 'HICAZ', '--ahenk', 'kiz']);
    expect(t.code).toBe(0);
    expect(t.out[0]).toMatch(/Hicaz, durak Dügâh: tonic/);
    expect(t.out[0]).toMatch(/Dik Kürdî/);
    const w = await run([join(dir, 'tracks', 'a.txt'), '--key', 'D', '--tuning', '12tet', '--json']);
    expect(w.code).toBe(0);
    expect(JSON.parse(w.out[0] as string)).toMatchObject({ key: 'D', makam: null });
  });

  it('refuses bad arguments with the usage', async () => {
    expect((await run(['x.wav'])).code).toBe(2);
    expect((await run(['x.wav', '--makam', 'Unknown'])).err.join('\n')).toMatch(/unknown makam/);
    expect(() => parseAnalyzeArgs(['a', '--makam', 'Nihavent', '--a4', '9999'])).toThrow(/--a4/);
    expect(parseAnalyzeArgs(['a', '--makam', 'Nihavent']).makam).toBe('nihavend');
    expect(parseAnalyzeArgs(['a', '--makam', 'Huseyni']).makam).toBe('huseyni');
    expect(() => parsePitchText('440\nabc\n', 0.01)).toThrow(/not a frequency/);
    expect(decodeWav(new Uint8Array([82, 73, 70, 70, 0, 0, 0, 0, 87, 65, 86, 69]))).toMatchObject({ ok: false });
  });

  // How fast: `npm run bench -- --listening` times a thousand tracks (bench/listening.ts); a timed
  // assertion here failed whenever the machine was busy, and said nothing about correctness.
  it('analyses a folder of many three-minute pitch tracks in one call, one report per track', async () => {
    const many = join(dir, 'many');
    await mkdir(many);
    const body = Array.from(synthTrack(planTake({ seed: 5, makam: 'rast', notes: 300 }), 5, 10).f0, (f) => f.toFixed(2)).join('\n');
    const n = 40;
    for (let i = 0; i < n; i++) await writeFile(join(many, `t${String(i).padStart(3, '0')}.txt`), body);
    const { code, out } = await run([many, '--makam', 'rast', '--json']);
    expect(code).toBe(0);
    expect(out).toHaveLength(n);
    expect(new Set(out.map((line) => (JSON.parse(line) as { makam: string }).makam))).toEqual(new Set(['rast']));
  }, 60_000);

  it('runs through npm run cli without a database', async () => {
    const { stdout } = await promisify(execFile)('npx', ['tsx', 'server/cli.ts', 'analyze', join(dir, 'tracks', 'a.txt'), '--makam', 'Hicaz', '--json'], { env: { ...process.env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none', DATA_DIR: join(dir, 'no-data') } });
    expect(JSON.parse(stdout.trim())).toMatchObject({ makam: 'hicaz' });
  }, 60_000);
});
