import { randomBytes } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { exercises, mediaFiles, users } from '../../db/schema/index';
import { LocalStorage, type Storage } from '../../lib/storage';
import { makePdf, staffPng } from './sample-files';

/**
 * Real attachments for three exercises of the demo school (lehrer@example.com), made in code and
 * written through the storage interface, so a task detail has pictures and a PDF to show.
 */
export async function seedDemoMedia(db: Db, media: string | Storage, teacherEmail = 'lehrer@example.com'): Promise<void> {
  const storage = typeof media === 'string' ? new LocalStorage(media) : media;
  const [teacher] = await db.select({ id: users.id }).from(users).where(eq(users.email, teacherEmail)).limit(1);
  if (!teacher) return;
  const wanted = ['Makam Rast – Tetrachorde', 'Lange Töne auf der Ney', 'Usul Sofyan und Düyek'];
  const rows = await db
    .select({ id: exercises.id, title: exercises.title })
    .from(exercises)
    .where(and(eq(exercises.teacherId, teacher.id), inArray(exercises.title, wanted)));
  const byTitle = new Map(rows.map((r) => [r.title, r.id]));
  const files: Array<{ title: string; filename: string; data: Buffer; type: 'image' | 'pdf'; mime: string; ext: string }> = [
    { title: wanted[0]!, filename: 'Rast-Dörtlü – Notenbild.png', data: staffPng(480, 200, [0, 1, 2, 3, 4, 3, 2, 1]), type: 'image', mime: 'image/png', ext: 'png' },
    {
      title: wanted[0]!,
      filename: 'Makam Rast – Übungsblatt.pdf',
      data: makePdf('Makam Rast - Tetrachorde', [
        'Rast-Dörtlü: Rast, Dügah, Segah, Çargah',
        'Rast-Beşli: Neva, Hüseyni, Eviç, Gerdaniye, Muhayyer',
        'Langsam spielen, jeden Ton vier Schläge halten.',
        'Auf die Segah-Intonation achten (etwas tiefer).',
      ]),
      type: 'pdf',
      mime: 'application/pdf',
      ext: 'pdf',
    },
    { title: wanted[1]!, filename: 'Lange Töne – Atemplan.png', data: staffPng(480, 200, [2, 2, 4, 4, 6, 6, 4, 2]), type: 'image', mime: 'image/png', ext: 'png' },
    {
      title: wanted[2]!,
      filename: 'Usul Sofyan und Düyek.pdf',
      data: makePdf('Usul: Sofyan (4/4) und Düyek (8/8)', ['Sofyan: düm – te – ke', 'Düyek: düm – tek – tek – düm – tek', 'Mit Metronom bei 80 beginnen.']),
      type: 'pdf',
      mime: 'application/pdf',
      ext: 'pdf',
    },
  ];
  for (const f of files) {
    const exerciseId = byTitle.get(f.title);
    if (!exerciseId) continue;
    const path = `exercises/${exerciseId}/media/${randomBytes(16).toString('hex')}.${f.ext}`;
    await storage.putBytes(path, f.data);
    await db.insert(mediaFiles).values({ exerciseId, type: f.type, path, filename: f.filename, size: f.data.length, mimeType: f.mime });
  }
}
