import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeWav16 } from '../contract/listening/wav';
import { CHROMIUM, CHROMIUM_ARGS } from './browser';

/** Writes mono `pcm` as a 16-bit WAV in the temp folder (the contract's encoder) and returns its path. */
export function writeWav(name: string, pcm: Float32Array, rate: number): string {
  const path = join(tmpdir(), `uebungskontrolle-e2e-${name}-${process.pid}.wav`);
  writeFileSync(path, encodeWav16(pcm, rate));
  return path;
}

/**
 * Chromium's fake microphone for the audio specs: a sine written as 16-bit mono PCM at 48 kHz
 * (Chromium loops the file), and the launch options that play it as the microphone.
 */
export function writeSineWav(name: string, hz: number, seconds: number): string {
  const rate = 48_000;
  const pcm = new Float32Array(rate * seconds);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.sin((2 * Math.PI * hz * i) / rate) * 0.6;
  return writeWav(name, pcm, rate);
}

/** Launch options (for test.use or chromium.launch) with `wav` as the microphone. */
export function fakeMicrophone(wav: string) {
  return {
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        ...CHROMIUM_ARGS,
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${wav}`,
        '--autoplay-policy=no-user-gesture-required',
      ],
    },
  };
}
