/**
 * `npm run bench:lighthouse`: Lighthouse (mobile, simulated throttling) on the pages of
 * DESIGN.md's budget – /login, the student's home, task list and a task (the practice screen), the
 * teacher's home and students list, the tools – and the review screen (a take sent first), against the real server on a fresh demo school.
 *
 *   npm run bench:lighthouse                          dist/web served by dist/server/main.mjs
 *   npm run bench:lighthouse -- --web-dir /tmp/web    another build of the web app (STATIC_DIR)
 *   npm run bench:lighthouse -- --server tsx          server/main.ts through tsx (no compiled server needed)
 *   npm run bench:lighthouse -- --runs 3              each page three times, the median run kept
 *   npm run bench:lighthouse -- --only login,task     some pages only
 *   npm run bench:lighthouse -- --cpu 6               a slower phone (or a faster machine): CPU 6× instead of 4×
 *   LIGHTHOUSE_LHR_DIR=d LIGHTHOUSE_TRACE_DIR=d         each run's report and trace written to d
 *   LIGHTHOUSE_TRACE_CATEGORIES=disabled-by-default-v8.cpu_profiler   more in the trace (here a CPU profile)
 *
 * It builds nothing: `npm run build` (or `npm start` once) makes dist/web and dist/server first.
 * Chromium: CHROME_PATH or /usr/bin/chromium, headless. Signed-in pages get the demo user's
 * token in localStorage 'token' and the user beside it ('lastUser'), as the app leaves them after
 * a sign-in, on a same-origin page that is not the app; the browser cache, any service worker,
 * its caches and IndexedDB are cleared before every run (a first visit of a signed-in user). Results: a table on the terminal and
 * bench/results/lighthouse-<time>.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import lighthouse, { type Flags, type RunnerResult } from 'lighthouse';
import { throttling } from 'lighthouse/core/config/constants.js';
import puppeteer, { type Browser } from 'puppeteer-core';
import { encodeWav16 } from '@contract/listening/wav';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const DEMO_PASSWORD = 'demo1234';
const STUDENT = 'ayse@example.com';
const TEACHER = 'lehrer@example.com';

export type PageName = 'login' | 'student-home' | 'task-list' | 'task' | 'teacher-home' | 'students' | 'tools' | 'review';
export const PAGES: PageName[] = ['login', 'student-home', 'task-list', 'task', 'teacher-home', 'students', 'tools', 'review'];

export type PageResult = {
  page: PageName;
  path: string;
  performance: number;
  accessibility: number;
  tbt_ms: number;
  cls: number;
  lcp_ms: number;
  fcp_ms: number;
  /** The longest main-thread task Lighthouse saw (ms, throttled CPU). */
  longest_task_ms: number;
  /** Accessibility audits that failed (id: title). */
  a11y_failures: string[];
  /** Scripts with the most unused bytes (url: unused of total, bytes). */
  unused_js: string[];
  /** The longest tasks (start ms: duration ms, script). */
  long_tasks: string[];
  /** Scripts by main-thread time (url: total ms, of which script evaluation ms). */
  bootup: string[];
  /** What the largest paint was, and what shifted (Lighthouse's node labels). */
  lcp_element: string;
  shifts: string[];
  /** Lighthouse's measure of this machine's speed at the time (higher is faster; a loaded machine scores low). */
  benchmark_index: number;
  /** All runs' performance scores (the median run is reported). */
  runs: number[];
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

/** The compiled server (as `npm start` runs it) or server/main.ts through tsx, on a fresh demo school. */
async function startServer(opts: { webDir: string; server: 'dist' | 'tsx' }): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'uk-lighthouse-'));
  const entry = opts.server === 'dist' ? [join(ROOT, 'dist', 'server', 'main.mjs')] : ['--import', 'tsx', join(ROOT, 'server', 'main.ts')];
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'APP_SECRET', 'NODE_OPTIONS']) delete env[k];
  Object.assign(env, { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, DEMO_SEED: 'true', STATIC_DIR: opts.webDir, LOG_LEVEL: 'warn' });
  const proc: ChildProcess = spawn(process.execPath, entry, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-4000));
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const t0 = Date.now();
  for (;;) {
    if (proc.exitCode !== null) {
      await stop();
      throw new Error(`server exited (${proc.exitCode}):\n${out}`);
    }
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() - t0 > 120_000) {
      await stop();
      throw new Error(`server did not answer within 120 s:\n${out}`);
    }
    await sleep(50);
  }
  return { base, stop };
}

/** A signed-in browser's storage as the app leaves it after the sign-in: the token and the user beside it. */
type Session = { token: string; user: unknown };

async function signIn(base: string, email: string): Promise<Session> {
  const r = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!r.ok) throw new Error(`sign-in of ${email}: HTTP ${r.status}`);
  return (await r.json()) as Session;
}

/** The student's task to measure: the first one still to do that has media (sheet music), else the first. */
async function pickTask(base: string, token: string): Promise<number> {
  const r = await fetch(`${base}/api/submissions?order=work&limit=50`, { headers: { Authorization: `Bearer ${token}` } });
  const list = (await r.json()) as Array<{ id: number; status: string; exercise: { media_files: unknown[] } | null }>;
  const todo = list.filter((s) => s.status === 'open' || s.status === 'overdue');
  const pick = todo.find((s) => (s.exercise?.media_files.length ?? 0) > 0) ?? todo[0] ?? list[0];
  if (!pick) throw new Error('the demo student has no task');
  return pick.id;
}

/** A 4-second take (a 330 Hz tone, WAV) sent by the student on the task: the review opens it. */
async function sendTake(base: string, token: string, taskId: number): Promise<void> {
  const rate = 16_000;
  const pcm = Float32Array.from({ length: rate * 4 }, (_, i) => Math.sin((2 * Math.PI * 330 * i) / rate) * 0.4);
  const wav = encodeWav16(pcm, rate);
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(wav)], { type: 'audio/wav' }), 'take.wav');
  form.append('message', 'Takt 12 klappt noch nicht');
  const r = await fetch(`${base}/api/submissions/${taskId}/recordings`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  if (!r.ok) throw new Error(`sending a take: ${r.status} ${await r.text()}`);
}

type Num = { numericValue?: number; score?: number | null; title?: string; details?: { items?: Array<Record<string, unknown>> } };

function summarize(page: PageName, path: string, lhr: RunnerResult['lhr']): Omit<PageResult, 'runs'> {
  const a = lhr.audits as Record<string, Num | undefined>;
  const num = (id: string) => Math.round((a[id]?.numericValue ?? 0) * 1000) / 1000;
  const longTasks = (a['long-tasks']?.details?.items ?? []).map((i) => Number(i.duration ?? 0));
  const a11yRefs = lhr.categories.accessibility?.auditRefs ?? [];
  const a11yFailures = a11yRefs
    .filter((ref) => ref.weight > 0 && a[ref.id]?.score === 0)
    .map((ref) => `${ref.id}: ${a[ref.id]?.title ?? ''}`);
  const unused = (a['unused-javascript']?.details?.items ?? [])
    .slice(0, 3)
    .map((i) => `${String(i.url).replace(/^https?:\/\/[^/]+/, '')}: ${Math.round(Number(i.wastedBytes) / 1024)} of ${Math.round(Number(i.totalBytes) / 1024)} KiB unused`);
  const host = /^https?:\/\/[^/]+/;
  const longList = (a['long-tasks']?.details?.items ?? [])
    .slice(0, 5)
    .map((i) => `${Math.round(Number(i.startTime))}: ${Math.round(Number(i.duration))} ms ${String(i.url).replace(host, '')}`);
  const bootup = (a['bootup-time']?.details?.items ?? [])
    .slice(0, 5)
    .map((i) => `${String(i.url).replace(host, '')}: ${Math.round(Number(i.total))} ms (script ${Math.round(Number(i.scripting))} ms)`);
  type Node = { nodeLabel?: string; snippet?: string };
  const lcpItems = (a['largest-contentful-paint-element']?.details?.items ?? []) as Array<{ items?: Array<{ node?: Node }> }>;
  // Lighthouse 13 names the element in its LCP breakdown insight; older ones in its own audit.
  const lcpInsight = (a['lcp-breakdown-insight']?.details?.items ?? []) as Array<Node & { type?: string }>;
  const lcpNode = lcpItems[0]?.items?.[0]?.node ?? lcpInsight.find((i) => i.type === 'node');
  const shifts = (a['layout-shifts']?.details?.items ?? [])
    .slice(0, 4)
    .map((i) => `${Number(i.score).toFixed(3)} ${((i.node as Node | undefined)?.snippet ?? '').slice(0, 120)}`);
  return {
    page,
    path,
    benchmark_index: Math.round(lhr.environment?.benchmarkIndex ?? 0),
    lcp_element: `${lcpNode?.nodeLabel ?? ''} ${lcpNode?.snippet?.slice(0, 120) ?? ''}`.trim(),
    shifts,
    long_tasks: longList,
    bootup,
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
    tbt_ms: Math.round(num('total-blocking-time')),
    cls: Math.round(num('cumulative-layout-shift') * 1000) / 1000,
    lcp_ms: Math.round(num('largest-contentful-paint')),
    fcp_ms: Math.round(num('first-contentful-paint')),
    longest_task_ms: Math.round(Math.max(0, ...longTasks)),
    a11y_failures: a11yFailures,
    unused_js: unused,
  };
}

/** One Lighthouse run of `path`, signed in with `token` (or as a guest). */
async function measure(browser: Browser, base: string, path: string, session: Session | null, cpu?: number): Promise<RunnerResult['lhr']> {
  const page = await browser.newPage();
  try {
    // A same-origin answer that is not the app: the token goes into localStorage without the
    // app's scripts landing in the cache; then the cache is emptied anyway.
    await page.goto(`${base}/api/health`);
    await page.evaluate((s) => {
      localStorage.clear();
      sessionStorage.clear();
      if (s) {
        localStorage.setItem('token', s.token);
        localStorage.setItem('lastUser', JSON.stringify({ tokenTail: s.token.slice(-12), user: s.user }));
      }
    }, session);
    const cdp = await page.createCDPSession();
    await cdp.send('Network.clearBrowserCache');
    // A first visit: no service worker, no precache, no persisted queries from an earlier run.
    await cdp.send('Storage.clearDataForOrigin', { origin: base, storageTypes: 'service_workers,cache_storage,indexeddb' });
    await cdp.detach();
    const flags: Flags = {
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // Lighthouse's own reset would also empty localStorage and sign the user out.
      disableStorageReset: true,
      ...(process.env.LIGHTHOUSE_TRACE_CATEGORIES ? { additionalTraceCategories: process.env.LIGHTHOUSE_TRACE_CATEGORIES } : {}),
      // Lighthouse's simulation multiplies this machine's task times: on a faster machine than
      // usual (a higher benchmark index), a higher multiplier stands for the same phone.
      ...(cpu ? { throttling: { ...throttling.mobileSlow4G, cpuSlowdownMultiplier: cpu } } : {}),
    };
    const result = await lighthouse(`${base}${path}`, flags, undefined, page);
    if (!result) throw new Error(`no Lighthouse result for ${path}`);
    if (process.env.LIGHTHOUSE_LHR_DIR) writeFileSync(join(process.env.LIGHTHOUSE_LHR_DIR, `${path.replace(/\W+/g, '_') || 'root'}-${Date.now()}.json`), JSON.stringify(result.lhr));
    // The run's trace, for a look inside its tasks (with LIGHTHOUSE_TRACE_CATEGORIES=disabled-by-default-v8.cpu_profiler, a CPU profile too).
    if (process.env.LIGHTHOUSE_TRACE_DIR) {
      const trace = (result.artifacts as unknown as { Trace?: unknown }).Trace;
      writeFileSync(join(process.env.LIGHTHOUSE_TRACE_DIR, `${path.replace(/\W+/g, '_') || 'root'}-${Date.now()}.trace.json`), JSON.stringify(trace));
    }
    if (result.lhr.runtimeError) throw new Error(`${path}: ${result.lhr.runtimeError.message}`);
    return result.lhr;
  } finally {
    await page.close();
  }
}

export type LighthouseOptions = { webDir?: string; server?: 'dist' | 'tsx'; runs?: number; only?: PageName[]; cpu?: number; log?: (m: string) => void };

export async function runLighthouse(opts: LighthouseOptions = {}): Promise<{ results: PageResult[]; file: string; table: string }> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const webDir = resolve(opts.webDir ?? join(ROOT, 'dist', 'web'));
  if (!existsSync(join(webDir, 'index.html'))) throw new Error(`${webDir}/index.html is missing: build the web app first (npm run build)`);
  const serverMode = opts.server ?? (existsSync(join(ROOT, 'dist', 'server', 'main.mjs')) ? 'dist' : 'tsx');
  const runs = Math.max(1, opts.runs ?? 1);
  const wanted = opts.only?.length ? opts.only : PAGES;
  const cpu = opts.cpu ?? throttling.mobileSlow4G.cpuSlowdownMultiplier;
  log(`lighthouse: web ${webDir}, server ${serverMode}, ${runs} run(s) per page, CPU ${cpu}×`);
  const server = await startServer({ webDir, server: serverMode });
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const student = await signIn(server.base, STUDENT);
    const teacher = await signIn(server.base, TEACHER);
    const taskId = await pickTask(server.base, student.token);
    const targets: Record<PageName, { path: string; token: Session | null }> = {
      login: { path: '/login', token: null },
      'student-home': { path: '/', token: student },
      'task-list': { path: '/submissions', token: student },
      task: { path: `/submissions/${taskId}`, token: student },
      'teacher-home': { path: '/', token: teacher },
      students: { path: '/students', token: teacher },
      tools: { path: '/tools', token: student },
      review: { path: '/review', token: teacher },
    };
    // the review screen opens the oldest take waiting for an answer: one is sent first
    if (wanted.includes('review')) await sendTake(server.base, student.token, taskId);
    const results: PageResult[] = [];
    for (const name of wanted) {
      const { path, token } = targets[name];
      const all: Array<Omit<PageResult, 'runs'>> = [];
      for (let i = 0; i < runs; i++) {
        // Lighthouse sometimes loses a trace (NO_NAVSTART, NO_FCP under load): try again, twice.
        for (let attempt = 1; ; attempt++) {
          try {
            all.push(summarize(name, path, await measure(browser, server.base, path, token, opts.cpu)));
            break;
          } catch (e) {
            if (attempt >= 3) throw e;
            log(`  ${name}: ${(e as Error).message.split('\n')[0]} – again`);
          }
        }
      }
      const sorted = [...all].sort((a, b) => a.performance - b.performance);
      const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
      results.push({ ...median, runs: all.map((r) => r.performance) });
      log(`  ${name}: performance ${median.performance}, accessibility ${median.accessibility}, TBT ${median.tbt_ms} ms`);
    }
    const table = formatTable(results);
    const dir = join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify({ started_at: new Date().toISOString(), web_dir: webDir, server: serverMode, runs, cpu_slowdown: cpu, results }, null, 2));
    return { results, file, table };
  } finally {
    await browser.close();
    await server.stop();
  }
}

export function formatTable(results: PageResult[]): string {
  const pad = (s: string, n: number) => s.padEnd(n);
  const lpad = (s: string, n: number) => s.padStart(n);
  const lines = ['\n== Lighthouse, mobile (budget: performance ≥ 90, accessibility 100, no task over 200 ms)'];
  lines.push(`   ${pad('page', 14)} ${pad('path', 18)} ${lpad('perf', 5)} ${lpad('a11y', 5)} ${lpad('TBT ms', 7)} ${lpad('CLS', 6)} ${lpad('LCP ms', 7)} ${lpad('FCP ms', 7)} ${lpad('long ms', 8)} ${lpad('bench', 6)}`);
  for (const r of results) {
    const ok = r.performance >= 90 && r.accessibility === 100;
    lines.push(
      `  ${ok ? ' ok ' : 'MISS'} ${pad(r.page, 12)} ${pad(r.path, 18)} ${lpad(String(r.performance), 5)} ${lpad(String(r.accessibility), 5)} ${lpad(String(r.tbt_ms), 7)} ${lpad(r.cls.toFixed(3), 6)} ${lpad(String(r.lcp_ms), 7)} ${lpad(String(r.fcp_ms), 7)} ${lpad(String(r.longest_task_ms), 8)} ${lpad(String(r.benchmark_index), 6)}`,
    );
    for (const f of r.a11y_failures) lines.push(`         a11y: ${f}`);
  }
  return lines.join('\n');
}

async function cli() {
  const args = process.argv.slice(2);
  const val = (flag: string) => {
    const i = args.indexOf(flag);
    const v = i >= 0 ? args[i + 1] : undefined;
    return v && !v.startsWith('--') ? v : undefined;
  };
  const only = val('--only')?.split(',').filter((p): p is PageName => (PAGES as string[]).includes(p));
  const { table, file } = await runLighthouse({
    webDir: val('--web-dir'),
    server: val('--server') === 'tsx' ? 'tsx' : val('--server') === 'dist' ? 'dist' : undefined,
    runs: val('--runs') ? Number(val('--runs')) : undefined,
    cpu: val('--cpu') ? Number(val('--cpu')) : undefined,
    only,
  });
  console.log(table);
  console.log(`\n(${file})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  cli().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
