import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The web app takes values from the contract only where no zod comes with them
 * (docs/decisions/first-load-on-a-phone.md, "Contract values without zod"): the schemas are for
 * the server and the OpenAPI document; a browser that imports a constant from a file that builds
 * schemas downloads zod and builds every schema of that file while the screen starts. Types come
 * from anywhere (`import type` is erased).
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

type Import = { module: string; values: string[] };

/** The imports of a source with the names it takes as values (not `type`). */
export function valueImports(source: string): Import[] {
  const out: Import[] = [];
  for (const m of source.matchAll(/\bimport\s+(type\s+)?([^'";]*?)\s*from\s*(['"])([^'"]+)\3/g)) {
    const [, typeOnly, clause = '', , module = ''] = m;
    if (typeOnly) continue;
    const values: string[] = [];
    const named = /\{([^}]*)\}/.exec(clause);
    const outside = clause.replace(/\{[^}]*\}/, '').replace(/,/g, ' ').trim();
    if (outside) values.push(outside);
    for (const part of (named?.[1] ?? '').split(',').map((p) => p.trim()).filter(Boolean)) if (!part.startsWith('type ')) values.push(part);
    out.push({ module, values });
  }
  for (const m of source.matchAll(/\bexport\s+\*\s+from\s*(['"])([^'"]+)\1/g)) out.push({ module: m[2]!, values: ['*'] });
  for (const m of source.matchAll(/\bexport\s+\{([^}]*)\}\s+from\s*(['"])([^'"]+)\2/g)) out.push({ module: m[3]!, values: m[1]!.split(',').map((p) => p.trim()).filter((p) => p && !p.startsWith('type ')) });
  return out;
}

/** contract/x.ts for '@contract/x' or './x' seen from a contract file. */
function contractFile(spec: string, from: string | null): string | null {
  const rel = spec.startsWith('@contract/') ? join(root, 'contract', spec.slice('@contract/'.length)) : from && spec.startsWith('.') ? join(dirname(from), spec) : null;
  if (!rel) return null;
  for (const candidate of [`${rel}.ts`, join(rel, 'index.ts')]) if (existsSync(candidate)) return candidate;
  return null;
}

/** Whether loading this contract file loads zod (itself, or a file it takes values from). */
const memo = new Map<string, boolean>();
function bringsZod(file: string, seen = new Set<string>()): boolean {
  const known = memo.get(file);
  if (known !== undefined) return known;
  if (seen.has(file)) return false;
  seen.add(file);
  const imports = valueImports(readFileSync(file, 'utf8')).filter((i) => i.values.length > 0);
  const result = imports.some((i) => i.module === 'zod' || i.module.startsWith('zod/') || (contractFile(i.module, file) !== null && bringsZod(contractFile(i.module, file)!, seen)));
  memo.set(file, result);
  return result;
}

describe('contract values in the web app', () => {
  it('come from files without zod', () => {
    const problems: string[] = [];
    for (const file of files(join(root, 'web'))) {
      for (const i of valueImports(readFileSync(file, 'utf8'))) {
        if (!i.module.startsWith('@contract/') || i.values.length === 0) continue;
        const target = contractFile(i.module, null);
        if (target && bringsZod(target)) problems.push(`${relative(root, file)}: ${i.values.join(', ')} from ${i.module}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('sees a value import through a schema file (the check itself works)', () => {
    expect(valueImports("import { ATTENTION, type X } from '@contract/dashboard';")).toEqual([{ module: '@contract/dashboard', values: ['ATTENTION'] }]);
    expect(valueImports("import type { X } from '@contract/dashboard';")).toEqual([]);
    expect(bringsZod(join(root, 'contract', 'dashboard.ts'))).toBe(true);
    expect(bringsZod(join(root, 'contract', 'music-keys.ts'))).toBe(false);
  });
});
