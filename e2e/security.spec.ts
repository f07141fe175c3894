import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, expect, loginAs, test } from './fixtures';
import { staffPng } from '../server/modules/media/sample-files';

/**
 * Stored cross-site scripting: names, notes, descriptions, tags, file names and feedback holding
 * <script> and <img onerror> are created through the API and shown on every screen that displays
 * them, to the teacher and to the student. The payloads would set window.__xss and open a dialog:
 * neither happens, no payload element reaches the DOM, and the text shows literally.
 */
test.describe.configure({ timeout: 300_000 });
test.use({ actionTimeout: 30_000 });

const FLAG = '__xss';
const payload = (where: string) => [
  `<script>window.${FLAG}='${where}';alert('${where}')</script>`,
  `<img src=x onerror="window.${FLAG}='${where}';alert('${where}')">`,
  `"><svg onload="window.${FLAG}='${where}'">`,
];
const text = (where: string) => `${where} ${payload(where).join(' ')}`;
/** Fits name fields (120 characters): both kinds of payload. */
const short = (where: string) => `${where} <img src=x onerror="window.${FLAG}=1;alert(1)"><script>alert(2)</script>`;

type Created = { studentEmail: string; studentPassword: string; studentId: number; taskId: number; names: Record<NameKey, string> };
type NameKey = 'course' | 'courseDescription' | 'student' | 'notes' | 'phone' | 'exercise' | 'description' | 'target' | 'tag' | 'file' | 'note' | 'feedback';

async function api(request: APIRequestContext, email: string) {
  const res = await request.post('/api/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
  return { authorization: `Bearer ${(await res.json()).token as string}` };
}

async function createHostileSchool(request: APIRequestContext): Promise<Created> {
  const auth = await api(request, DEMO.teacher.email);
  const names = {
    course: short('Kurs'),
    courseDescription: text('Kursbeschreibung'),
    student: short('Schüler'),
    notes: text('Notizen'),
    phone: `<img src=x onerror="window.${FLAG}='phone'">`,
    exercise: short('Übung'),
    description: text('Beschreibung'),
    target: text('Ziel'),
    tag: `<img src=x onerror="window.${FLAG}='tag'">`,
    file: `<img src=x onerror="window.${FLAG}='file'">.png`,
    note: text('Notiz'),
    feedback: text('Feedback'),
  };
  const course = await request.post('/api/courses', { headers: auth, data: { name: names.course, description: names.courseDescription } });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = (await course.json()).id as number;
  const studentEmail = `xss-${Date.now()}@example.com`;
  const studentPassword = 'xss-passwort-1';
  const student = await request.post('/api/students', {
    headers: auth,
    data: { name: names.student, email: studentEmail, password: studentPassword, phone: names.phone, notes: names.notes, course_ids: [courseId] },
  });
  expect(student.status(), await student.text()).toBe(201);
  const studentId = (await student.json()).id as number;
  const exercise = await request.post('/api/exercises', {
    headers: auth,
    multipart: {
      title: names.exercise,
      description: names.description,
      target: names.target,
      category: 'tonbildung',
      difficulty: 'leicht',
      estimated_minutes: '10',
      'tags[0]': names.tag,
      'course_ids[0]': String(courseId),
      'media_files[0]': { name: names.file, mimeType: 'image/png', buffer: staffPng(60, 30) },
    },
  });
  expect(exercise.status(), await exercise.text()).toBe(201);
  const exerciseId = (await exercise.json()).id as number;
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const assigned = await request.post('/api/submissions', {
    headers: auth,
    data: { exercise_id: exerciseId, due_date: today, course_id: courseId, teacher_note: names.note, assignees: { users: [studentId] }, expiration_days: 5 },
  });
  expect(assigned.status(), await assigned.text()).toBe(201);
  const taskId = (await assigned.json()).submissions[0].id as number;
  const review = await request.patch(`/api/submissions/${taskId}/review`, {
    headers: auth,
    data: { accuracy_score: 70, competency_level: 'intermediate', teacher_feedback: names.feedback },
  });
  expect(review.status(), await review.text()).toBe(200);
  return { studentEmail, studentPassword, studentId, taskId, names };
}

/** Watches a page for any sign of a payload running or being parsed as HTML. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return {
    async expectClean(screen: string) {
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate((flag) => (window as unknown as Record<string, unknown>)[flag], FLAG), `${screen}: a payload ran`).toBeUndefined();
      expect(dialogs, `${screen}: a dialog opened`).toEqual([]);
      // no payload element made it into the DOM (so this holds even without the CSP)
      expect(await page.locator('img[src="x"], svg[onload], script:not([src])').count(), `${screen}: payload markup in the DOM`).toBe(0);
      const handlers = await page.evaluate((flag) => {
        const found: string[] = [];
        for (const el of Array.from(document.querySelectorAll('*')))
          for (const a of Array.from(el.attributes)) if (a.name.startsWith('on') && a.value.includes(flag)) found.push(`${el.tagName} ${a.name}`);
        return found;
      }, FLAG);
      expect(handlers, `${screen}: event-handler attributes from a payload`).toEqual([]);
    },
  };
}

test('stored <script> and <img onerror> render as text on every screen, for the teacher and the student', async ({ page, request }) => {
  const made = await createHostileSchool(request);
  const w = watch(page);

  await loginAs(page, DEMO.teacher.email);
  await w.expectClean('teacher dashboard');

  await page.goto('/students');
  await expect(page.getByText(made.names.student).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('students');

  await page.goto(`/students/${made.studentId}`);
  await expect(page.getByText(made.names.student).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('student dashboard (teacher)');

  await page.goto('/courses');
  await expect(page.getByText(made.names.course).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('courses');

  await page.goto('/exercises');
  await expect(page.getByText(made.names.exercise).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('exercises');

  await page.goto(`/submissions/${made.taskId}`);
  await expect(page.getByText(made.names.exercise).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('task detail (teacher)');

  // The student sees the exercise, the note, the feedback and the file name.
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, made.studentEmail, made.studentPassword);
  await w.expectClean('student dashboard');
  await page.goto('/submissions');
  await expect(page.getByText(made.names.exercise).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('task list');
  await page.goto(`/submissions/${made.taskId}`);
  await expect(page.getByText(made.names.description).filter({ visible: true }).first()).toBeVisible();
  await expect(page.getByText(made.names.note).filter({ visible: true }).first()).toBeVisible();
  await w.expectClean('task detail (student)');
});

test('the API answers JSON, never HTML, and media links refuse anything but stored files', async ({ request }) => {
  const auth = await api(request, DEMO.teacher.email);
  const res = await request.get('/api/students', { headers: auth });
  expect(res.headers()['content-type']).toMatch(/^application\/json/);
  expect(res.headers()['x-content-type-options']).toBe('nosniff');
  expect(res.headers()['content-security-policy']).toContain("script-src 'self'");
  for (const path of ['..%2F..%2Fapp-secret', '%2Fetc%2Fpasswd', 'exercises%2F1%2Fmedia%2F..%2F..%2F..%2Fserver.lock']) {
    const link = await request.get(`/api/media/${path}`, { headers: auth });
    expect(link.status(), path).toBe(404);
    const file = await request.get(`/api/media-file/${path}?exp=9999999999&sig=x`);
    expect([403, 404], path).toContain(file.status());
  }
});
