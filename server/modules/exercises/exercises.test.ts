import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { exercises, mediaFiles } from '../../db/schema/index';
import { makePdf, staffPng } from '../media/sample-files';

let t: TestApp;
let teacher: TestUser;
withTestApp(async (app) => {
  t = app;
  teacher = await app.teacher();
});

type Part = [string, string] | [string, Uint8Array, string, string?];
/** A real multipart body (FormData encoded by undici through Response) for app.inject. */
async function multipart(parts: Part[]) {
  const fd = new FormData();
  for (const p of parts) {
    if (typeof p[1] === 'string') fd.append(p[0], p[1]);
    else fd.append(p[0], new Blob([p[1] as Uint8Array<ArrayBuffer>], { type: p[3] ?? 'application/octet-stream' }), p[2]);
  }
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type') ?? '' } };
}

async function send(user: TestUser | null, url: string, parts: Part[], query = '') {
  const body = await multipart(parts);
  return t.app.inject({ method: 'POST', url: url + query, payload: body.payload, headers: { ...body.headers, ...(user?.headers ?? {}) } });
}

const png = staffPng(60, 30);
const pdf = makePdf('Übungsblatt', ['Rast']);

function mediaFilesOnDisk(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(join(d, e.name));
    }
  };
  walk(t.deps.mediaDir);
  return out;
}

describe('POST /api/exercises', () => {
  it('creates an exercise with every field, courses and two files stored under exercises/{id}/media', async () => {
    const course = await t.course(teacher);
    const res = await send(teacher, '/api/exercises', [
      ['title', '  Lange Töne  '],
      ['description', 'Atem ruhig halten'],
      ['category', 'makam'],
      ['difficulty', 'mittel'],
      ['target', 'Rast sicher'],
      ['estimated_minutes', '25'],
      ['priority', '4'],
      ['language', 'tr'],
      ['tags[0]', ' ney '],
      ['tags[1]', 'atem'],
      ['course_ids[0]', String(course.id)],
      ['media_files[0]', png, 'Noten/../blatt\u202e.png', 'image/png'],
      ['media_files[1]', pdf, 'Übungsblatt.pdf', 'application/pdf'],
    ]);
    expect(res.statusCode).toBe(201);
    const e = res.json();
    expect(e).toMatchObject({
      title: 'Lange Töne',
      description: 'Atem ruhig halten',
      category: 'makam',
      category_label: 'Makam',
      difficulty: 'mittel',
      target: 'Rast sicher',
      estimated_minutes: 25,
      priority: 4,
      language: 'tr',
      tags: ['ney', 'atem'],
      courses: [{ id: course.id, name: course.name }],
    });
    expect(e.media_files).toHaveLength(2);
    const [img, doc] = e.media_files;
    expect(img).toMatchObject({ type: 'image', mime_type: 'image/png', size: png.length, filename: 'blatt.png' });
    expect(doc).toMatchObject({ type: 'pdf', mime_type: 'application/pdf', size: pdf.length, filename: 'Übungsblatt.pdf' });
    expect(img.path).toMatch(new RegExp(`^exercises/${e.id}/media/[a-f0-9]{32}\\.png$`));
    expect((await t.readStored(img.path)).equals(png)).toBe(true);
    expect((await t.readStored(doc.path)).equals(pdf)).toBe(true);
    // nothing left in the temporary folder
    expect(readdirSync(join(t.deps.mediaDir, 'tmp'))).toEqual([]);
  });

  it('validates: title required, minutes at least 1, priority 1–5, known category, with errors per field (German and Turkish)', async () => {
    const res = await send(teacher, '/api/exercises', [
      ['title', '   '],
      ['estimated_minutes', '0'],
      ['priority', '9'],
      ['category', 'jazz'],
    ]);
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toBe('Bitte überprüfen Sie Ihre Eingaben');
    expect(Object.keys(body.errors).sort()).toEqual(['category', 'estimated_minutes', 'priority', 'title']);
    expect(body.errors.title[0]).toBe('Dieses Feld ist erforderlich.');
    const missing = await send(teacher, '/api/exercises', [['description', 'ohne Titel']]);
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.title).toEqual(['Dieses Feld ist erforderlich.']);
    const tr = await send(teacher, '/api/exercises', [['title', '']], '?language=tr');
    expect(tr.json().errors.title[0]).toBe('Bu alan zorunludur.');
  });

  it('rejects a PNG name on non-image bytes with 422 errors["media_files.0"], and stores nothing', async () => {
    const before = await t.db.select().from(exercises).where(eq(exercises.teacherId, teacher.id));
    const filesBefore = mediaFilesOnDisk().length;
    const res = await send(teacher, '/api/exercises', [
      ['title', 'Falsche Datei'],
      ['media_files[0]', Buffer.from('#!/bin/sh\necho this is not a picture\n'), 'bild.png', 'image/png'],
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['media_files.0'][0]).toContain('bild.png');
    const after = await t.db.select().from(exercises).where(eq(exercises.teacherId, teacher.id));
    expect(after.length).toBe(before.length);
    expect(mediaFilesOnDisk().length).toBe(filesBefore);
  });

  it('rejects an allowed-looking type that is not on the list (HTML named .pdf, a ZIP)', async () => {
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, ...Buffer.alloc(100)]);
    const res = await send(teacher, '/api/exercises', [
      ['title', 'Zip'],
      ['media_files[0]', png, 'ok.png', 'image/png'],
      ['media_files[1]', Buffer.from('<html><script>alert(1)</script></html>'), 'x.pdf', 'application/pdf'],
      ['media_files[2]', zip, 'x.webm', 'video/webm'],
    ]);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['media_files.1', 'media_files.2']);
    expect(readdirSync(join(t.deps.mediaDir, 'tmp'))).toEqual([]);
  });

  it('rejects a file over 20 MiB while streaming: 422, no row, no file left on disk', async () => {
    const title = `Zu groß ${Date.now()}`;
    const big = Buffer.concat([png, Buffer.alloc(21 * 1024 * 1024 - png.length, 7)]);
    const filesBefore = mediaFilesOnDisk();
    const res = await send(teacher, '/api/exercises', [
      ['title', title],
      ['media_files[0]', big, 'riesig.png', 'image/png'],
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['media_files.0'][0]).toBe('Datei riesig.png ist zu groß (max. 20MB)');
    expect(await t.db.select().from(exercises).where(eq(exercises.title, title))).toHaveLength(0);
    expect(mediaFilesOnDisk()).toEqual(filesBefore);
  });

  it('accepts a file of exactly 20 MiB', async () => {
    const exact = Buffer.concat([png, Buffer.alloc(20971520 - png.length, 0)]);
    const res = await send(teacher, '/api/exercises', [
      ['title', 'Genau 20 MiB'],
      ['media_files[0]', exact, 'genau.png', 'image/png'],
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().media_files[0].size).toBe(20971520);
  });

  it('an interrupted upload leaves no file and no row', async () => {
    const title = `Abgebrochen ${Date.now()}`;
    const body = await multipart([
      ['title', title],
      ['media_files[0]', Buffer.concat([png, Buffer.alloc(200000, 1)]), 'halb.png', 'image/png'],
    ]);
    const filesBefore = mediaFilesOnDisk();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/exercises',
      // the body stops in the middle of the file
      payload: body.payload.subarray(0, Math.floor(body.payload.length / 2)),
      headers: { ...body.headers, ...teacher.headers },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(await t.db.select().from(exercises).where(eq(exercises.title, title))).toHaveLength(0);
    expect(mediaFilesOnDisk()).toEqual(filesBefore);
  });

  it('a body cut off at any point leaves no temporary file behind, not even a moment later', async () => {
    // The temporary file is opened asynchronously: a body that breaks off before the open has
    // finished used to leave a .part file created after the cleanup ran.
    const body = await multipart([
      ['title', 'Abgeschnitten'],
      ['media_files[0]', Buffer.concat([png, Buffer.alloc(200000, 7)]), 'bild.png', 'image/png'],
    ]);
    const tmp = join(t.deps.mediaDir, 'tmp');
    const left: number[] = [];
    for (let i = 0; i < 60; i++) {
      const cut = Math.floor(body.payload.length * (0.2 + (i % 40) / 50));
      await t.app.inject({ method: 'POST', url: '/api/exercises', payload: body.payload.subarray(0, cut), headers: { ...body.headers, ...teacher.headers } });
      await new Promise((r) => setImmediate(r));
      if (existsSync(tmp) && readdirSync(tmp).length) left.push(cut);
    }
    expect(left).toEqual([]);
  });

  it('more than 10 files in one request: 422 saying how many may go at once (German and Turkish), nothing stored', async () => {
    const title = `Viele Dateien ${Date.now()}`;
    const filesBefore = mediaFilesOnDisk();
    const parts: Part[] = [['title', title]];
    for (let i = 0; i < 11; i++) parts.push([`media_files[${i}]`, png, `bild-${i}.png`, 'image/png']);
    const res = await send(teacher, '/api/exercises', parts);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.media_files[0]).toBe('Höchstens 10 Dateien auf einmal. Bitte speichern Sie und fügen Sie weitere danach hinzu.');
    const tr = await send(teacher, '/api/exercises', parts, '?language=tr');
    expect(tr.json().errors.media_files[0]).toBe('Tek seferde en fazla 10 dosya. Lütfen kaydedip kalanları sonra ekleyin.');
    expect(await t.db.select().from(exercises).where(eq(exercises.title, title))).toHaveLength(0);
    expect(mediaFilesOnDisk()).toEqual(filesBefore);
    const ten = await send(teacher, '/api/exercises', parts.slice(0, 11));
    expect(ten.statusCode).toBe(201);
    expect(ten.json().media_files).toHaveLength(10);
  });

  it('refuses a course of another teacher (422 errors["course_ids.0"])', async () => {
    const other = await t.teacher();
    const foreign = await t.course(other);
    const res = await send(teacher, '/api/exercises', [
      ['title', 'Fremder Kurs'],
      ['course_ids[0]', String(foreign.id)],
    ]);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors['course_ids.0']).toBeDefined();
  });

  it('answers 415 for a JSON body and checks the caller first: guest 401, student 403', async () => {
    const json = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: { title: 'x' }, headers: teacher.headers });
    expect(json.statusCode).toBe(415);
    const guest = await send(null, '/api/exercises', [['title', 'x']]);
    expect(guest.statusCode).toBe(401);
    const student = await t.student(teacher);
    const forbidden = await send(student, '/api/exercises', [['title', 'x']]);
    expect(forbidden.statusCode).toBe(403);
  });
});

describe('GET /api/exercises', () => {
  it("lists only the teacher's own live exercises, newest first, filters by course, paginates on request", async () => {
    const me = await t.teacher();
    const other = await t.teacher();
    const c1 = await t.course(me);
    const a = await t.exercise(me, { courseIds: [c1.id], createdAt: new Date(Date.now() - 3000) });
    const b = await t.exercise(me, { createdAt: new Date(Date.now() - 2000) });
    const gone = await t.exercise(me, { deletedAt: new Date() });
    await t.exercise(other);
    const all = await t.app.inject({ method: 'GET', url: '/api/exercises', headers: me.headers });
    expect(all.statusCode).toBe(200);
    expect(all.json().exercises.map((e: { id: number }) => e.id)).toEqual([b.id, a.id]);
    expect(all.json().pagination).toEqual({ total: 2, current_page: 1, per_page: 2, last_page: 1 });
    expect(all.json().exercises.some((e: { id: number }) => e.id === gone.id)).toBe(false);
    const filtered = await t.app.inject({ method: 'GET', url: `/api/exercises?course_id=${c1.id}`, headers: me.headers });
    expect(filtered.json().exercises.map((e: { id: number }) => e.id)).toEqual([a.id]);
    const page2 = await t.app.inject({ method: 'GET', url: '/api/exercises?page=2&per_page=1', headers: me.headers });
    expect(page2.json().exercises.map((e: { id: number }) => e.id)).toEqual([a.id]);
    expect(page2.json().pagination).toEqual({ total: 2, current_page: 2, per_page: 1, last_page: 2 });
    const labelTr = await t.app.inject({ method: 'GET', url: '/api/exercises?language=tr', headers: me.headers });
    expect(labelTr.json().exercises[0].category_label).toBe('Ses Oluşumu');
  });

  it('guest 401, student 403', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/exercises' })).statusCode).toBe(401);
    const s = await t.student(teacher);
    expect((await t.app.inject({ method: 'GET', url: '/api/exercises', headers: s.headers })).statusCode).toBe(403);
  });
});

describe('POST /api/exercises/{id} (update) and DELETE', () => {
  it('updates fields, keeps existing media, adds new ones and removes those in remove_media (file deleted)', async () => {
    const created = await send(teacher, '/api/exercises', [
      ['title', 'Vorher'],
      ['media_files[0]', png, 'a.png', 'image/png'],
      ['media_files[1]', pdf, 'b.pdf', 'application/pdf'],
    ]);
    const e = created.json();
    const [keep, drop] = e.media_files;
    const res = await send(teacher, `/api/exercises/${e.id}`, [
      ['title', 'Nachher'],
      ['category', 'tonbildung'],
      ['remove_media[0]', String(drop.id)],
      ['media_files[0]', staffPng(20, 20), 'neu.png', 'image/png'],
    ]);
    expect(res.statusCode).toBe(200);
    const u = res.json();
    expect(u.title).toBe('Nachher');
    expect(u.media_files.map((m: { filename: string }) => m.filename)).toEqual(['a.png', 'neu.png']);
    expect(u.media_files[0].id).toBe(keep.id);
    expect(await t.stored(drop.path)).toBe(false);
    expect(await t.stored(keep.path)).toBe(true);
  });

  it("another teacher's exercise: 404 for update (no file kept) and delete; a foreign media id in remove_media: 422", async () => {
    const other = await t.teacher();
    const foreign = await t.exercise(other);
    const filesBefore = mediaFilesOnDisk();
    const upd = await send(teacher, `/api/exercises/${foreign.id}`, [
      ['title', 'Gekapert'],
      ['media_files[0]', png, 'a.png', 'image/png'],
    ]);
    expect(upd.statusCode).toBe(404);
    expect(mediaFilesOnDisk()).toEqual(filesBefore);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/exercises/${foreign.id}`, headers: teacher.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/exercises/999999', headers: teacher.headers })).statusCode).toBe(404);

    const theirs = await send(other, '/api/exercises', [['title', 'Fremd'], ['media_files[0]', png, 'f.png', 'image/png']]);
    const mine = await t.exercise(teacher);
    const steal = await send(teacher, `/api/exercises/${mine.id}`, [
      ['title', 'x'],
      ['remove_media[0]', String(theirs.json().media_files[0].id)],
    ]);
    expect(steal.statusCode).toBe(422);
    expect(steal.json().errors['remove_media.0']).toBeDefined();
    const still = await t.db.select().from(mediaFiles).where(eq(mediaFiles.id, theirs.json().media_files[0].id));
    expect(still).toHaveLength(1);
  });

  it('soft-deletes: gone from the list, the task keeps title, description and media', async () => {
    const created = await send(teacher, '/api/exercises', [
      ['title', 'Wird gelöscht'],
      ['description', 'Beschreibung bleibt'],
      ['media_files[0]', png, 'bleibt.png', 'image/png'],
    ]);
    const e = created.json();
    const student = await t.student(teacher);
    const sub = await t.submission(student, teacher, e);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/exercises/${e.id}`, headers: teacher.headers });
    expect(del.statusCode).toBe(204);
    const list = await t.app.inject({ method: 'GET', url: '/api/exercises', headers: teacher.headers });
    expect(list.json().exercises.some((x: { id: number }) => x.id === e.id)).toBe(false);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/exercises/${e.id}`, headers: teacher.headers })).statusCode).toBe(404);
    const detail = await t.app.inject({ method: 'GET', url: `/api/submissions/${sub.id}`, headers: student.headers });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().exercise_title).toBe('Wird gelöscht');
    expect(detail.json().exercise.description).toBe('Beschreibung bleibt');
    expect(detail.json().exercise.media_files).toHaveLength(1);
    expect(await t.stored(e.media_files[0].path)).toBe(true);
    // the student can still get a link to the media of the deleted exercise
    const link = await t.app.inject({ method: 'GET', url: `/api/media/${encodeURIComponent(e.media_files[0].path)}`, headers: student.headers });
    expect(link.statusCode).toBe(200);
  });
});

describe('GET /api/exercise-categories', () => {
  it('answers the nine keys in German and Turkish for any signed-in user', async () => {
    const de = await t.app.inject({ method: 'GET', url: '/api/exercise-categories?language=de', headers: teacher.headers });
    expect(de.statusCode).toBe(200);
    expect(Object.keys(de.json())).toEqual([
      'atem_kontrolle', 'tonbildung', 'noten_finger', 'haltung_technik', 'rhythmus_tempo',
      'makam', 'hoer_nachspiel', 'theorie_reflexion', 'kombinationen',
    ]);
    expect(de.json().makam).toBe('Makam');
    expect(de.json().atem_kontrolle).toBe('Atem & Kontrolle');
    const student = await t.student(teacher);
    const tr = await t.app.inject({ method: 'GET', url: '/api/exercise-categories?language=tr', headers: student.headers });
    expect(tr.json().rhythmus_tempo).toBe('Ritim ve Tempo');
    expect(tr.json().makam).toBe('Makam');
    expect((await t.app.inject({ method: 'GET', url: '/api/exercise-categories' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/exercise-categories?language=fr', headers: teacher.headers })).statusCode).toBe(422);
  });
});

describe('OpenAPI', () => {
  it('documents the exercise calls (multipart form included) and the signed-file route with its binary answers and 416', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    const paths = res.json().paths as Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>>;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/api/exercises', '/api/exercises/{id}', '/api/exercise-categories', '/api/media/{*}']));
    expect(Object.keys(paths['/api/exercises']?.post?.requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    const file = (paths['/api/media-file/{*}'] as Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }> | undefined)?.get;
    expect(Object.keys(file?.responses ?? {})).toEqual(expect.arrayContaining(['200', '206', '403', '404', '416']));
    expect(Object.keys(file?.responses['200']?.content ?? {})).toEqual(expect.arrayContaining(['image/png', 'application/pdf', 'video/mp4']));
  });
});
