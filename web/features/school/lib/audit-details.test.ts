import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@contract/school';
import i18n from '@web/lib/i18n';
import '../i18n';
import { auditDetails } from './audit-details';

const entry = (action: AuditEntry['action'], details: AuditEntry['details']): AuditEntry => ({
  id: 1,
  created_at: '2026-11-20T09:15:00.000Z',
  actor: { id: 1, name: 'Verwaltung', role: 'admin' },
  action,
  target: { type: 'user', id: 2, name: 'Ayşe Demir' },
  details,
});
const t = (key: string, o?: Record<string, unknown>) => i18n.t(`school:${key}`, o);

describe('audit details', () => {
  it('reads the known shapes in German and Turkish', async () => {
    await i18n.changeLanguage('de');
    expect(auditDetails(entry('student.move', { from: { id: 1, name: 'Mehmet Yılmaz' }, to: { id: 5, name: 'Anna Roth' }, tasks: 3 }), t)).toBe(
      'von Mehmet Yılmaz zu Anna Roth',
    );
    expect(auditDetails(entry('school.rename', { from: 'Alt', to: 'Neu' }), t)).toBe('„Alt“ → „Neu“');
    expect(auditDetails(entry('invite.create', { kind: 'teacher', email: 'x@y.de' }), t)).toBe('als Lehrkraft');
    expect(auditDetails(entry('invite.accept', { role: 'guardian', students: ['Ayşe Demir', 'Elif Kaya'] }), t)).toBe('als Eltern von Ayşe Demir, Elif Kaya');
    expect(auditDetails(entry('guardian.link', { student_id: 3, student_name: 'Ayşe Demir' }), t)).toBe('Kind: Ayşe Demir');
    expect(auditDetails(entry('student.erase', { tasks: 4, practice_sessions: 10, recordings: 1, files: 1 }), t)).toBe('4 Aufgaben, 10 Übungssitzungen, 1 Aufnahmen');
    expect(auditDetails(entry('student.delete', { tasks: 2, practice_sessions: 3, recordings: 0, guardian_accounts: 1, guardian_account_ids: [9] }), t)).toBe('2 Aufgaben, 3 Übungssitzungen, 0 Aufnahmen');
    expect(auditDetails(entry('student.password_reset', null), t)).toBeNull();
    await i18n.changeLanguage('tr');
    expect(auditDetails(entry('student.move', { from: { name: 'A' }, to: { name: 'B' } }), t)).toBe('A → B');
    await i18n.changeLanguage('de');
  });

  it('leaves out what it does not know', () => {
    expect(auditDetails(entry('admin.sign_in', { ip: '127.0.0.1' }), t)).toBeNull();
    expect(auditDetails(entry('student.move', { from: 'kaputt' }), t)).toBeNull();
    expect(auditDetails(entry('student.export', null), t)).toBeNull();
    expect(auditDetails(entry('teacher.deactivate', null), t)).toBeNull();
  });
});
