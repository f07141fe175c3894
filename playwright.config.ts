import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/browser';

/**
 * Browser tests: the real built app (STATIC_DIR) served by the real server on a fresh demo database.
 * Build first: `npx vite build --outDir /tmp/<you>-web --emptyOutDir`, then
 * `E2E_STATIC_DIR=/tmp/<you>-web E2E_PORT=<port> npx playwright test e2e/<spec>.spec.ts`.
 */
const port = process.env.E2E_PORT ?? '4173';
const dataDir = mkdtempSync(join(tmpdir(), 'uebungskontrolle-e2e-'));
/** The mailbox of the tests (e2e/mail-sink.ts): the app sends to its SMTP port, the tests read its HTTP side (e2e/mail.ts). */
export const MAIL_SMTP_PORT = Number(port) + 1000;
export const MAIL_HTTP_PORT = Number(port) + 2000;
export const E2E_APP_SECRET = 'e2e-app-secret-0123456789abcdefghijklmnop';

export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: process.env.E2E_OUTPUT_DIR ?? 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    // A trace of each failure, for people at their machine; E2E_TRACE=0 (CI, where nobody opens one)
    // records none: a trace kept only on failure is recorded for every test all the same, and its
    // DOM snapshots cost about a quarter of the suite's time (without its screencast as much).
    trace: process.env.E2E_TRACE === '0' ? 'off' : 'retain-on-failure',
    // The app's service worker only where a spec asks for it (e2e/offline.spec.ts): everywhere
    // else each page talks to the server directly, as before.
    serviceWorkers: 'block',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: CHROMIUM_ARGS,
    },
  },
  projects: [{ name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, channel: undefined } }],
  webServer: [
    {
      command: `npx tsx e2e/mail-sink.ts ${MAIL_SMTP_PORT} ${MAIL_HTTP_PORT}`,
      url: `http://127.0.0.1:${MAIL_HTTP_PORT}/health`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: 'npx tsx server/main.ts',
      url: `http://127.0.0.1:${port}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: port,
        HOST: '127.0.0.1',
        STATIC_DIR: process.env.E2E_STATIC_DIR ?? 'dist/web',
        DATA_DIR: dataDir,
        DEMO_SEED: 'true',
        LOG_LEVEL: 'warn',
        SMTP_URL: `smtp://127.0.0.1:${MAIL_SMTP_PORT}`,
        SMTP_FROM: 'Musikschule Klangwelt <post@example.test>',
        // known to the tests, which sign the unsubscribe links of reminder mails with it (e2e/reminders.spec.ts)
        APP_SECRET: E2E_APP_SECRET,
      },
    },
  ],
});
