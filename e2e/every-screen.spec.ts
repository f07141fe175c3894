import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, DEMO, DESKTOP, expect, expectNoSeriousAxe, loginAs, PHONE, setLanguage, shot, test } from './fixtures';

/**
 * Every screen of every role (guest, teacher, student, parent, school administration) in German and
 * Turkish, at 390 px and at 1280 px: axe's default rule set finds nothing serious (among them
 * `label-content-name-mismatch`, WCAG 2.5.3: the accessible name contains the visible text), and
 * on the phone the page never scrolls sideways (docs/decisions/label-in-name-and-phone-width.md). A student, a parent
 * and an invitation with very long names and e-mail addresses are made first, so that the lists,
 * cards and headers that show them are tested with the worst case. EVERY_SCREEN_SHOTS=1 saves
 * full-page screenshots under e2e/screenshots/every-screen.
 */

const uniq = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const LONG_STUDENT = {
  name: `Kunigunde-Maximiliane Leutheusser-Schnarrenberger-Oberhollenzer ${uniq}`,
  email: `kunigunde.maximiliane.leutheusser-schnarrenberger.${uniq}@musikschule-am-stadtrand-von-mönchengladbach.example.com`.replace('ö', 'oe'),
  password: 'lange-namen-1234',
};
const LONG_PARENT = {
  name: `Friedrich-Wilhelm Leutheusser-Schnarrenberger-Oberhollenzer ${uniq}`,
  email: `friedrich-wilhelm.leutheusser-schnarrenberger.${uniq}@elternvertretung-musikschule-moenchengladbach.example.com`,
  password: 'eltern-lang-1234',
};
const LONG_INVITED = {
  name: `Hildegard-Josephine Leutheusser-Schnarrenberger ${uniq}`,
  email: `hildegard-josephine.leutheusser-schnarrenberger.${uniq}@elternvertretung-musikschule-moenchengladbach.example.com`,
};
const ADMIN_EMAIL = 'verwaltung@example.com';
const GUARDIAN_EMAIL = 'eltern@example.com';

type Setup = { studentId: number; taskId: number; openInviteToken: string };
let setup: Setup;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });


const berlinToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());
const tokenOfUrl = (url: string) => new URL(url).pathname.split('/').pop() ?? '';

/** The long-named student with a task due today (agenda, calendar, lists), a parent who has accepted and one invitation left open. */
async function makeLongNames(request: APIRequestContext): Promise<Setup> {
  const teacher = bearer(await apiToken(request, DEMO.teacher.email));
  const made = await request.post('/api/students', { headers: teacher, data: LONG_STUDENT });
  expect(made.status(), await made.text()).toBe(201);
  const studentId = ((await made.json()) as { id: number }).id;

  const courses = (await (await request.get('/api/courses', { headers: teacher })).json()) as Array<{ id: number }>;
  const enrol = await request.put(`/api/students/${studentId}/courses`, { headers: teacher, data: { course_ids: courses.map((c) => c.id) } });
  expect(enrol.ok(), await enrol.text()).toBe(true);

  // An exercise whose description is one long unbroken address: cards and the task must wrap it.
  const long = await request.post('/api/exercises', {
    headers: teacher,
    multipart: {
      title: `Notenblatt ${uniq}`,
      description: `https://www.musikschuleamstadtrand.example.com/noten/tonleitern/hicaz/uebung${uniq}/seite1bis12ohneleerzeichen.pdf`,
      category: 'tonbildung',
      difficulty: 'leicht',
      estimated_minutes: '5',
      priority: '3',
      language: 'de',
    },
  });
  expect(long.status(), await long.text()).toBe(201);
  const exercises = (await (await request.get('/api/exercises', { headers: teacher })).json()) as { exercises: Array<{ id: number }> };
  const exercise = exercises.exercises[0];
  if (!exercise) throw new Error('the demo teacher has no exercise');
  const task = await request.post('/api/submissions', {
    headers: teacher,
    data: { exercise_id: exercise.id, due_date: berlinToday(), assignees: { users: [studentId] }, teacher_note: 'Langsam und gleichmäßig.' },
  });
  expect(task.status(), await task.text()).toBe(201);
  const taskId = ((await task.json()) as { submissions: Array<{ id: number }> }).submissions[0]?.id;
  if (!taskId) throw new Error('no task made');

  const invite = async (who: { name: string; email: string }) => {
    const res = await request.post(`/api/students/${studentId}/guardians`, { headers: teacher, data: { name: who.name, email: who.email } });
    expect(res.status(), await res.text()).toBe(201);
    const url = ((await res.json()) as { invite: { url: string } | null }).invite?.url;
    if (!url) throw new Error('no invitation link');
    return tokenOfUrl(url);
  };
  const parentToken = await invite(LONG_PARENT);
  const accepted = await request.post(`/api/invites/${parentToken}/accept`, { data: { password: LONG_PARENT.password } });
  expect(accepted.status(), await accepted.text()).toBe(200);
  const openInviteToken = await invite(LONG_INVITED);

  // Their conversation at its widest (docs/decisions/messages.md): a pinned lesson note, the
  // teacher's message with one long unbroken address and a link to the task, the parent's message
  // under the long name.
  const write = async (headers: Record<string, string>, body: string, kind: 'message' | 'lesson_note' = 'message', link: { task_id: number } | null = null) => {
    const res = await request.post(`/api/conversations/${studentId}/messages`, {
      headers,
      data: { body, kind, link: link && { task_id: link.task_id, recording_id: null, at_ms: null } },
    });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { id: number }).id;
  };
  const note = await write(teacher, 'Heute: lange Töne auf Rast, dann die Etüde langsam. Bis Dienstag täglich zehn Minuten.', 'lesson_note');
  const pinned = await request.patch(`/api/messages/${note}`, { headers: teacher, data: { pinned: true } });
  expect(pinned.ok(), await pinned.text()).toBe(true);
  await write(teacher, `Die Noten liegen hier: https://www.musikschuleamstadtrand.example.com/noten/tonleitern/hicaz/uebung${uniq}/seite1bis12ohneleerzeichen.pdf`, 'message', { task_id: taskId });
  await write(bearer(await apiToken(request, LONG_PARENT.email, LONG_PARENT.password)), 'Danke, wir üben jeden Abend.');
  return { studentId, taskId, openInviteToken };
}

/** What each role opens: every route of web/app/router.tsx that the role may see. */
function screensOf(role: 'teacher' | 'student' | 'guardian' | 'demoGuardian' | 'admin'): string[] {
  const { studentId, taskId } = setup;
  switch (role) {
    case 'teacher':
      return [
        '/',
        '/students',
        `/students/${studentId}`,
        `/students/${studentId}/report`,
        '/courses',
        '/exercises',
        '/review',
        `/submissions/${taskId}`,
        '/tools',
        '/nachrichten',
        `/nachrichten/${studentId}`,
      ];
    case 'student':
      // /nachrichten: straight to the student's own conversation
      return ['/', '/submissions', `/submissions/${taskId}`, '/tools', '/benachrichtigungen', '/nachrichten'];
    case 'guardian':
      return ['/', `/children/${studentId}`, '/tools', '/benachrichtigungen', '/nachrichten'];
    case 'demoGuardian':
      return ['/', '/nachrichten'];
    case 'admin':
      // the dashboard with the card of the messages' retention
      return ['/', '/school/teachers', '/school/students', '/school/audit', '/tools'];
  }
}

/**
 * Counts the page's requests under way from the moment it is called (before the first screen is
 * opened). `quiet()` waits until none has been under way for `quietMs`: the screen's reads have
 * answered and no chunk is loading. Playwright's `networkidle` waits a fixed 500 ms after the last
 * one and only once per load; with about 150 checks it was a third of this file's time.
 */
function requestsOf(page: Page): { quiet: (quietMs?: number) => Promise<void> } {
  let underWay = 0;
  let last = Date.now();
  const started = () => {
    underWay += 1;
    last = Date.now();
  };
  const ended = () => {
    underWay = Math.max(0, underWay - 1);
    last = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    quiet: async (quietMs = 150) => {
      const until = Date.now() + 15_000;
      while (underWay > 0 || Date.now() - last < quietMs) {
        if (Date.now() > until) throw new Error(`${underWay} request(s) of ${page.url()} still under way after 15 s`);
        await page.waitForTimeout(25);
      }
    },
  };
}

/**
 * Waits for the screen's data: no request under way, no skeleton or spinner left. Scrolls down and
 * back in steps of 700 px, a frame apart, so that what draws when scrolled near (charts, the
 * calendar) is asked for and drawn too.
 */
async function ready(page: Page, requests: ReturnType<typeof requestsOf>): Promise<void> {
  await requests.quiet();
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    for (let y = 0; y < document.documentElement.scrollHeight; y += 700) {
      window.scrollTo(0, y);
      await frame();
    }
    window.scrollTo(0, 0);
    await frame();
  });
  await requests.quiet();
  await expect(page.locator('[aria-busy="true"], [data-testid$="skeleton"], [data-testid$="-loading"]')).toHaveCount(0);
}

/** The innermost elements that stick out on the right, for the failure message. */
async function sticksOut(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= width + 0.5) continue;
      if (Array.from(el.children).some((c) => c.getBoundingClientRect().right > width + 0.5)) continue;
      const cls = typeof el.className === 'string' ? el.className.split(' ').slice(0, 6).join('.') : '';
      out.push(`${el.tagName.toLowerCase()}.${cls} right=${Math.round(r.right)} "${(el.textContent ?? '').trim().slice(0, 50)}"`);
    }
    return out.slice(0, 12);
  });
}

/**
 * One screen: opened at 390 px, no sideways scroll and axe clean; then the same page widened to
 * 1280 px (as a tablet turned, without a reload: the other specs open their screens at that size),
 * axe clean.
 */
async function checkScreen(page: Page, requests: ReturnType<typeof requestsOf>, path: string, label: string, lang: 'de' | 'tr'): Promise<void> {
  await page.setViewportSize(PHONE);
  await page.goto(path);
  for (const [size, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    await page.setViewportSize(viewport);
    await ready(page, requests);
    await test.step(`${label} ${path} ${lang} ${size}`, async () => {
      if (size === 'phone') {
        const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
        expect.soft(scrollWidth, `${path} (${lang}) scrolls sideways at 390 px:\n${(await sticksOut(page)).join('\n')}`).toBeLessThanOrEqual(PHONE.width);
      }
      await expectNoSeriousAxe(page, undefined, { soft: true });
      if (process.env.EVERY_SCREEN_SHOTS) {
        const name = `${label}${path.replace(/\/\d+/g, '-id').replace(/\//g, '-')}-${lang}-${viewport.width}`.replace(/-+$/, '');
        await shot(page, 'every-screen', name);
      }
    });
  }
}

async function checkRole(page: Page, label: string, paths: string[]): Promise<void> {
  const requests = requestsOf(page);
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(page, lang);
    for (const path of paths) await checkScreen(page, requests, path, label, lang);
  }
}

test.describe('every screen of every role: axe clean and no sideways scroll on a phone', () => {
  // Up to 11 screens x 2 languages x 2 sizes, each waited for, scrolled through and checked.
  test.describe.configure({ timeout: 10 * 60_000 });
  test.beforeAll(async ({ playwright }, info) => {
    const request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
    setup = await makeLongNames(request);
    await request.dispose();
  });

  test('guest: the sign-in page, an invitation with a long name and address, and Passwort vergessen', async ({ page }) => {
    await checkRole(page, 'guest', ['/login', `/einladung/${setup.openInviteToken}`, '/passwort-vergessen']);
  });

  test('teacher', async ({ page }) => {
    await loginAs(page, DEMO.teacher.email);
    await checkRole(page, 'teacher', screensOf('teacher'));
  });

  test('student with a long name and e-mail address', async ({ page }) => {
    await loginAs(page, LONG_STUDENT.email, LONG_STUDENT.password);
    await checkRole(page, 'student', screensOf('student'));
  });

  test('a demo student', async ({ page }) => {
    await loginAs(page, DEMO.students[0].email);
    await checkRole(page, 'demo-student', ['/', '/submissions', '/tools', '/nachrichten']);
  });

  test('parent with a long name, following the long-named student', async ({ page }) => {
    await loginAs(page, LONG_PARENT.email, LONG_PARENT.password);
    await checkRole(page, 'guardian', screensOf('guardian'));
  });

  test('the demo parent', async ({ page }) => {
    await loginAs(page, GUARDIAN_EMAIL);
    await checkRole(page, 'demo-guardian', screensOf('demoGuardian'));
  });

  test('school administration', async ({ page }) => {
    await loginAs(page, ADMIN_EMAIL);
    await expect(page.getByTestId('message-retention').getByLabel('Aufbewahrungsdauer (Tage)')).toHaveValue('365');
    await checkRole(page, 'admin', screensOf('admin'));
  });
});
