import { chromium, type Page } from '@playwright/test';
import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, shot, test } from './fixtures';
import { fakeMicrophone, writeSineWav } from './fake-microphone';

/**
 * docs/decisions/practice-tools.md: the practice tools at /tools. The microphone is Chromium's fake device playing a sine
 * written here (one browser per tone: the file is a launch argument). The metronome's scheduled
 * clicks are read through window.__ukAudioTestHook (their AudioContext times and kinds).
 */

const A440 = writeSineWav('tools-a440', 440, 6);
// Bolahenk, A4 = 440 Hz: Dügâh (9 koma above Rast) is A4; Nevâ is 31, one koma above it 32.
const NEVA_PLUS_ONE = 440 * 2 ** ((32 - 9) / 53);
const NEVA_WAV = writeSineWav('tools-neva', NEVA_PLUS_ONE, 6);

const STUDENT = DEMO.students[3]; // Jonas Schmidt

async function openTools(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.__ukAudioTestHook = { clicks: [] };
  });
  await loginAs(page, STUDENT.email);
  await page.goto('/tools');
  await expect(page.getByRole('heading', { level: 1, name: 'Übungswerkzeuge' })).toBeVisible();
}

// The file's browser hears 440 Hz; the makam test launches a second one hearing Nevâ + 1 koma.
test.use(fakeMicrophone(A440));

test.describe('tuner and metronome with a 440 Hz microphone', () => {
  test.describe.configure({ timeout: 180_000 });

  test('the tuner shows A4 ± 2 cents; the metronome clicks evenly at 120 BPM and follows Aksak', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await openTools(page);
    // The navigation leads here.
    await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).first().getByRole('link', { name: 'Übungswerkzeuge' })).toBeVisible();
    for (const name of ['Metronom', 'Stimmgerät', 'Bordunton']) await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();

    // Tuner, Gleichstufig.
    const tuner = page.getByTestId('tool-tuner');
    await expect(tuner.getByRole('radio', { name: 'Gleichstufig' })).toHaveAttribute('aria-checked', 'true');
    await tuner.getByRole('button', { name: 'Start' }).click();
    await expect(tuner.getByTestId('tuner-note')).toHaveText('A4', { timeout: 15_000 });
    // Read the cents a few times: the display must stay within ±2 ct.
    const cents: number[] = [];
    for (let i = 0; i < 5; i++) {
      cents.push(Number(await tuner.getByTestId('tuner-cents').getAttribute('data-cents')));
      await page.waitForTimeout(200);
    }
    console.log(`tuner 440 Hz: cents ${cents.join(', ')}`);
    for (const c of cents) expect(Math.abs(c)).toBeLessThanOrEqual(2);
    await expect(tuner.getByTestId('tuner-cents')).toHaveText(/^[+−±][0-2] ct$/);
    await tuner.getByRole('button', { name: 'Stopp' }).click();

    // Metronome: 4/4 at 120 for 30 s of audio-clock time.
    const metro = page.getByTestId('tool-metronome');
    await metro.getByTestId('rhythm-select').selectOption('meter:4/4');
    await metro.getByTestId('tempo-input').fill('120');
    await metro.getByTestId('tempo-input').blur();
    await expect(metro.getByTestId('tempo-value')).toHaveText('120');
    await page.evaluate(() => (window.__ukAudioTestHook!.clicks = []));
    await metro.getByRole('button', { name: 'Start' }).click();
    await expect(metro.locator('[data-testid="beat-cell"][data-lit]')).toHaveCount(1, { timeout: 5000 });
    await page.waitForTimeout(31_000);
    await page.keyboard.press('Space'); // the space bar stops it (focus is not in a field)
    await expect(metro.getByRole('button', { name: 'Start' })).toBeVisible();
    const clicks = await page.evaluate(() => window.__ukAudioTestHook!.clicks.map((c) => ({ ...c })));
    const first = clicks[0]!.time;
    const within = clicks.filter((c) => c.time - first <= 30);
    expect(within.length).toBeGreaterThanOrEqual(60);
    const gaps = within.slice(1).map((c, i) => c.time - within[i]!.time);
    const worst = Math.max(...gaps.map((g) => Math.abs(g - 0.5)));
    const diag = await page.evaluate(() => ({ skipped: window.__ukAudioTestHook!.skipped, maxTickGap: window.__ukAudioTestHook!.maxTickGap }));
    console.log(`timer: longest gap between polls ${((diag.maxTickGap ?? 0) * 1000).toFixed(1)} ms, steps skipped ${diag.skipped ?? 0}`);
    console.log(`metronome 120 BPM: ${within.length} clicks over ${(within.at(-1)!.time - first).toFixed(3)} s, worst gap error ${(worst * 1000).toFixed(4)} ms`);
    const odd = within.slice(1).map((c, i) => ({ i, step: c.step, prev: within[i]!.step, gap: c.time - within[i]!.time, at: c.time - first })).filter((g) => Math.abs(g.gap - 0.5) > 0.001);
    if (odd.length) console.log('uneven gaps', JSON.stringify(odd), 'skipped', await page.evaluate(() => window.__ukAudioTestHook!.skipped));
    expect(worst).toBeLessThan(0.001);
    // Steps are consecutive (none dropped) and all accents in 4/4 (each beat its own group).
    within.forEach((c, i) => expect(c.step).toBe(within[0]!.step + i));

    // Aksak 9/8 (2+2+2+3): düm on 1 and 5, tek on 3, 4 and 7, rests elsewhere.
    await metro.getByTestId('rhythm-select').selectOption('usul:aksak');
    await expect(metro.getByTestId('beat-cell')).toHaveCount(9);
    await metro.getByTestId('tempo-input').fill('300');
    await metro.getByTestId('tempo-input').blur();
    await page.evaluate(() => (window.__ukAudioTestHook!.clicks = []));
    await metro.getByRole('button', { name: 'Start' }).click();
    await page.waitForTimeout(4500);
    await metro.getByRole('button', { name: 'Stopp' }).click();
    const aksak = await page.evaluate(() => window.__ukAudioTestHook!.clicks.map((c) => ({ ...c })));
    expect(aksak.length).toBeGreaterThanOrEqual(10);
    const byIndex = new Map(aksak.map((c) => [c.index, c.kind]));
    expect(Object.fromEntries(byIndex)).toEqual({ 0: 'dum', 2: 'tek', 3: 'tek', 4: 'dum', 6: 'tek' });
    for (const c of aksak) expect(c.step % 9).toBe(c.index);
    // On the grid of 0.2 s steps, as the pattern's group starts 0, 2, 4, 6 say.
    const a0 = aksak[0]!;
    for (const c of aksak) expect(Math.abs(c.time - a0.time - (c.step - a0.step) * 0.2)).toBeLessThan(0.001);

    // Editing the pattern: step 2 (rest) → düm.
    await metro.getByRole('button', { name: /^Schlag 2: –/ }).click();
    await expect(metro.getByRole('button', { name: /^Schlag 2: Düm/ })).toBeVisible();
    await expect(metro.getByRole('button', { name: 'Muster zurücksetzen' })).toBeVisible();
    await shot(page, 'tools', 'metronome-aksak-edited-de-desktop', { fullPage: false });

    await expectNoSeriousAxe(page);
    await eachLanguageAndSize(page, async (lang, size) => {
      await page.goto('/tools');
      await expect(page.getByTestId('tool-metronome').getByTestId('beat-cell').first()).toBeVisible();
      await expect(page.getByTestId('tool-drone').getByTestId('drone-toggle')).toBeVisible();
      if (size === 'phone') {
        await expect(page.getByTestId('bottom-tabs').getByRole('link', { name: lang === 'de' ? 'Werkzeuge' : 'Araçlar' })).toBeVisible();
        // Touch targets: the main buttons are at least 44 px high.
        for (const id of ['metronome-toggle', 'tuner-toggle', 'drone-toggle']) {
          const box = await page.getByTestId(id).boundingBox();
          expect(box!.height).toBeGreaterThanOrEqual(44);
        }
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, 'no horizontal scrolling at 390 px').toBeLessThanOrEqual(0);
      }
      await expectNoSeriousAxe(page);
      await shot(page, 'tools', `tools-${lang}-${size}`);
    });
  });
});

test.describe('tuner in makam mode', () => {
  test('a tone one koma above Nevâ shows Nevâ +1 koma; the drone plays with the metronome', async ({ baseURL }) => {
    const browser = await chromium.launch(fakeMicrophone(NEVA_WAV).launchOptions);
    test.info().setTimeout(120_000);
    const context = await browser.newContext({ baseURL, locale: 'de-DE', timezoneId: 'Europe/Berlin', viewport: PHONE });
    const page = await context.newPage();
    try {
      await makamJourney(page);
    } finally {
      await browser.close();
    }
  });
});

async function makamJourney(page: Page): Promise<void> {
  {
    await openTools(page);
    const tuner = page.getByTestId('tool-tuner');
    await tuner.getByRole('radio', { name: 'Makam' }).click();
    await tuner.getByTestId('makam-select').selectOption('hicaz');
    await expect(tuner.getByTestId('ahenk-select')).toHaveValue('bolahenk');
    await expect(tuner.getByTestId('a4-input')).toHaveValue('440');
    await tuner.getByRole('button', { name: 'Start' }).click();
    await expect(tuner.getByTestId('tuner-note')).toHaveText('Nevâ', { timeout: 15_000 });
    await expect(tuner.getByTestId('tuner-koma')).toHaveText('+1 koma');
    const koma: number[] = [];
    for (let i = 0; i < 5; i++) {
      koma.push(Number(await tuner.getByTestId('tuner-koma').getAttribute('data-koma')));
      await page.waitForTimeout(200);
    }
    console.log(`tuner ${NEVA_PLUS_ONE.toFixed(2)} Hz (Nevâ + 1 koma): koma ${koma.join(', ')}`);
    for (const k of koma) expect(Math.abs(k - 1)).toBeLessThanOrEqual(0.1);
    // Nevâ is a degree of Hicaz, but the played step (Nevâ + 1) is not: nothing lit.
    await expect(tuner.getByTestId('makam-scale').locator('[data-lit]')).toHaveCount(0);
    await shot(page, 'tools', 'tuner-makam-de-phone', { fullPage: false });
    await tuner.getByRole('button', { name: 'Stopp' }).click();

    // Drone and metronome together on the one AudioContext.
    await page.getByTestId('drone-toggle').click();
    await expect(page.getByTestId('drone-toggle')).toHaveText('Stopp');
    await page.getByTestId('rhythm-select').selectOption('usul:duyek');
    await page.getByTestId('metronome-toggle').click();
    await page.waitForTimeout(1500);
    await page.getByTestId('tool-metronome').scrollIntoViewIfNeeded();
    await expect(page.locator('[data-testid="beat-cell"][data-lit]')).toHaveCount(1);
    await shot(page, 'tools', 'metronome-duyek-running-de-phone', { fullPage: false });
    const clicks = await page.evaluate(() => window.__ukAudioTestHook!.clicks.length);
    expect(clicks).toBeGreaterThan(0);
    await page.getByTestId('metronome-toggle').click();
    await page.getByTestId('drone-toggle').click();
    await expectNoSeriousAxe(page);
  }
}
