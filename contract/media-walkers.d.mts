// Types of media-walkers.mjs for TypeScript callers.
export type WalkLimits = { maxDepth: number; maxElements: number; maxBytesRead: number; timeMs: number };
export type LimitReason = 'depth' | 'elements' | 'bytes' | 'time';
export declare const DEFAULT_LIMITS: Readonly<WalkLimits>;
export declare class LimitError extends Error {
  constructor(reason: LimitReason);
  readonly reason: LimitReason;
}
export declare class Budget {
  constructor(limits?: Partial<WalkLimits>);
  readonly limits: WalkLimits;
  bytes: number;
  elements: number;
  exceeded: LimitReason | null;
  over(reason: LimitReason): LimitError;
  read(n: number): void;
  element(): void;
  time(): void;
  depth(depth: number): void;
}
export declare class Reader {
  constructor(readAt: (into: Uint8Array, at: number) => number, size: number, budget: Budget);
  static ofBytes(data: Uint8Array, budget: Budget): Reader;
  readonly size: number;
  readonly budget: Budget;
  pos: number;
  bytes(n: number): Uint8Array | null;
  byte(): number | null;
}
export type EbmlTrack = { number: number | null; type: number | null; codec: string | null; codecPrivate: Uint8Array | null; channels: number | null; rate: number | null };
export type EbmlSink = { track(t: EbmlTrack): void; block(track: number, payload: Uint8Array): void };
export declare function walkEbml(r: Reader, sink?: EbmlSink): { hasVideo: boolean; seconds: number | null };
export declare function walkMp4(r: Reader): { hasVideo: boolean; seconds: number | null };
export declare const WAV_BOUNDS: Readonly<{ minRate: number; maxRate: number; maxChannels: number }>;
export declare function walkWav(r: Reader): { hasVideo: boolean; seconds: number };
