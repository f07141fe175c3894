import { describe, expect, it } from 'vitest';
import { withTestApp, type TestApp } from '../test/test-app';
import { userCreate } from './user-create';

let t: TestApp;
withTestApp((app) => {
  t = app;
});

describe('cli user:create', () => {
  it("creates a school's first administrator, a teacher and a student who can sign in", async () => {
    const lines: string[] = [];
    await userCreate(t.db, ['--role', 'admin', '--name', 'Cli Verwaltung', '--email', 'cli-admin@example.test', '--password', 'geheim789', '--school', 'Cli Musikschule'], (l) => lines.push(l));
    expect(lines[0]).toMatch(/Created school Cli Musikschule/);
    await userCreate(t.db, ['--role', 'teacher', '--name', 'Cli Lehrerin', '--email', 'cli-teacher@example.test', '--password', 'geheim123', '--school', 'Cli Musikschule'], (l) => lines.push(l));
    await userCreate(t.db, ['--role', 'student', '--name', 'Cli Kind', '--email', 'cli-kid@example.test', '--password', 'geheim456', '--teacher', 'CLI-teacher@example.test'], (l) => lines.push(l));
    expect(lines).toHaveLength(4);
    const admin = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'cli-admin@example.test', password: 'geheim789' } });
    expect(admin.json().user.role.name).toBe('admin');
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'cli-kid@example.test', password: 'geheim456' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.role.name).toBe('student');
  });

  it('refuses a duplicate e-mail in any case, a short password, a bad role and an unknown teacher', async () => {
    await userCreate(t.db, ['--role', 'teacher', '--name', 'Dup', '--email', 'dup@example.test', '--password', 'geheim123'], () => {});
    await expect(userCreate(t.db, ['--role', 'teacher', '--name', 'Dup', '--email', 'DUP@example.test', '--password', 'geheim123'], () => {})).rejects.toThrow(/exists already/);
    await expect(userCreate(t.db, ['--role', 'teacher', '--name', 'S', '--email', 's@example.test', '--password', 'short'], () => {})).rejects.toThrow(/at least 8/);
    await expect(userCreate(t.db, ['--role', 'guardian', '--name', 'S', '--email', 's@example.test', '--password', 'geheim123'], () => {})).rejects.toThrow(/admin, teacher or student/);
    await expect(userCreate(t.db, ['--role', 'admin', '--name', 'S', '--email', 's@example.test', '--password', 'geheim123'], () => {})).rejects.toThrow(/--school is required/);
    await expect(userCreate(t.db, ['--role', 'teacher', '--name', 'S', '--email', 's@example.test', '--password', 'geheim123', '--school', 'Keine'], () => {})).rejects.toThrow(/No school named/);
    await expect(userCreate(t.db, ['--role', 'student', '--name', 'S', '--email', 's@example.test', '--password', 'geheim123', '--teacher', 'nobody@example.test'], () => {})).rejects.toThrow(/No teacher/);
  });
});
