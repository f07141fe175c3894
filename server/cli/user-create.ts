import { eq, sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Db } from '../db/client';
import { schools, users } from '../db/schema/index';
import { hashPassword } from '../lib/passwords';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { readSecret } from './prompt';

const argsSchema = z.object({
  role: z.enum(['admin', 'teacher', 'student'], { message: '--role must be admin, teacher or student' }),
  school: z.string().trim().min(1, '--school must name a school').max(120).optional(),
  name: z.string({ message: '--name is required' }).trim().min(1, '--name is required').max(200),
  email: z.email({ message: '--email must be an e-mail address' }).max(254),
  password: z.string().optional(),
  teacher: z.email({ message: '--teacher must be the e-mail address of a teacher' }).optional(),
});

export const USER_CREATE_USAGE =
  'npm run cli -- user:create --role admin|teacher|student --name "Name" --email E [--password P] [--school "School"] [--teacher TEACHER_EMAIL]\n' +
  '  Asks for the password when --password is left out. An administrator (the first of a school) is made\n' +
  '  with --school naming the school; a new name creates the school. A teacher joins the school --school\n' +
  '  names (it may be left out when there is exactly one). A student belongs to a teacher: --teacher names\n' +
  '  that teacher (it may be left out when there is exactly one). Further teachers and parents are invited\n' +
  '  in the app by the administration.';

export function parseUserCreateArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      role: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      teacher: { type: 'string' },
      school: { type: 'string' },
    },
    strict: true,
  });
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) throw new Error(parsed.error.issues.map((i) => i.message).join('\n'));
  return parsed.data;
}

export async function userCreate(db: Db, argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const args = parseUserCreateArgs(argv);
  const email = args.email.trim();
  const clash = await db.select({ id: users.id }).from(users).where(eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (clash.length) throw new Error(`A user with the e-mail ${email} exists already.`);

  let teacherId: number | null = null;
  let schoolId: number | undefined;
  if (args.role === 'admin') {
    if (!args.school) throw new Error('--school is required for an administrator: it names the school (a new name creates it).');
    const [found] = await db.select({ id: schools.id }).from(schools).where(eq(schools.name, args.school)).limit(1);
    schoolId = found?.id ?? (await db.insert(schools).values({ name: args.school }).returning({ id: schools.id }))[0]!.id;
    if (!found) out(`Created school ${args.school} (id ${schoolId}).`);
  } else if (args.role === 'teacher') {
    const found = args.school
      ? await db.select({ id: schools.id }).from(schools).where(eq(schools.name, args.school))
      : await db.select({ id: schools.id }).from(schools).limit(2);
    if (args.school && !found.length) throw new Error(`No school named ${args.school}: create its administrator first (--role admin --school).`);
    if (!args.school && found.length !== 1)
      throw new Error(found.length ? 'There are several schools: name one with --school.' : 'Create the school first: --role admin --school "Name".');
    schoolId = found[0]!.id;
  }
  if (args.role === 'student') {
    const teachers = args.teacher
      ? await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${args.teacher.toLowerCase()} and ${users.role} = 'teacher'`)
      : await db.select({ id: users.id }).from(users).where(eq(users.role, 'teacher')).limit(2);
    if (args.teacher && !teachers.length) throw new Error(`No teacher with the e-mail ${args.teacher}.`);
    if (!args.teacher && teachers.length !== 1)
      throw new Error(teachers.length ? 'This school has several teachers: name one with --teacher E-MAIL.' : 'Create a teacher first: a student belongs to a teacher.');
    teacherId = teachers[0]!.id;
  }

  const password = args.password ?? (await readSecret('Password: '));
  if (password.length < PASSWORD_MIN_LENGTH) throw new Error(`The password must have at least ${PASSWORD_MIN_LENGTH} characters.`);
  const [row] = await db
    .insert(users)
    .values({ name: args.name, email, role: args.role, teacherId, ...(schoolId !== undefined ? { schoolId } : {}), passwordHash: await hashPassword(password) })
    .returning({ id: users.id });
  out(`Created ${args.role} ${args.name} <${email}> (id ${row!.id}).`);
  return row!.id;
}
