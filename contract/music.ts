import { z } from 'zod';
import { MAKAM_KEYS, STROKES, TEMPO_UNITS, USUL_KEYS } from './music-keys';

// The keys without zod (the web app's practice screen imports them from there).
export * from './music-keys';

export const makamKeySchema = z.enum(MAKAM_KEYS);
export const usulKeySchema = z.enum(USUL_KEYS);
export const strokeSchema = z.enum(STROKES);
export const tempoUnitSchema = z.enum(TEMPO_UNITS);
