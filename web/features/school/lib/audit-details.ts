import type { AuditEntry } from '@contract/school';

type T = (key: string, options?: Record<string, unknown>) => string;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const nameOf = (v: unknown): string | null => (v && typeof v === 'object' ? str((v as { name?: unknown }).name) : null);
const names = (v: unknown): string | null => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').join(', ') || null : null);

/**
 * The second line of an audit entry from its details (the server's shapes, read defensively: a
 * detail the web does not know is left out, never shown raw): from/to of a move or a rename, the
 * children of a guardian invitation or link, the counts of an export or erasure.
 */
export function auditDetails(e: AuditEntry, t: T): string | null {
  const d = e.details ?? {};
  switch (e.action) {
    case 'school.rename': {
      const from = str(d.from);
      const to = str(d.to);
      return from && to ? t('audit.details.rename', { from, to }) : null;
    }
    case 'student.move': {
      const from = nameOf(d.from);
      const to = nameOf(d.to);
      return from && to ? t('audit.details.move', { from, to }) : null;
    }
    case 'invite.create':
    case 'invite.accept':
    case 'invite.revoke': {
      const kind = str(d.kind) ?? str(d.role);
      const children = names(d.students);
      if (kind === 'guardian') return children ? t('audit.details.asGuardianOf', { names: children }) : t('audit.details.asGuardian');
      if (kind === 'teacher') return t('audit.details.asTeacher');
      return null;
    }
    case 'guardian.link':
    case 'guardian.remove': {
      const child = str(d.student_name);
      return child ? t('audit.details.child', { name: child }) : null;
    }
    case 'student.export':
    case 'student.erase':
    case 'student.delete': {
      const tasks = num(d.tasks);
      const sessions = num(d.practice_sessions);
      const recordings = num(d.recordings);
      return tasks !== null && sessions !== null && recordings !== null ? t('audit.details.counts', { tasks, sessions, recordings }) : null;
    }
    default:
      return null;
  }
}
