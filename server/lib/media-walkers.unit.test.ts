import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeMp3, makeMp4, makeOggOpus, makeWav, makeWebm } from '../modules/recordings/sample-recordings';
import { id3Alone, manyBoxesMp4, manyElementsWebm, nestedClustersWebm, nestedMoovMp4, wavWithFact } from '../test/hostile-media';
import { MediaRefused, mediaGuardWorkersStarted, probeMedia } from './media-guard';
import { Budget, LimitError, Reader, walkEbml, walkMp4, walkWav, type WalkLimits } from '@contract/media-walkers.mjs';

/** The walkers' bounds (docs/decisions/media-parser-guard.md), each shown to be what stops a crafted file. */
const ebml = (data: Buffer, limits?: Partial<WalkLimits>) => walkEbml(Reader.ofBytes(data, new Budget(limits)));
const mp4 = (data: Buffer, limits?: Partial<WalkLimits>) => walkMp4(Reader.ofBytes(data, new Budget(limits)));
const wav = (data: Buffer, limits?: Partial<WalkLimits>) => walkWav(Reader.ofBytes(data, new Budget(limits)));

function reason(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (e) {
    if (e instanceof LimitError) return e.reason;
    throw e;
  }
}

describe('the WebM walker', () => {
  it('reads tracks and length of MediaRecorder-style files', () => {
    expect(ebml(makeWebm({ lengthMs: 3000 }))).toEqual({ hasVideo: false, seconds: 3 });
    expect(ebml(makeWebm({ video: true, lengthMs: 2500 }))).toEqual({ hasVideo: true, seconds: 2.5 });
    expect(ebml(makeWebm({ durationMs: 4200 }))).toEqual({ hasVideo: false, seconds: 4.2 });
  });

  it('stops at the depth bound: nested Clusters', () => {
    expect(reason(() => ebml(nestedClustersWebm(260_000)))).toBe('depth');
    expect(reason(() => ebml(nestedClustersWebm(40), { maxDepth: 16 }))).toBe('depth');
    expect(reason(() => ebml(nestedClustersWebm(40), { maxDepth: 64 }))).toBeNull(); // the bound, nothing else, refused it
  });

  it('stops at the element bound, the byte bound and the clock', () => {
    expect(reason(() => ebml(manyElementsWebm(1_000_000)))).toBe('elements');
    expect(reason(() => ebml(manyElementsWebm(5_000), { maxElements: 4_000 }))).toBe('elements');
    expect(reason(() => ebml(manyElementsWebm(5_000)))).toBeNull();
    const big = makeWebm({ lengthMs: 3000, padding: 40_000 }); // ~1.2 MB read block by block
    expect(reason(() => ebml(big, { maxBytesRead: 256 * 1024 }))).toBe('bytes');
    expect(reason(() => ebml(big))).toBeNull();
    expect(reason(() => ebml(manyElementsWebm(5_000), { timeMs: -1 }))).toBe('time');
  });
});

describe('the WebM walker with a sink (the demuxer of the CLI)', () => {
  const collect = (data: Buffer) => {
    const tracks: unknown[] = [];
    const blocks: Array<[number, number]> = [];
    walkEbml(Reader.ofBytes(data, new Budget()), { track: (t) => tracks.push(t), block: (n, p) => blocks.push([n, p.length]) });
    return { tracks, blocks };
  };

  it('hands over each track and each frame of the audio track', () => {
    const { tracks, blocks } = collect(makeWebm({ video: true, lengthMs: 1000 }));
    expect(tracks).toEqual([
      { number: 1, type: 2, codec: 'A_OPUS', codecPrivate: null, channels: 1, rate: 48000 },
      { number: 2, type: 1, codec: 'V_VP8', codecPrivate: null, channels: null, rate: null },
    ]);
    expect(blocks).toHaveLength(11);
    expect(blocks.every(([n, len]) => n === 1 && len === 64)).toBe(true);
  });

  it('refuses a laced block and a frame over 64 KiB, and stays within its bounds', () => {
    const laced = makeWebm({ lengthMs: 500 });
    laced[laced.indexOf(Buffer.from([0x81, 0x00, 0x00, 0x80])) + 3] = 0x82;
    expect(() => collect(laced)).toThrow(/laced block/);
    expect(() => collect(makeWebm({ lengthMs: 100, padding: 70_000 }))).toThrow(/an element of/);
    expect(reason(() => collect(manyElementsWebm(1_000_000)))).toBe('elements');
  });
});

describe('the MP4 box walker', () => {
  it('finds a video handler and the length in mvhd', () => {
    expect(mp4(makeMp4({ video: true }))).toEqual({ hasVideo: true, seconds: null });
    expect(mp4(makeMp4())).toEqual({ hasVideo: false, seconds: null });
    const timed = makeMp4();
    const mvhd = timed.indexOf('mvhd', 0, 'latin1');
    timed.writeUInt32BE(7_500, mvhd + 4 + 16); // duration 7,500 at timescale 1,000
    expect(mp4(timed)).toEqual({ hasVideo: false, seconds: 7.5 });
  });

  it('stops at the depth and element bounds: nested moov boxes, a flood of boxes', () => {
    expect(reason(() => mp4(nestedMoovMp4(131_072)))).toBe('depth');
    expect(reason(() => mp4(nestedMoovMp4(40), { maxDepth: 64 }))).toBeNull();
    expect(reason(() => mp4(manyBoxesMp4(500_000)))).toBe('elements');
    expect(reason(() => mp4(manyBoxesMp4(2_000), { maxElements: 1_000 }))).toBe('elements');
  });
});

describe('the WAV walker', () => {
  it('measures the length from the data chunk, not from a fact chunk', () => {
    expect(wav(makeWav(1500))).toEqual({ hasVideo: false, seconds: 1.5 });
    expect(wav(wavWithFact({ seconds: 300, factSamples: 8000 }))).toEqual({ hasVideo: false, seconds: 300 });
    expect(wav(wavWithFact({ seconds: 2, factSamples: 8000, channels: 2, bits: 16 }))).toEqual({ hasVideo: false, seconds: 2 });
    // a data size of 0xFFFFFFFF (a writer that never came back to fill it in) runs to the end of the file
    const open = makeWav(1000);
    open.writeUInt32LE(0xffffffff, 40);
    expect(wav(open).seconds).toBe(1);
    // a data size past the end counts only what is there
    const cut = makeWav(1000).subarray(0, 44 + 8000);
    expect(wav(cut).seconds).toBe(0.5);
  });

  it('refuses what is not audio: 0 channels, 0 Hz, a compressed format, no fmt, no sample, not RIFF', () => {
    expect(() => wav(wavWithFact({ seconds: 1, factSamples: 8000, channels: 0 }))).toThrow(/0 channels/);
    expect(() => wav(wavWithFact({ seconds: 1, factSamples: 8000, rate: 0 }))).toThrow(/sample rate 0/);
    expect(() => wav(wavWithFact({ seconds: 1, factSamples: 8000, format: 0x11, bits: 4 }))).toThrow(/format 17/); // IMA ADPCM
    expect(() => wav(makeWav(0))).toThrow(/no samples/);
    expect(() => wav(Buffer.concat([makeWav(1000).subarray(0, 12), makeWav(1000).subarray(36)]))).toThrow(/data before fmt/);
    expect(() => wav(makeWav(1000).subarray(0, 36))).toThrow(/no data chunk/);
    expect(() => wav(id3Alone())).toThrow(/not a RIFF WAVE/);
  });

  it('stops at the element bound: a flood of empty chunks', () => {
    const junk = Buffer.alloc(8 * 5_000);
    for (let i = 0; i < 5_000; i++) junk.write('junk', i * 8, 'ascii');
    const flood = Buffer.concat([makeWav(100).subarray(0, 36), junk, makeWav(100).subarray(36)]);
    expect(reason(() => wav(flood, { maxElements: 4_000 }))).toBe('elements');
    expect(wav(flood).seconds).toBe(0.1);
  });
});

describe('the guard (worker threads)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'media-guard-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, data: Buffer) => {
    const p = join(dir, name);
    writeFileSync(p, data);
    return p;
  };

  it('probes real files and refuses crafted ones with MediaRefused', async () => {
    expect(await probeMedia(file('a.wav', makeWav(1000)), { deep: true })).toEqual({ mime: 'audio/wav', hasVideo: false, seconds: 1 });
    expect(await probeMedia(file('a.webm', makeWebm({ video: true, lengthMs: 1000 })), { deep: false })).toEqual({ mime: 'video/webm' });
    const refused = await probeMedia(file('moov.mp4', nestedMoovMp4()), { deep: true }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MediaRefused);
    expect(refused).toMatchObject({ statusCode: 422, code: 'media_limits', reason: 'depth' });
  });

  it('measures a WAV from its data and calls clips without audio unreadable', async () => {
    expect(await probeMedia(file('fact.wav', wavWithFact({ seconds: 300, factSamples: 8000 })), { deep: true })).toEqual({ mime: 'audio/wav', hasVideo: false, seconds: 300 });
    expect(await probeMedia(file('mute.wav', wavWithFact({ seconds: 1, factSamples: 8000, channels: 0 })), { deep: true })).toEqual({ mime: 'audio/wav', unreadable: true });
    expect(await probeMedia(file('0hz.wav', wavWithFact({ seconds: 1, factSamples: 8000, rate: 0 })), { deep: true })).toEqual({ mime: 'audio/wav', unreadable: true });
    expect(await probeMedia(file('id3.mp3', id3Alone()), { deep: true })).toEqual({ mime: 'audio/mpeg', unreadable: true });
    const mp3 = await probeMedia(file('a.mp3', makeMp3(1000)), { deep: true });
    expect(mp3).toMatchObject({ mime: 'audio/mpeg', hasVideo: false });
    expect(mp3.seconds).toBeCloseTo(1, 1);
    expect(await probeMedia(file('a.ogg', makeOggOpus(1000)), { deep: true })).toMatchObject({ mime: 'audio/ogg', seconds: 1 });
  });

  it('survives a parser that runs out of heap: the worker dies, the file is refused, a new worker takes the next one', async () => {
    // With the walker's depth bound lifted (and the clock's pushed out of the way), music-metadata
    // follows the nesting itself (~186 MB of heap for 1 MiB when it runs alone): the worker's
    // 64 MB heap limit ends the worker, not the server.
    const before = mediaGuardWorkersStarted();
    const started = Date.now();
    const limits = { maxDepth: 10_000_000, timeMs: 30_000 };
    const refused = await probeMedia(file('moov2.mp4', nestedMoovMp4()), { deep: true, limits }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(MediaRefused);
    expect((refused as MediaRefused).reason).toBe('crash');
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await probeMedia(file('b.wav', makeWav(500)), { deep: true })).toEqual({ mime: 'audio/wav', hasVideo: false, seconds: 0.5 });
    expect(mediaGuardWorkersStarted()).toBeGreaterThan(before);
  }, 60_000);
});
