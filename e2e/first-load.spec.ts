import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';
import type { Page } from '@playwright/test';
import { DEMO, PHONE, expect, loginAs, test } from './fixtures';

/**
 * docs/decisions/student-practice-first.md: a first load on a slow phone does not move what is already on screen. The page is
 * loaded with an empty browser cache over a throttled line (150 ms, 1.6 Mbit/s) and a 4× slower
 * CPU, as Lighthouse's phone; the layout shifts the browser reports must add up to (almost) nothing.
 * Before the fixes of docs/decisions/first-load-on-a-phone.md the task page moved by 0.254: the
 * web font re-wrapped its title (a build with `font-display: swap` again fails the first test with
 * 0.251). The teacher's home is held to the same rule; drawing its calendar before the agenda's
 * entries, on its own, did not make it fail here (its reads now arrive before the first render).
 * Such a first visit downloads no web font either: Inter only once the service worker has it.
 */

async function shiftsOfFirstLoad(page: Page, path: string): Promise<{ total: number; shifts: string[]; fonts: string[] }> {
  await page.setViewportSize(PHONE);
  await page.addInitScript(() => {
    const w = window as unknown as { __shifts: Array<{ value: number; node: string }> };
    w.__shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node?: Node | null }> }>) {
        if (e.hadRecentInput) continue;
        const node = e.sources?.[0]?.node;
        w.__shifts.push({ value: e.value, node: node instanceof Element ? node.outerHTML.slice(0, 100) : String(node?.nodeName ?? '') });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.clearBrowserCache');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  const fonts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'font') fonts.push(r.url());
  });
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: Array<{ value: number; node: string }> }).__shifts);
  return { total: shifts.reduce((n, s) => n + s.value, 0), shifts: shifts.map((s) => `${s.value.toFixed(3)} ${s.node}`), fonts };
}

test.describe('a first load on a slow phone does not move the screen', () => {
  test.setTimeout(120_000);

  test('the practice screen of a task (student)', async ({ page }) => {
    await loginAs(page, DEMO.students[0].email);
    const id = await page.evaluate(async () => {
      const r = await fetch('/api/submissions?order=work&limit=50', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
      const list = (await r.json()) as Array<{ id: number; status: string; exercise: { media_files: unknown[] } | null }>;
      const todo = list.filter((s) => s.status === 'open' || s.status === 'overdue');
      return (todo.find((s) => (s.exercise?.media_files.length ?? 0) > 0) ?? todo[0])?.id;
    });
    expect(id).toBeDefined();
    const { total, shifts, fonts } = await shiftsOfFirstLoad(page, `/submissions/${id}`);
    await expect(page.getByTestId('practice-region')).toBeVisible();
    expect(total, shifts.join('\n')).toBeLessThan(0.01);
    // A first visit (no service worker yet) loads no web font beside the app: the system font.
    expect(fonts).toEqual([]);
  });

  test("the teacher's home", async ({ page }) => {
    await loginAs(page, DEMO.teacher.email);
    const { total, shifts, fonts } = await shiftsOfFirstLoad(page, '/');
    await expect(page.getByTestId('teacher-agenda').getByTestId('agenda-day').first()).toBeVisible();
    expect(total, shifts.join('\n')).toBeLessThan(0.01);
    expect(fonts).toEqual([]);
  });
});

/**
 * A teacher known from the last visit on this device: the home's reads and its chunk start beside
 * GET /api/user instead of after it (one round trip less on a slow line), and none is asked twice.
 * (A remembered student's user is taken at once, without waiting for the answer: auth-store.ts.)
 */
test("a remembered teacher's home asks for its data and code before GET /api/user answers, and once", async ({ page }) => {
  await loginAs(page, DEMO.teacher.email);
  const asked: string[] = [];
  let userAnswered = false;
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith('/api/') || /\/assets\/teacher-dashboard-/.test(path)) asked.push(`${path}${userAnswered ? ' (after)' : ''}`);
  });
  // GET /api/user answers one second late: what the screen asks for meanwhile was asked without it.
  await page.route('**/api/user', async (route) => {
    await new Promise((r) => setTimeout(r, 1000));
    userAnswered = true;
    await route.continue();
  });
  await page.reload();
  await expect(page.getByTestId('teacher-agenda').getByTestId('agenda-day').first()).toBeVisible();
  const before = asked.filter((a) => !a.endsWith('(after)'));
  expect(before).toEqual(expect.arrayContaining(['/api/user', '/api/dashboard', '/api/calendar-events']));
  expect(before.some((a) => a.startsWith('/assets/teacher-dashboard-')), asked.join('\n')).toBe(true);
  expect(asked.filter((a) => a === '/api/dashboard' || a === '/api/dashboard (after)')).toHaveLength(1);
});

/**
 * The next screen's code is fetched when its link is pointed at or focused, before the click
 * (web/app/router.tsx, docs/decisions/react-dom-again.md): the screen then waits for its data only.
 */
test("a link's screen chunk is fetched when the link is pointed at or focused, before it is followed", async ({ page }) => {
  await loginAs(page, DEMO.students[0].email);
  await page.reload();
  const chunks: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/\/assets\/(submission-detail|submissions|tools)-/.test(path)) chunks.push(path.replace(/^\/assets\/([a-z-]+)-.*$/, '$1'));
  });
  const taskLink = page.locator('a[href^="/submissions/"]').first();
  await expect(taskLink).toBeVisible();
  expect(chunks).toEqual([]);
  await taskLink.hover();
  await expect.poll(() => chunks).toContain('submission-detail');
  // by keyboard: focusing the link to the tools is enough
  await page.locator('a[href="/tools"]').first().focus();
  await expect.poll(() => chunks).toContain('tools');
  expect(new URL(page.url()).pathname).toBe('/');
});

/**
 * docs/decisions/first-load-on-a-phone.md, "Few files" and "The service worker last": the practice
 * screen of a task needs few script files after the entry (on a phone's HTTP/1.1 line six go at a
 * time, one round trip each; it asked for seventeen before small shared modules went into the
 * shared chunks), and what nobody waits for at the start (the service worker's registration, which
 * fetches its code and then precaches the whole app; the navigation's unread count) is asked for
 * only after the screen's reads have answered (web/lib/first-screen.ts). The takes below the first
 * screen (their list, players, comments and the full recorder) load on the page's first scroll.
 */
test("the practice screen's first load: few script files; the service worker's code and the badge's count after the screen's reads", async ({ page: signIn }) => {
  await loginAs(signIn, DEMO.students[0].email);
  const id = await signIn.evaluate(async () => {
    const r = await fetch('/api/submissions?order=work&limit=50', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    const list = (await r.json()) as Array<{ id: number; status: string }>;
    return list.find((s) => s.status === 'open' || s.status === 'overdue')?.id;
  });
  expect(id).toBeDefined();
  // a page of its own: the signed-in home registers its service worker in its own time
  const page = await signIn.context().newPage();
  const scripts: string[] = [];
  const reads = new Map<string, number>();
  let registration: number | null = null;
  let badge: number | null = null;
  let takes: number | null = null;
  const t0 = Date.now();
  let taskAsked = 0;
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === `/api/submissions/${id}`) taskAsked += 1;
    if (path === '/api/conversations/unread' && badge === null) badge = Date.now() - t0;
    if (/^\/assets\/recordings-section-/.test(path) && takes === null) takes = Date.now() - t0;
    if (r.resourceType() === 'script' && path.startsWith('/assets/')) scripts.push(path);
    if (/^\/assets\/(pwa|workbox-window)[-.]/.test(path) && registration === null) registration = Date.now() - t0;
  });
  page.on('requestfinished', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) reads.set(url.pathname, Date.now() - t0);
  });
  // a phone, where the takes lie below the practice controls
  await page.setViewportSize(PHONE);
  await page.goto(`/submissions/${id}`);
  await expect(page.getByTestId('practice-region')).toBeVisible();
  await expect.poll(() => registration, { timeout: 15_000 }).not.toBeNull();
  await expect.poll(() => badge).not.toBeNull();
  // the screen's own reads, answered before the service worker's code and the navigation's unread count were asked for
  for (const read of [`/api/submissions/${id}`, `/api/submissions/${id}/recordings`, `/api/submissions/${id}/practice-sessions`]) {
    expect(reads.get(read), `${read} answered`).toBeDefined();
    expect(reads.get(read)!, `${read} before the service worker (${registration} ms)`).toBeLessThanOrEqual(registration!);
    expect(reads.get(read)!, `${read} before the unread count (${badge} ms)`).toBeLessThanOrEqual(badge!);
  }
  // the takes, their players and comments lie below the first screen: their code is not asked for
  // until the page is scrolled (or tabbed through), and then at once
  expect(takes, 'the takes\' code on the first load').toBeNull();
  await expect(page.getByTestId('recordings-place')).not.toBeInViewport();
  await page.mouse.wheel(0, 50);
  await expect.poll(() => takes).not.toBeNull();
  await expect(page.getByTestId('recordings')).toHaveCount(1);
  const beforeRegistration = scripts.filter((s) => !/\/(pwa|workbox-window)[-.]/.test(s));
  const screenFiles = beforeRegistration.filter((s) => !/\/(sync|outbox-senders|menu-dialog|score-zoom|tools-dock|run-recorder|recordings-section|recording-card|landing)-/.test(s));
  expect(screenFiles.length, screenFiles.join('\n')).toBeLessThanOrEqual(8);
  // whichever ran first on this fast line, the warm-up script or the app, the task was asked for once
  expect(taskAsked).toBe(1);
});

/**
 * The same on the teacher's home (web/lib/first-screen.ts): while one of the home's reads is still
 * on its way, the course list of the selector and the count of takes to review are not asked for.
 */
test("the teacher's home: the course list and the review badge's count wait for the home's reads", async ({ page: signIn }) => {
  await loginAs(signIn, DEMO.teacher.email);
  const page = await signIn.context().newPage();
  const asked: Array<{ path: string; at: number }> = [];
  let attentionAnswered = Number.POSITIVE_INFINITY;
  const t0 = Date.now();
  // the "needs attention" read answers 1.5 s late: the screen and its layout are drawn meanwhile
  await page.route('**/api/dashboard/attention**', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
    attentionAnswered = Date.now() - t0;
  });
  page.on('request', (r) => asked.push({ path: new URL(r.url()).pathname, at: Date.now() - t0 }));
  await page.goto('/');
  await expect(page.getByTestId('teacher-agenda').getByTestId('agenda-day').first()).toBeVisible();
  const firstAt = (path: string) => asked.find((a) => a.path === path)?.at;
  await expect.poll(() => firstAt('/api/courses') !== undefined && firstAt('/api/recordings/inbox/count') !== undefined).toBe(true);
  for (const later of ['/api/courses', '/api/recordings/inbox/count']) {
    expect(firstAt(later)!, `${later} asked after the held read answered (${attentionAnswered} ms)`).toBeGreaterThanOrEqual(attentionAnswered);
  }
});

/**
 * web/warm-up.js loads ICU's data (what the page's first date formatter needs) in a worker of its
 * own, /icu-warm.js, while the app's script is still on its way: same-origin scripts, which the CSP
 * allows (no inline script, no blob: worker).
 */
test("ICU's data is loaded in a worker started by the warm-up script, within the CSP", async ({ page }) => {
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  const warmUp = page.waitForResponse((r) => new URL(r.url()).pathname === '/warm-up.js');
  const worker = page.waitForEvent('worker', (w) => new URL(w.url()).pathname === '/icu-warm.js');
  const workerFile = page.waitForResponse((r) => new URL(r.url()).pathname === '/icu-warm.js');
  await page.goto('/login');
  expect((await warmUp).status()).toBe(200);
  expect((await workerFile).status()).toBe(200);
  await worker;
  await expect(page.locator('form')).toBeVisible();
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName('icu-warm').length)).toBe(1);
  expect(refused).toEqual([]);
});

/**
 * The app's script arrives as the build compressed it (vite.config.ts, precompress): Brotli at its
 * highest quality, not the server's quick on-the-fly compression (23 KB less on a phone's line).
 */
test("the app's script is sent as the build compressed it, with Brotli's highest quality", async ({ page, request }) => {
  await page.goto('/login');
  const entry = await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type=module][src^="/assets/"]')?.getAttribute('src'));
  expect(entry).toMatch(/^\/assets\/index-.*\.js$/);
  const res = await request.get(entry!, { headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
  expect(res.status()).toBe(200);
  expect(res.headers()['content-encoding']).toBe('br');
  const body = await res.body();
  const best = brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }).length;
  expect(Number(res.headers()['content-length'])).toBe(best);
});

/**
 * The warm-up script asks for the first screen's script files and reads (web/app/first-screens.ts)
 * while the app's script is still on its way: on a slow line the practice screen's chunk and the
 * task are on their way before the router, which needs the app's script, could ask for them; the
 * app takes the read over rather than asking twice. A guest's page asks for none.
 */
test("a signed-in student's task: the warm-up script asks for the screen's code and reads before the router runs, each once", async ({ page: signIn }) => {
  await loginAs(signIn, DEMO.students[0].email);
  const id = await signIn.evaluate(async () => {
    const r = await fetch('/api/submissions?order=work&limit=50', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await r.json()) as Array<{ id: number }>)[0]?.id;
  });
  expect(id).toBeDefined();
  const page = await signIn.context().newPage();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  const asked = new Map<string, number>();
  let taskReads = 0;
  const t0 = Date.now();
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === `/api/submissions/${id}`) taskReads += 1;
    const key = /^\/assets\/submission-detail-/.test(path) ? 'screen' : /^\/assets\/index-.*\.js$/.test(path) ? 'app' : path === `/api/submissions/${id}` ? 'task' : path === '/warm-up.js' ? 'warm-up' : null;
    if (key && !asked.has(key)) asked.set(key, Date.now() - t0);
  });
  let appArrived: number | null = null;
  page.on('requestfinished', (r) => {
    if (/^\/assets\/index-.*\.js$/.test(new URL(r.url()).pathname) && appArrived === null) appArrived = Date.now() - t0;
  });
  await page.goto(`/submissions/${id}`);
  await expect(page.getByTestId('practice-region')).toBeVisible({ timeout: 20_000 });
  expect(await page.locator('link[rel=modulepreload][href*="/assets/submission-detail-"]').count()).toBe(1);
  // asked for while the app's script was still arriving (the router could ask only after it has run)
  expect(appArrived).not.toBeNull();
  expect(asked.get('screen'), `${JSON.stringify([...asked])}, app's script arrived at ${appArrived} ms`).toBeLessThan(appArrived!);
  expect(asked.get('task'), `${JSON.stringify([...asked])}, app's script arrived at ${appArrived} ms`).toBeLessThan(appArrived!);
  // the app took the started read over instead of asking again
  expect(taskReads).toBe(1);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  const guest = await signIn.context().browser()!.newPage();
  await guest.goto('/login');
  await expect(guest.locator('form')).toBeVisible();
  // (the router's own preloads of the sign-in page's files, but not the signed-in layout's)
  expect(await guest.locator('link[rel=modulepreload][href*="/assets/main-layout-"]').count()).toBe(0);
  await guest.close();
});
