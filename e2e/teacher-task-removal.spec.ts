import type { APIRequestContext } from '@playwright/test';
import { DEMO, DEMO_PASSWORD, expect, loginAs, shot, test } from './fixtures';

test.describe.configure({ timeout: 180_000 });

async function auth(request: APIRequestContext, email: string) {
  const res = await request.post('/api/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
  return { authorization: `Bearer ${(await res.json()).token}` };
}

const addDays = (date: string, n: number) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

test('a teacher undoes a wrong repetition from one task on, after confirming', async ({ page, request }) => {
  const teacher = await auth(request, DEMO.teacher.email);
  const students = (await (await request.get('/api/students', { headers: teacher })).json()).data as { id: number; email: string }[];
  const ids = students.filter((s) => s.email === DEMO.students[1].email || s.email === DEMO.students[3].email).map((s) => s.id);
  const exercises = (await (await request.get('/api/exercises', { headers: teacher })).json()).exercises as { id: number }[];
  const start = addDays(new Date().toISOString().slice(0, 10), 3);
  const created = await request.post('/api/submissions', {
    headers: teacher,
    data: { exercise_id: exercises[0]!.id, due_date: start, assignees: { users: ids }, recurrence_type: 'daily', recurrence_end_date: addDays(start, 9), expiration_days: 2 },
  });
  expect(created.status(), await created.text()).toBe(201);
  const rows = (await created.json()).submissions as { id: number; due_date: string; series_id: string; student: { id: number } }[];
  expect(rows).toHaveLength(20);
  const fromHere = rows.find((r) => r.due_date === addDays(start, 4) && r.student.id === ids[0])!;

  await loginAs(page, DEMO.teacher.email);
  await page.goto(`/submissions/${fromHere.id}`);
  await expect(page.getByRole('heading', { name: 'Aufgabe entfernen' })).toBeVisible();
  await shot(page, 'tasks', 'teacher-remove-de-desktop');

  // Cancelling changes nothing.
  await page.getByRole('button', { name: 'Serie ab hier löschen' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('noch nicht erledigten Aufgaben dieser Serie');
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('button', { name: 'Serie ab hier löschen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Serie ab hier löschen' }).click();
  await expect(page.getByText(/Serie ab dem .* gelöscht\./)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/students/${ids[0]}$`));

  // Both students keep the four days before; the six days from that date on are gone for both.
  const left = (await (await request.get(`/api/submissions?from=${start}&to=${addDays(start, 9)}`, { headers: teacher })).json()) as { series_id: string; due_date: string }[];
  const series = left.filter((r) => r.series_id === fromHere.series_id);
  expect(series).toHaveLength(8);
  expect(series.every((r) => r.due_date < fromHere.due_date)).toBe(true);
});
