import type { Page } from '@playwright/test';
import { DEMO, PHONE, expect, loginAs, test } from './fixtures';

/**
 * Issue 14: a first load on a slow phone does not move what is already on screen. The page is
 * loaded with an empty browser cache over a throttled line (150 ms, 1.6 Mbit/s) and a 4× slower
 * CPU, as Lighthouse's phone; the layout shifts the browser reports must add up to (almost) nothing.
 * Before the fixes of docs/decisions/first-load-on-a-phone.md the task page moved by 0.254: the
 * web font re-wrapped its title (a build with `font-display: swap` again fails the first test with
 * 0.251). The teacher's home is held to the same rule; drawing its calendar before the agenda's
 * entries, on its own, did not make it fail here (its reads now arrive before the first render).
 */

async function shiftsOfFirstLoad(page: Page, path: string): Promise<{ total: number; shifts: string[] }> {
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
  await page.goto(path, { waitUntil: 'networkidle' });
  await page.waitForTimeout(1500);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: Array<{ value: number; node: string }> }).__shifts);
  return { total: shifts.reduce((n, s) => n + s.value, 0), shifts: shifts.map((s) => `${s.value.toFixed(3)} ${s.node}`) };
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
    const { total, shifts } = await shiftsOfFirstLoad(page, `/submissions/${id}`);
    await expect(page.getByTestId('practice-region')).toBeVisible();
    expect(total, shifts.join('\n')).toBeLessThan(0.01);
  });

  test("the teacher's home", async ({ page }) => {
    await loginAs(page, DEMO.teacher.email);
    const { total, shifts } = await shiftsOfFirstLoad(page, '/');
    await expect(page.getByTestId('teacher-agenda').getByTestId('agenda-day').first()).toBeVisible();
    expect(total, shifts.join('\n')).toBeLessThan(0.01);
  });
});
