import { eq, sql } from 'drizzle-orm';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import type { Db } from '../db/client';
import { users } from '../db/schema/index';
import { hashPassword } from '../lib/passwords';
import { PASSWORD_MIN_LENGTH } from '../../contract/constants';
import { readSecret } from './prompt';

const argsSchema = z.object({
  role: z.enum(['teacher', 'student'], { message: '--role must be teacher or student' }),
  name: z.string({ message: '--name is required' }).trim().min(1, '--name is required').max(200),
  email: z.email({ message: '--email must be an e-mail address' }).max(254),
  password: z.string().optional(),
  teacher: z.email({ message: '--teacher must be the e-mail address of a teacher' }).optional(),
});

export const USER_CREATE_USAGE =
  'npm run cli -- user:create --role teacher|student --name "Name" --email E [--password P] [--teacher TEACHER_EMAIL]\n' +
  '  Asks for the password when --password is left out. A student belongs to a teacher: --teacher\n' +
  '  names that teacher (it may be left out when the school has exactly one teacher).';

export function parseUserCreateArgs(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      role: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      password: { type: 'string' },
      teacher: { type: 'string' },
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
    .values({ name: args.name, email, role: args.role, teacherId, passwordHash: await hashPassword(password) })
    .returning({ id: users.id });
  out(`Created ${args.role} ${args.name} <${email}> (id ${row!.id}).`);
  return row!.id;
}
