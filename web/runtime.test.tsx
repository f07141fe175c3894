import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { version as reactDomVersion } from 'react-dom';
import { version as reactVersion } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

/**
 * One runtime from the dev server to production: React DOM 19, no compatible runtime in its place
 * (docs/decisions/react-dom-again.md). The browser side is checked in e2e/foundation.spec.ts.
 */
describe('the runtime', () => {
  it('the component tests render with React DOM 19', () => {
    expect(reactDomVersion).toMatch(/^19\./);
    expect(reactVersion).toBe(reactDomVersion);
    const { container } = render(<button type="button">Start</button>);
    // React DOM's own marks on the root it rendered into and on the element it drew
    expect(Object.keys(container).some((k) => k.startsWith('__reactContainer$'))).toBe(true);
    expect(Object.keys(screen.getByRole('button', { name: 'Start' })).some((k) => k.startsWith('__reactFiber$'))).toBe(true);
  });

  it('no Preact anywhere in the installed tree, and no alias that would put another runtime under "react"', () => {
    const lock = JSON.parse(readFileSync(join(process.cwd(), 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).filter((p) => /(^|\/)node_modules\/preact(\/|$)/.test(p))).toEqual([]);
    const vite = readFileSync(join(process.cwd(), 'vite.config.ts'), 'utf8');
    expect(vite).not.toMatch(/preact/);
  });
});
