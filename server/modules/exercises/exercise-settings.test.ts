import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { todayInZone } from '../../lib/time';

/** docs/decisions/exercise-settings.md "Exercises carry settings": tempo, meter with grouping, usul (and pattern), makam, durak. */
let t: TestApp;
let teacher: TestUser;
let today: string;
beforeAll(async () => {
  t = await setupTestApp();
  teacher = await t.teacher();
  today = todayInZone(t.deps.config.APP_TIMEZONE);
});
afterAll(async () => {
  await t.close();
});

async function send(user: TestUser, url: string, parts: Array<[string, string]>, query = '') {
  const fd = new FormData();
  for (const [k, v] of parts) fd.append(k, v);
  const res = new Response(fd);
  const payload = Buffer.from(await res.arrayBuffer());
  return t.app.inject({
    method: 'POST',
    url: url + query,
    payload,
    headers: { 'content-type': res.headers.get('content-type') ?? '', ...user.headers },
  });
}

const HICAZ: Array<[string, string]> = [
  ['title', 'Hicaz Peşrev'],
  ['tempo_bpm', '80'],
  ['usul', 'duyek'],
  ['usul_pattern', 'düm tek - tek düm - tek -'],
  ['makam', 'hicaz'],
  ['durak', '  Dügâh '],
];

describe('exercise settings on POST /api/exercises and POST /api/exercises/{id}', () => {
  it('stores and answers every setting (pattern normalised, meter canonical), and null when none is given', async () => {
    const res = await send(teacher, '/api/exercises', [...HICAZ, ['meter', ' 7 / 8 '], ['meter_grouping', '2 + 2 + 3']]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      title: 'Hicaz Peşrev',
      tempo_bpm: 80,
      meter: '7/8',
      meter_grouping: '2+2+3',
      usul: 'duyek',
      usul_pattern: ['dum', 'tek', 'rest', 'tek', 'dum', 'rest', 'tek', 'rest'],
      makam: 'hicaz',
      durak: 'Dügâh',
    });
    const plain = await send(teacher, '/api/exercises', [['title', 'Ohne Einstellungen']]);
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ tempo_bpm: null, tempo_unit: null, meter: null, meter_grouping: null, usul: null, usul_pattern: null, makam: null, durak: null });
    const list = await t.app.inject({ method: 'GET', url: '/api/exercises', headers: teacher.headers });
    expect(list.json().exercises.find((e: { id: number }) => e.id === res.json().id)).toMatchObject({ makam: 'hicaz', tempo_bpm: 80 });
  });

  it('stores the unit the tempo counts (♩. = 60 in 6/8), answers null without one (the meter\'s written unit), and keeps it on an update', async () => {
    const res = await send(teacher, '/api/exercises', [['title', 'Yürük'], ['tempo_bpm', '60'], ['tempo_unit', 'dotted-quarter'], ['meter', '6/8']]);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ tempo_bpm: 60, tempo_unit: 'dotted-quarter', meter: '6/8' });
    const got = await t.app.inject({ method: 'GET', url: `/api/exercises/${res.json().id}`, headers: teacher.headers });
    expect(got.json()).toMatchObject({ tempo_bpm: 60, tempo_unit: 'dotted-quarter' });
    const blank = await send(teacher, '/api/exercises', [['title', 'Aksak'], ['tempo_bpm', '80'], ['tempo_unit', ''], ['usul', 'aksak']]);
    expect(blank.json()).toMatchObject({ tempo_bpm: 80, tempo_unit: null, usul: 'aksak' });
    const changed = await send(teacher, `/api/exercises/${res.json().id}`, [['title', 'Yürük'], ['tempo_bpm', '180'], ['tempo_unit', 'eighth'], ['meter', '6/8']]);
    expect(changed.json()).toMatchObject({ tempo_bpm: 180, tempo_unit: 'eighth' });
    const cleared = await send(teacher, `/api/exercises/${res.json().id}`, [['title', 'Yürük'], ['tempo_bpm', '180'], ['meter', '6/8']]);
    expect(cleared.json()).toMatchObject({ tempo_bpm: 180, tempo_unit: null });
  });

  it('takes the pattern as repeated fields too', async () => {
    const res = await send(teacher, '/api/exercises', [
      ['title', 'Sofyan'],
      ['usul', 'sofyan'],
      ['usul_pattern[0]', 'dum'],
      ['usul_pattern[1]', 'tek'],
      ['usul_pattern[2]', 'tek'],
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().usul_pattern).toEqual(['dum', 'tek', 'tek']);
  });

  it.each([
    ['tempo_bpm', '19', 'Bitte geben Sie ein Tempo von 20 bis 300 BPM an (ganze Zahl).', 'Lütfen 20 ile 300 BPM arasında bir tempo girin (tam sayı).'],
    ['tempo_bpm', '301', 'Bitte geben Sie ein Tempo von 20 bis 300 BPM an (ganze Zahl).', 'Lütfen 20 ile 300 BPM arasında bir tempo girin (tam sayı).'],
    ['tempo_bpm', '80.5', 'Bitte geben Sie ein Tempo von 20 bis 300 BPM an (ganze Zahl).', 'Lütfen 20 ile 300 BPM arasında bir tempo girin (tam sayı).'],
    ['tempo_bpm', 'schnell', null, null],
    ['meter', '7/9', 'Bitte geben Sie eine Taktart wie 4/4 oder 7/8 an.', 'Lütfen 4/4 veya 7/8 gibi bir ölçü girin.'],
    ['meter', 'sieben', 'Bitte geben Sie eine Taktart wie 4/4 oder 7/8 an.', 'Lütfen 4/4 veya 7/8 gibi bir ölçü girin.'],
    ['meter', '0/4', 'Bitte geben Sie eine Taktart wie 4/4 oder 7/8 an.', 'Lütfen 4/4 veya 7/8 gibi bir ölçü girin.'],
    ['usul', 'samba', null, null],
    ['tempo_unit', 'crotchet', null, null],
    ['tempo_unit', 'Viertel', null, null],
    ['makam', 'ferahfeza', null, null], // a makam, but not one of the library's
    ['usul_pattern', 'dum tak', 'Erlaubt sind nur dum, tek und rest.', 'Yalnızca düm, tek ve es (rest) kullanılabilir.'],
    ['usul_pattern', Array(65).fill('dum').join(' '), null, null],
    ['durak', 'D'.repeat(41), null, null],
  ])('refuses %s = %j with 422 naming the field (German and Turkish)', async (field, value, de, tr) => {
    const res = await send(teacher, '/api/exercises', [['title', 'Falsch'], [field, value]]);
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    expect(Object.keys(errors)).toEqual([field]);
    if (de) expect(errors[field]).toEqual([de]);
    const resTr = await send(teacher, '/api/exercises', [['title', 'Falsch'], [field, value]], '?language=tr');
    const trErrors = resTr.json().errors as Record<string, string[]>;
    expect(Object.keys(trErrors)).toEqual([field]);
    if (tr) expect(trErrors[field]).toEqual([tr]);
    else expect(trErrors[field]![0]).not.toBe(errors[field]![0]);
  });

  it('checks the grouping against the meter: wrong sum, bad text, or no meter → 422 errors.meter_grouping', async () => {
    const sum = await send(teacher, '/api/exercises', [['title', 'x'], ['meter', '7/8'], ['meter_grouping', '2+2+2']]);
    expect(sum.statusCode).toBe(422);
    expect(sum.json().errors).toEqual({ meter_grouping: ['Die Gruppen müssen zusammen 7 Schläge ergeben.'] });
    const sumTr = await send(teacher, '/api/exercises', [['title', 'x'], ['meter', '7/8'], ['meter_grouping', '3+3']], '?language=tr');
    expect(sumTr.json().errors).toEqual({ meter_grouping: ['Grupların toplamı 7 vuruş olmalı.'] });
    const bad = await send(teacher, '/api/exercises', [['title', 'x'], ['meter', '7/8'], ['meter_grouping', '2-2-3']]);
    expect(bad.json().errors).toEqual({ meter_grouping: ['Bitte geben Sie die Gruppierung wie 2+2+3 an.'] });
    const alone = await send(teacher, '/api/exercises', [['title', 'x'], ['meter_grouping', '2+2+3']]);
    expect(alone.json().errors).toEqual({ meter_grouping: ['Eine Gruppierung braucht eine Taktart.'] });
  });

  it('an update replaces the settings like the other optional fields: a field left out or blank is cleared', async () => {
    const created = (await send(teacher, '/api/exercises', [...HICAZ, ['meter', '9/8'], ['meter_grouping', '2+2+2+3']])).json();
    const changed = await send(teacher, `/api/exercises/${created.id}`, [
      ['title', 'Hicaz Peşrev'],
      ['tempo_bpm', '96'],
      ['makam', 'hicaz'],
      ['durak', ''],
    ]);
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ tempo_bpm: 96, makam: 'hicaz', durak: null, usul: null, usul_pattern: null, meter: null, meter_grouping: null });
  });

  it("another teacher cannot change an exercise's settings (404) and does not see them", async () => {
    const created = (await send(teacher, '/api/exercises', HICAZ)).json();
    const other = await t.teacher();
    const res = await send(other, `/api/exercises/${created.id}`, [['title', 'Fremd'], ['tempo_bpm', '200']]);
    expect(res.statusCode).toBe(404);
    const mine = await t.app.inject({ method: 'GET', url: `/api/exercises/${created.id}`, headers: teacher.headers });
    expect(mine.json()).toMatchObject({ title: 'Hicaz Peşrev', tempo_bpm: 80 });
    const theirs = await t.app.inject({ method: 'GET', url: '/api/exercises', headers: other.headers });
    expect(theirs.json().exercises).toEqual([]);
  });

  it("the student sees the settings in the task's exercise (detail and list); the teacher too", async () => {
    const created = (await send(teacher, '/api/exercises', [...HICAZ, ['tempo_unit', 'quarter'], ['meter', '8/8'], ['meter_grouping', '3+3+2']])).json();
    const student = await t.student(teacher);
    const assigned = await t.app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: teacher.headers,
      payload: { exercise_id: created.id, due_date: today, assignees: { users: [student.id] } },
    });
    expect(assigned.statusCode).toBe(201);
    const settings = {
      tempo_bpm: 80,
      tempo_unit: 'quarter',
      meter: '8/8',
      meter_grouping: '3+3+2',
      usul: 'duyek',
      usul_pattern: ['dum', 'tek', 'rest', 'tek', 'dum', 'rest', 'tek', 'rest'],
      makam: 'hicaz',
      durak: 'Dügâh',
    };
    expect(assigned.json().submissions[0].exercise).toMatchObject(settings);
    const taskId = assigned.json().submissions[0].id as number;
    const detail = await t.app.inject({ method: 'GET', url: `/api/submissions/${taskId}`, headers: student.headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().exercise).toMatchObject(settings);
    const list = await t.app.inject({ method: 'GET', url: '/api/submissions', headers: student.headers });
    expect(list.json().find((s: { id: number }) => s.id === taskId).exercise).toMatchObject(settings);
    const teacherView = await t.app.inject({ method: 'GET', url: `/api/submissions/${taskId}`, headers: teacher.headers });
    expect(teacherView.json().exercise).toMatchObject({ makam: 'hicaz', usul: 'duyek', tempo_bpm: 80 });
    // a student cannot set them
    const asStudent = await send(student, '/api/exercises', HICAZ);
    expect(asStudent.statusCode).toBe(403);
  });

  it('documents the settings in the multipart form and the answers', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    const form = doc.components.schemas.ExerciseForm.properties;
    for (const k of ['tempo_bpm', 'tempo_unit', 'meter', 'meter_grouping', 'usul', 'usul_pattern', 'makam', 'durak']) {
      expect(form[k], k).toBeDefined();
      expect(doc.components.schemas.Exercise.properties[k], k).toBeDefined();
    }
  });
});
