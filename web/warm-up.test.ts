import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { detectLanguage } from '@web/lib/i18n';
import { FIRST_SCREENS } from './app/first-screens';

/**
 * web/warm-up.js as the build writes it (the screens in place of the placeholder), run in a page of
 * its own: a stored session on a task's address, a fetch that records, and the page's task queue
 * under the test's hand, one task at a time (docs/decisions/first-load-on-a-phone.md).
 */
function page(path: string, opts: { token?: string | null; role?: string; stored?: string; languages?: string[]; workers?: boolean } = {}) {
  const token = opts.token === undefined ? 'token-of-the-test-0123456789' : opts.token;
  const storage = new Map<string, string>();
  if (token) {
    storage.set('token', token);
    storage.set('lastUser', JSON.stringify({ tokenTail: token.slice(-12), user: { role: { name: opts.role ?? 'student' } } }));
  }
  if (opts.stored !== undefined) storage.set('language', opts.stored);
  const languages = opts.languages ?? ['tr-TR', 'de'];
  const asked: Array<{ url: string; headers: Record<string, string> }> = [];
  const tasks: Array<() => void> = [];
  const marks: string[] = [];
  const links: string[] = [];
  const workers: string[] = [];
  const win: Record<string, unknown> = {
    localStorage: { getItem: (k: string) => storage.get(k) ?? null },
    location: { pathname: path },
    navigator: { languages, language: languages[0] ?? '' },
    fetch: (url: string, init: { headers: Record<string, string> }) => {
      asked.push({ url, headers: init.headers });
      return Promise.resolve(new Response('{}'));
    },
    performance: { now: () => 0, mark: (name: string) => marks.push(name) },
    setTimeout: (f: (...a: unknown[]) => void, _ms: number, ...args: unknown[]) => tasks.push(() => f(...args)),
    requestAnimationFrame: (f: () => void) => tasks.push(f),
    document: { createElement: () => ({}), head: { appendChild: (l: { href: string }) => links.push(l.href) } },
    Intl,
    ...(opts.workers === false
      ? {}
      : {
          Worker: function Worker(url: string) {
            workers.push(url);
          },
        }),
    Map,
    JSON,
    RegExp,
    String,
  };
  win.window = win;
  const template = readFileSync(resolve(import.meta.dirname, 'warm-up.js'), 'utf8');
  const screens = FIRST_SCREENS.map(({ path: p, role, reads }) => ({ path: p, role, reads, files: ['assets/screen.js'] }));
  const code = template.replace('var screens = __FIRST_SCREENS__;', () => `var screens = ${JSON.stringify(screens)};`);
  expect(code).not.toBe(template);
  return {
    win,
    asked,
    marks,
    links,
    workers,
    run: () => runInNewContext(code, win),
    /** Runs the next task of the page's queue; false when there is none. */
    step: () => {
      const next = tasks.shift();
      next?.();
      return next !== undefined;
    },
    drain() {
      while (this.step());
    },
  };
}

const taskReads = FIRST_SCREENS.find((s) => s.module.includes('submission-detail') && s.role === 'student')?.reads ?? [];

describe('the warm-up script', () => {
  it("asks for a task's first read at once and each further read in a task of its own, with the token and the browser's language", () => {
    expect(taskReads.length).toBeGreaterThan(1);
    const p = page('/submissions/23');
    p.run();
    // The script's own task: the screen's first read only (a phone's CPU makes each read a task of its own)
    expect(p.asked.map((a) => a.url)).toEqual(['/api/submissions/23']);
    for (let n = 2; n <= taskReads.length; n++) {
      while (p.asked.length < n && p.step());
      expect(p.asked).toHaveLength(n);
    }
    p.drain();
    expect(p.asked.map((a) => a.url)).toEqual(taskReads.map((r) => r.replace(/\$1/g, '23').replace('$lang', 'tr')));
    expect(p.asked.every((a) => a.headers.Authorization === 'Bearer token-of-the-test-0123456789' && a.headers['Accept-Language'] === 'tr')).toBe(true);
    const warm = p.win.__warmReads as Map<string, { token: string; lang: string }>;
    expect([...warm.keys()]).toEqual(p.asked.map((a) => a.url));
    expect(p.marks).toContain('icu-warm');
    expect(p.workers).toEqual(['/icu-warm.js']);
    expect(p.links).toEqual(['/assets/screen.js']);
  });

  it("stops asking once the app's script has started: the app asks for the rest itself, nothing twice", () => {
    const p = page('/submissions/23');
    p.run();
    expect(p.asked).toHaveLength(1);
    p.win.__appStarted = true;
    p.drain();
    expect(p.asked).toHaveLength(1);
    expect([...(p.win.__warmReads as Map<string, unknown>).keys()]).toEqual(['/api/submissions/23']);
  });

  it("asks for nothing without a stored session, and still starts ICU's worker in a task after its own", () => {
    const p = page('/submissions/23', { token: null });
    p.run();
    expect(p.marks).toEqual([]);
    expect(p.workers).toEqual([]);
    p.drain();
    expect(p.asked).toEqual([]);
    expect(p.win.__warmReads).toBeUndefined();
    expect(p.workers).toEqual(['/icu-warm.js']);
    expect(p.marks).toEqual(['icu-warm']);
  });

  it('loads ICU in that task itself where the browser has no workers', () => {
    const p = page('/login', { token: null, workers: false });
    let made = 0;
    const RealDateTimeFormat = Intl.DateTimeFormat;
    p.win.Intl = {
      DateTimeFormat: function DateTimeFormat(...a: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        made++;
        return new RealDateTimeFormat(...a);
      },
    };
    p.run();
    expect(made).toBe(0);
    p.drain();
    expect(made).toBe(1);
    expect(p.marks).toEqual(['icu-warm']);
  });

  it.each([
    { stored: undefined, languages: ['tr-TR', 'de'] },
    { stored: 'de', languages: ['tr-TR'] },
    { stored: 'tr', languages: ['de-DE'] },
    { stored: 'en', languages: ['en-US', 'TR_tr'] },
    { stored: undefined, languages: ['fr-FR', 'en'] },
    { stored: undefined, languages: [] },
  ])('reads in the language the app will speak (stored $stored, browser $languages)', ({ stored, languages }) => {
    const p = page('/submissions/23', { ...(stored !== undefined ? { stored } : {}), languages });
    p.run();
    expect(p.asked[0]?.headers['Accept-Language']).toBe(detectLanguage(stored ?? null, languages));
  });
});
