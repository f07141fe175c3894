import '@web/features/assignments/i18n';
import type { TFunction } from 'i18next';
import { assignmentSuccessCounts, defaultRecurrenceEnd } from '@contract/recurrence';
import type { RecurrenceType } from '@contract/constants';
import { ApiError } from '@web/lib/api';
import { formatDate } from '@web/lib/format';

/**
 * SPEC.md section 8, success: 'Aufgabe erfolgreich erstellt (wiederholend)! N Aufgabe(n) für M
 * Schüler erstellt.' for a repeating task (N = total / students), otherwise 'Aufgabe erfolgreich
 * erstellt! N Aufgabe(n) für M Schüler zugewiesen.' (N = total).
 */
export function successMessage(t: TFunction, total: number, studentCount: number, repeating: boolean): string {
  const { tasks, students } = assignmentSuccessCounts(total, studentCount, repeating);
  return t(repeating ? 'assignments:success.repeating' : 'assignments:success.single', { tasks, students });
}

/** SPEC.md section 8, failure: by status, otherwise the server's message or 'Unbekannter Fehler'. */
export function errorMessage(t: TFunction, err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return t('assignments:errors.unauthorized');
    if (err.status === 403) return t('assignments:errors.forbidden');
    if (err.status === 404) return t('assignments:errors.notFound');
    const server = err.message && !/^HTTP \d+$/.test(err.message) ? err.message : '';
    return t('assignments:errors.create', { message: server || t('assignments:errors.unknown') });
  }
  const message = err instanceof Error && err.message ? err.message : t('assignments:errors.unknown');
  return t('assignments:errors.create', { message });
}

/** 'Wiederholt sich wöchentlich bis 10.01.2027' (the default end when none is chosen); null for no repetition. */
export function recurrenceSummary(t: TFunction, dueDate: string, type: RecurrenceType, endDate: string): string | null {
  if (type === 'none') return null;
  const end = endDate || defaultRecurrenceEnd(dueDate, type);
  return t(`assignments:summary.${type}`, { date: formatDate(end) });
}
