import { hash, verify } from '@node-rs/argon2';

// OWASP's recommended argon2id parameters: 19 MiB memory, 2 iterations, 1 lane.
const OPTIONS = { algorithm: 2 /* Algorithm.Argon2id (a const enum) */, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * Each argon2 run holds its 19 MiB outside the JavaScript heap, and libuv runs four at once: a
 * burst of sign-ins took the server from ~130 to ~205 MB. Two at a time use both cores of a small
 * server just as well (argon2 is CPU-bound) and cap that memory at ~38 MiB; the rest wait in turn.
 */
export const ARGON2_CONCURRENCY = 2;
let running = 0;
const waiting: Array<() => void> = [];

export async function limited<T>(job: () => Promise<T>): Promise<T> {
  if (running >= ARGON2_CONCURRENCY) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await job();
  } finally {
    // hand the slot straight to the next waiter (running stays the same), or free it
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

export function hashPassword(password: string): Promise<string> {
  return limited(() => hash(password, OPTIONS));
}

let dummyHash: Promise<string> | undefined;

/** Verifies; with no stored hash it still spends the same time, so timing does not reveal unknown e-mails. */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('dummy-password-for-timing');
    const dummy = await dummyHash;
    await limited(() => verify(dummy, password)).catch(() => false);
    return false;
  }
  try {
    return await limited(() => verify(stored, password));
  } catch {
    return false;
  }
}
