import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Features never import each other (docs/decisions/feature-boundaries.md): every import in
 * web/features/X, by alias (`@web/features/Y/…`) or relative (`../../Y/…`), static or dynamic,
 * tests included, stays inside X. web/lib and web/components import no feature either (outside
 * their tests: web/lib/i18n.test.ts loads a feature's namespace to try the registration), and web/lib
 * imports nothing from web/components (components may use lib; what both need and has no UI, such
 * as the flash toast's queue, is lib's): the two never import each other.
 */
const web = dirname(fileURLToPath(import.meta.url));
const featuresDir = join(web, 'features');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

/** Every module a file names: import/export … from '…', import('…'), vi.mock('…'). */
export function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const m of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\bvi\.mock\(\s*)(['"])([^'"]+)\1/g)) found.push(m[2]!);
  return found;
}

/** The feature a module path lies in (web/features/<feature>/…), or null outside the features. */
function featureOf(path: string): string | null {
  const rel = relative(featuresDir, path);
  if (rel.startsWith('..') || rel === '') return null;
  return rel.split(sep)[0] ?? null;
}

/** Where an import points, as a path under web/, or null for a package or another root (@contract). */
function target(file: string, spec: string): string | null {
  if (spec.startsWith('@web/')) return join(web, spec.slice('@web/'.length));
  if (spec.startsWith('.')) return resolve(dirname(file), spec);
  return null;
}

/** The imports of `file` that leave its own feature for another one (`own` null: for a file outside the features). */
export function crossings(file: string, source: string, own: string | null): string[] {
  return specifiers(source).filter((spec) => {
    const to = target(file, spec);
    if (to === null) return false;
    const feature = featureOf(to);
    return feature !== null && feature !== own;
  });
}

/** The imports of `file` that lead into web/components. */
export function intoComponents(file: string, source: string): string[] {
  const components = join(web, 'components');
  return specifiers(source).filter((spec) => {
    const to = target(file, spec);
    if (to === null) return false;
    const rel = relative(components, to);
    return rel === '' || !rel.startsWith('..');
  });
}

describe('feature boundaries', () => {
  it('finds alias, relative and dynamic imports into another feature (and lets a feature import itself)', () => {
    const file = join(featuresDir, 'tasks', 'components', 'x.tsx');
    const source = [
      "import { a } from '@web/features/progress/api/progress';",
      "import { b } from '../../offline/lib/outbox';",
      "const c = lazy(() => import('@web/features/practice/components/timer'));",
      "vi.mock('../../recordings/lib/outbox', () => ({}));",
      "import { d } from '../api/submissions';",
      "import { e } from '@web/features/tasks/lib/task-status';",
      "import { f } from '@web/lib/today';",
      "import type { G } from '@contract/submissions';",
      "export { h } from '../../../lib/format';",
    ].join('\n');
    expect(crossings(file, source, 'tasks')).toEqual(['@web/features/progress/api/progress', '../../offline/lib/outbox', '@web/features/practice/components/timer', '../../recordings/lib/outbox']);
    expect(crossings(join(web, 'lib', 'x.ts'), "import { a } from '@web/features/tasks/api/submissions';", null)).toEqual(['@web/features/tasks/api/submissions']);
  });

  it('no feature imports another feature', () => {
    const offending = files(featuresDir).flatMap((file) => crossings(file, readFileSync(file, 'utf8'), featureOf(file)).map((spec) => `${relative(web, file)} → ${spec}`));
    expect(offending).toEqual([]);
  });

  it('web/lib and web/components import no feature (their tests may load one to try a hook for features)', () => {
    const shared = [...files(join(web, 'lib')), ...files(join(web, 'components'))].filter((file) => !/\.test\.tsx?$/.test(file));
    const offending = shared.flatMap((file) => crossings(file, readFileSync(file, 'utf8'), null).map((spec) => `${relative(web, file)} → ${spec}`));
    expect(offending).toEqual([]);
  });

  it('finds alias and relative imports from web/lib into web/components', () => {
    const file = join(web, 'lib', 'auth', 'x.tsx');
    const source = [
      "import { useToast } from '@web/components/ui/toast';",
      "import { Button } from '../../components/ui/button';",
      "const m = lazy(() => import('@web/components/offline-notice'));",
      "import { queueFlashToast } from '@web/lib/flash-toast';",
      "import { authStore } from './auth-store';",
    ].join('\n');
    expect(intoComponents(file, source)).toEqual(['@web/components/ui/toast', '../../components/ui/button', '@web/components/offline-notice']);
  });

  it('web/lib imports nothing from web/components', () => {
    const offending = files(join(web, 'lib')).flatMap((file) => intoComponents(file, readFileSync(file, 'utf8')).map((spec) => `${relative(web, file)} → ${spec}`));
    expect(offending).toEqual([]);
  });
});
