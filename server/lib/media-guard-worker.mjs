// The media guard's worker thread: every read of an uploaded file's bytes (its type by file-type,
// the app's WebM and MP4 walkers, music-metadata) happens here, inside a V8 heap of its own with a
// limit, so an input that makes a parser run away costs this thread, never the server. The main
// thread (server/lib/media-guard.ts) stops it after a wall-clock limit and starts a new one.
// docs/decisions/media-parser-guard.md.
//
// Plain JavaScript: Node runs it as it is, from the sources (tests, `npm run dev`) and beside the
// compiled server (dist/server/main.mjs finds it at ../../server/lib/).
//
// Messages (main → worker): `{id, file, deep, limits}`; answers `{id, ok: true, result}` with
// result `{mime, hasVideo?, seconds?, unreadable?}`, `{id, ok: false, limit}` over a bound, or
// `{id, ok: false, error}` for a failure of the probe itself (the file could not be opened).
// @ts-check
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { fileTypeFromBlob } from 'file-type';
import { parseBlob } from 'music-metadata';
import { Budget, LimitError, Reader, walkEbml, walkMp4, walkWav } from '../../contract/media-walkers.mjs';

if (!parentPort) throw new Error('media-guard-worker.mjs runs as a worker thread');
const port = parentPort;

const EBML_TYPES = new Set(['audio/webm', 'video/webm', 'video/matroska', 'video/x-matroska']);
const MP4_TYPES = new Set(['audio/mp4', 'audio/x-m4a', 'audio/m4a', 'video/mp4', 'video/x-m4v', 'video/quicktime']);
const WAV_TYPES = new Set(['audio/wav', 'audio/x-wav', 'audio/vnd.wave', 'audio/wave']);
/** Audio-only formats music-metadata reads from their frames or pages: without a stream it names (a sample rate), not audio. */
const STREAM_TYPES = new Set(['audio/mpeg', 'audio/ogg', 'audio/opus', 'audio/x-vorbis+ogg']);
/** What music-metadata reads (the recordings' types other than WebM and WAV): kind and length. */
const METADATA_TYPES = new Set([...MP4_TYPES, ...STREAM_TYPES]);

/**
 * The file as the Blob that file-type and music-metadata read through (strtok3's BlobTokenizer
 * only calls `slice(start, end).arrayBuffer()`): synchronous reads on this thread, every byte
 * counted against the probe's budget and the clock checked on each read.
 * @param {number} fd @param {number} size @param {Budget} budget
 */
function fileBlob(fd, size, budget) {
  return {
    size,
    type: '',
    /** @param {number} [start] @param {number} [end] */
    slice(start = 0, end = size) {
      const s = Math.max(0, Math.min(start, size));
      const e = Math.max(s, Math.min(end, size));
      return {
        size: e - s,
        arrayBuffer: async () => {
          budget.time();
          budget.read(e - s);
          const into = new Uint8Array(e - s);
          const got = readSync(fd, into, 0, e - s, s);
          return got === into.length ? into.buffer : into.buffer.slice(0, got);
        },
      };
    },
  };
}

/**
 * The file behind `fd` for the walkers, read through their 64 KiB window.
 * @param {number} fd @param {Budget} budget
 */
function fileReader(fd, budget) {
  return new Reader((into, at) => readSync(fd, into, 0, into.length, at), fstatSync(fd).size, budget);
}

/**
 * @param {string} file @param {boolean} deep @param {Budget} budget
 * @returns {Promise<{ mime: string | null; hasVideo?: boolean; seconds?: number | null; unreadable?: boolean }>}
 */
async function probe(file, deep, budget) {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const blob = /** @type {Blob} */ (/** @type {unknown} */ (fileBlob(fd, size, budget)));
    const ft = await fileTypeFromBlob(blob).catch((/** @type {unknown} */ e) => {
      if (e instanceof LimitError) throw e;
      return undefined;
    });
    if (budget.exceeded) throw new LimitError(budget.exceeded);
    const mime = ft?.mime.split(';')[0]?.trim() ?? null; // 'audio/ogg; codecs=opus'
    if (!deep || !mime) return { mime };

    if (EBML_TYPES.has(mime)) {
      try {
        return { mime, ...walkEbml(fileReader(fd, budget)) };
      } catch (e) {
        if (e instanceof LimitError) throw e;
        return { mime, unreadable: true }; // not EBML after all, or no track
      }
    }
    if (WAV_TYPES.has(mime)) {
      // the length from the data chunk, never from a `fact` chunk's claim (docs/decisions/media-parser-guard.md)
      try {
        return { mime, ...walkWav(fileReader(fd, budget)) };
      } catch (e) {
        if (e instanceof LimitError) throw e;
        return { mime, unreadable: true }; // no fmt or data, 0 channels, 0 Hz, a compressed format, no sample
      }
    }
    /** @type {{ hasVideo?: boolean; seconds?: number | null }} */
    let boxes = {};
    if (MP4_TYPES.has(mime)) boxes = walkMp4(fileReader(fd, budget)); // first: music-metadata follows nesting it measured
    if (!METADATA_TYPES.has(mime)) return { mime };
    /** @type {{ hasVideo?: boolean; seconds?: number; rate?: number }} */
    let meta = {};
    try {
      const m = await parseBlob(blob, { duration: true, skipCovers: true });
      meta = { hasVideo: m.format.hasVideo, seconds: m.format.duration, rate: m.format.sampleRate };
    } catch (e) {
      if (e instanceof LimitError) throw e;
      /* a quirk of the parser: the boxes decide the kind, the recorder the length */
    }
    if (budget.exceeded) throw new LimitError(budget.exceeded);
    // an MP3 without one MPEG frame (an ID3 tag alone), an Ogg without a stream: no audio
    if (STREAM_TYPES.has(mime) && !(meta.rate !== undefined && meta.rate > 0)) return { mime, unreadable: true };
    return {
      mime,
      hasVideo: meta.hasVideo ?? boxes.hasVideo,
      seconds: meta.seconds ?? boxes.seconds ?? null,
    };
  } finally {
    closeSync(fd);
  }
}

port.on('message', async (/** @type {{ id: number; file: string; deep: boolean; limits?: object }} */ m) => {
  const budget = new Budget(m.limits);
  try {
    const result = await probe(m.file, m.deep, budget);
    port.postMessage({ id: m.id, ok: true, result });
  } catch (e) {
    if (e instanceof LimitError) port.postMessage({ id: m.id, ok: false, limit: e.reason });
    else port.postMessage({ id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) });
  }
});
