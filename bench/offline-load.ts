/**
 * docs/decisions/offline-practice.md's figures for `npm run bench` (and alone: `npx tsx bench/offline-load.ts [--web-dir D] [--runs N]`):
 * the student's task list on the phone profile – Chromium at 390×844, the CPU slowed 4× and the
 * network of Lighthouse's mobile profile (150 ms round trip, 1.6 Mbit/s down) – loaded
 *   1. cold: a fresh profile, nothing cached (the service worker installs after this load);
 *   2. again online: app shell from the service worker, data from the persisted cache, then fresh;
 *   3. again without signal: everything from the device.
 * Each figure is the time from navigation to the first task card on screen (median of the runs).
 */
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureWebBuild, startServer } from './run';

export type OfflineLoadResult = { cold_ms: number; warm_online_ms: number; warm_offline_ms: number; runs: number };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function throttle(context: BrowserContext, page: Page, offline: boolean): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
}

/** ms from navigation to the first task card (the page's own clock). */
async function timeToList(page: Page, reload: boolean): Promise<number> {
  if (reload) await page.reload({ waitUntil: 'commit' });
  else await page.goto('/submissions', { waitUntil: 'commit' });
  await page.getByTestId('task-card').first().waitFor({ timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

export async function runOfflineLoad(opts: { webDir?: string; runs?: number; log: (m: string) => void }): Promise<OfflineLoadResult> {
  const webDir = ensureWebBuild(opts.log, opts.webDir);
  const dataDir = mkdtempSync(join(tmpdir(), 'uk-bench-offline-'));
  const { child, port } = await startServer({ STATIC_DIR: webDir, DATA_DIR: dataDir, DEMO_SEED: 'true' });
  const base = `http://127.0.0.1:${port}`;
  const cold: number[] = [];
  const online: number[] = [];
  const offline: number[] = [];
  try {
    const login = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ayse@example.com', password: 'demo1234' }) });
    const { token, user } = (await login.json()) as { token: string; user: unknown };
    for (let run = 0; run < (opts.runs ?? 3); run++) {
      const profile = mkdtempSync(join(tmpdir(), 'uk-bench-profile-'));
      const context = await chromium.launchPersistentContext(profile, {
        executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
        baseURL: base,
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        serviceWorkers: 'allow',
      });
      try {
        // signed in as the app leaves it after a sign-in: the token and the user beside it
        await context.addInitScript(
          ([t, u]) => {
            if (!localStorage.getItem('token')) {
              localStorage.setItem('token', t as string);
              localStorage.setItem('lastUser', JSON.stringify({ tokenTail: (t as string).slice(-12), user: u }));
            }
          },
          [token, user] as const,
        );
        const page = context.pages()[0] ?? (await context.newPage());
        await throttle(context, page, false);
        cold.push(await timeToList(page, false));
        // the service worker installed and took the page; the persisted cache was written
        await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 120_000 });
        await page.waitForTimeout(2000);
        online.push(await timeToList(page, true));
        await page.waitForTimeout(2000);
        await context.setOffline(true);
        await throttle(context, page, true);
        offline.push(await timeToList(page, true));
      } finally {
        await context.close();
        rmSync(profile, { recursive: true, force: true });
      }
      opts.log(`offline load, run ${run + 1}: cold ${cold.at(-1)?.toFixed(0)} ms, again online ${online.at(-1)?.toFixed(0)} ms, again offline ${offline.at(-1)?.toFixed(0)} ms`);
    }
  } finally {
    await child.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return { cold_ms: Math.round(median(cold)), warm_online_ms: Math.round(median(online)), warm_offline_ms: Math.round(median(offline)), runs: cold.length };
}

export function formatOfflineLoad(r: OfflineLoadResult): string {
  return [
    `\n== student's task list on the phone profile (4× CPU, 150 ms RTT, 1.6 Mbit/s; median of ${r.runs}), navigation → first task card`,
    `   cold (nothing cached)                 ${String(r.cold_ms).padStart(6)} ms`,
    `   second load, online (service worker)  ${String(r.warm_online_ms).padStart(6)} ms`,
    `   second load, without signal           ${String(r.warm_offline_ms).padStart(6)} ms`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const val = (flag: string) => {
    const i = args.indexOf(flag);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const t0 = Date.now();
  const log = (m: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
  const r = await runOfflineLoad({ webDir: val('--web-dir') ? resolve(val('--web-dir')!) : undefined, runs: val('--runs') ? Number(val('--runs')) : undefined, log });
  console.log(formatOfflineLoad(r));
}
