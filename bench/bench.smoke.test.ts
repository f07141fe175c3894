/**
 * Keeps `npm run bench` from rotting: the real runner on tiny data (PGlite, a few calls, well
 * under a second of load each). No timing is asserted: the machine may be busy.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluate, formatBundle, formatReport, measureBundle, monthGrid, runBench, startNodeFlags } from './run';

describe('bench runner', () => {
  it('runs the server with the Node.js flags of `npm start`', () => {
    expect(startNodeFlags().some((f) => /^--max-old-space-size=\d+$/.test(f))).toBe(true);
  });

  it('measures calls, the baseline, the inbox, two uploads, start/stop and an assignment on tiny PGlite data', { timeout: 300_000 }, async () => {
    const report = await runBench({
      db: 'pglite',
      preset: 'tiny',
      durationSec: 0.3,
      warmupSec: 0,
      connections: 4,
      seqRequests: 3,
      assignRepeats: 1,
      signIns: 3,
      startup: false,
      server: 'bundle',
      only: ['user', 'tasks', 'calendar', 'inbox', 'upload', 'practice', 'assign'],
      // small uploads, once each: only that they stream in and are reported
      uploadBytes: 2 * 1024 * 1024,
      mediaUploadBytes: 1024 * 1024,
      uploadRuns: 1,
      resultsDir: null,
      log: () => {},
    });
    expect(report.data.students).toBe(6);
    expect(report.data.submissions).toBeGreaterThan(50);
    expect(report.data.practice_sessions).toBeGreaterThan(50);
    expect(report.server_start_ms).toBeGreaterThan(0);
    expect(report.rss_max_mb).toBeGreaterThan(0);
    expect(report.sign_in?.n).toBe(3);
    expect(report.data.recordings).toBe(30);
    expect(report.calls.map((c) => c.name)).toEqual(['user', 'tasks', 'calendar', 'inbox', 'upload-recording', 'upload-media', 'practice', 'assign']);
    const user = report.calls.find((c) => c.name === 'user');
    expect(user?.status).toBe('ok');
    expect(user?.rps).toBeGreaterThan(0);
    // Calls whose routes exist were measured, each against its own SQL on the bare route.
    for (const c of report.calls.filter((x) => x.status === 'ok' && ['tasks', 'calendar', 'inbox'].includes(x.name))) {
      expect(c.non2xx).toBe(0);
      expect(c.baseline?.queries).toBeGreaterThan(0);
      expect(c.ratio).toBeGreaterThan(0);
      // both read-cached calls were also measured cold (Cache-Control: no-cache)
      expect(c.cold?.rps).toBeGreaterThan(0);
    }
    // the inbox was answered, and both uploads went through with the server's RSS sampled
    expect(report.calls.find((c) => c.name === 'inbox')?.status).toBe('ok');
    expect(report.uploads?.map((u) => [u.name, u.status])).toEqual([
      ['upload-recording', 201],
      ['upload-media', 200],
    ]);
    for (const u of report.uploads ?? []) expect(u.rss_peak_mb).toBeGreaterThan(0);
    expect(report.budgets.some((b) => b.what.startsWith('upload-recording: server RSS growth'))).toBe(true);
    const assign = report.calls.find((c) => c.name === 'assign');
    if (assign?.status === 'ok') expect(report.assign?.rows).toBe(6 * 30);
    const text = formatReport(report);
    expect(text).toContain('task list of a student');
    expect(text).toContain('budgets:');
    expect(text).toContain('cold r/s');
    expect(text).toContain('recordings inbox (Zu prüfen)');
    expect(text).toContain('recording upload 2 MiB');
    expect(report.budgets.length).toBeGreaterThan(0);
  });

  it('sums the JavaScript of /login and of each screen from a Vite manifest', () => {
    const dir = mkdtempSync(join(tmpdir(), 'uk-bench-manifest-'));
    try {
      mkdirSync(join(dir, '.vite'));
      mkdirSync(join(dir, 'assets'));
      const files = { 'assets/index.js': 'a'.repeat(5000), 'assets/react.js': 'r'.repeat(3000), 'assets/login.js': 'l'.repeat(100), 'assets/students.js': 's'.repeat(100), 'assets/layout.js': 'y'.repeat(2000), 'assets/index.css': 'c' };
      for (const [f, c] of Object.entries(files)) writeFileSync(join(dir, f), c);
      writeFileSync(
        join(dir, '.vite', 'manifest.json'),
        JSON.stringify({
          'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'], dynamicImports: ['app/routes/login.tsx', 'app/layout/main-layout.tsx', 'app/routes/students.tsx'], css: ['assets/index.css'] },
          'app/layout/main-layout.tsx': { file: 'assets/layout.js', isDynamicEntry: true, imports: ['_react.js'] },
          '_react.js': { file: 'assets/react.js' },
          'app/routes/login.tsx': { file: 'assets/login.js', isDynamicEntry: true, imports: ['_react.js'] },
          'app/routes/students.tsx': { file: 'assets/students.js', isDynamicEntry: true },
        }),
      );
      const b = measureBundle(dir);
      expect(b.login_files.sort()).toEqual(['assets/index.js', 'assets/login.js', 'assets/react.js']);
      expect(Object.keys(b.screens).sort()).toEqual(['login', 'students']);
      expect(b.login_js_gzip).toBeGreaterThan(0);
      // a signed-in screen carries the main layout; /login does not
      expect(b.screens.students).toBeGreaterThan(b.screens.login!);
      expect(formatBundle(b)).toContain('/login JS');
      const budgets = evaluate({ db: 'pglite', calls: [], options: { connections: 1 } } as never, b);
      expect(budgets.find((x) => x.what.startsWith('/login'))?.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks for the six-week month grid FullCalendar shows', () => {
    expect(monthGrid('2026-11-22')).toEqual({ start: '2026-10-26', end: '2026-12-07' });
    expect(monthGrid('2026-06-01')).toEqual({ start: '2026-06-01', end: '2026-07-13' });
  });
});
