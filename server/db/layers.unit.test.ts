import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Layers import one way (docs/decisions/feature-boundaries.md for the web app; DESIGN.md's layout
 * for the server): routes → services → repos → server/db. The data layer knows no module: the demo
 * school's attachments are seeded by the media module, called by server/main.ts after `seedDemo`.
 */
const db = dirname(fileURLToPath(import.meta.url));
const modules = join(db, '..', 'modules');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|mts|mjs)$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

/** The specifiers of a source's imports (static, dynamic, re-exports) that lead into server/modules. */
export function intoModules(file: string, source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g)) {
    const spec = m[2]!;
    if (!spec.startsWith('.')) continue;
    const rel = relative(modules, resolve(dirname(file), spec));
    if (rel === '' || !(rel.startsWith('..') || rel.startsWith(sep))) found.push(spec);
  }
  return found;
}

describe('server layers', () => {
  it('finds static, dynamic and re-exported imports into server/modules', () => {
    const file = join(db, 'seed.ts');
    const source = [
      "import { seedDemoMedia } from '../modules/media/demo-media';",
      "const m = await import('../modules/recordings/recordings.repo');",
      "export { x } from '../modules/auth/auth.service';",
      "import type { Db } from './client';",
      "import { hashPassword } from '../lib/passwords';",
      "import { sql } from 'drizzle-orm';",
    ].join('\n');
    expect(intoModules(file, source)).toEqual(['../modules/media/demo-media', '../modules/recordings/recordings.repo', '../modules/auth/auth.service']);
  });

  it('server/db imports no module', () => {
    const offending = files(db).flatMap((file) => intoModules(file, readFileSync(file, 'utf8')).map((spec) => `${relative(db, file)} → ${spec}`));
    expect(offending).toEqual([]);
  });
});
