import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ArrowDown, ArrowUp, ArrowUpDown, CalendarDays, LayoutDashboard, Mail, Phone } from 'lucide-react';
import type { Student, StudentProgress } from '@contract/students';
import { Badge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { EditDeleteButtons } from '@web/components/ui/edit-delete-buttons';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/components/ui/cn';
import { formatDate, formatDateTime, formatPracticeTime } from '@web/lib/format';
import { avatarInitials } from '../lib/avatar-initials';
import { DEFAULT_DIRECTION, daysSince, sortStudentRows, type SortDirection, type StudentSortKey } from '../lib/sort-students';

const SORT_KEYS: StudentSortKey[] = ['name', 'last', 'week', 'open', 'overdue'];

export type StudentSort = { key: StudentSortKey; dir: SortDirection };

/**
 * The students list as a table (SPEC.md's card fields – initials, name, e-mail, phone, courses,
 * registration date – in the first column) with each student's practice: last practice, minutes
 * of the last 7 days, open and overdue tasks; sortable by every column (header buttons, a select on
 * phones, where each row is a card).
 */
export function StudentsTable({
  students,
  progress,
  progressLoading,
  sort,
  onSort,
  onEdit,
  onDelete,
}: {
  students: readonly Student[];
  progress: readonly StudentProgress[] | undefined;
  progressLoading: boolean;
  sort: StudentSort;
  onSort: (sort: StudentSort) => void;
  onEdit: (s: Student) => void;
  onDelete: (s: Student) => void;
}) {
  const { t, i18n } = useTranslation(['students', 'common']);
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const rows = useMemo(() => {
    const byId = new Map((progress ?? []).map((p) => [p.student_id, p]));
    return sortStudentRows(
      students.map((student) => ({ student, progress: byId.get(student.id) })),
      sort.key,
      sort.dir,
      language,
    );
  }, [students, progress, sort, language]);
  const relative = useMemo(() => new Intl.RelativeTimeFormat(language === 'tr' ? 'tr-TR' : 'de-DE', { numeric: 'auto' }), [language]);

  const label: Record<StudentSortKey, string> = {
    name: t('students:table.student'),
    last: t('students:table.last'),
    week: t('students:table.week'),
    open: t('students:table.open'),
    overdue: t('students:table.overdue'),
  };
  const headerSort = (key: StudentSortKey) => onSort(sort.key === key ? { key, dir: sort.dir === 'asc' ? 'desc' : 'asc' } : { key, dir: DEFAULT_DIRECTION[key] });

  const header = (k: StudentSortKey, className?: string) => {
    const active = sort.key === k;
    const Icon = active ? (sort.dir === 'asc' ? ArrowUp : ArrowDown) : ArrowUpDown;
    return (
      <th scope="col" aria-sort={active ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined} className={cn('px-3 py-2 font-semibold', className)}>
        <button
          type="button"
          onClick={() => headerSort(k)}
          className={cn(
            'inline-flex min-h-9 items-center gap-1 rounded-md px-1.5 text-xs tracking-wide uppercase hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-600',
            active ? 'text-slate-900' : 'text-slate-600',
          )}
          data-testid={`sort-${k}`}
        >
          {label[k]}
          <Icon aria-hidden="true" className={cn('size-3.5', active ? 'text-brand-700' : 'text-slate-400')} />
          {active && <span className="sr-only">, {sort.dir === 'asc' ? t('students:table.sortedAsc') : t('students:table.sortedDesc')}</span>}
        </button>
      </th>
    );
  };

  const lastPractice = (p: StudentProgress | undefined) => {
    if (progressLoading && !p) return <Skeleton className="h-4 w-16" />;
    if (!p?.last_practice_at) return <span className="text-slate-500">{t('students:table.never')}</span>;
    const days = daysSince(p.last_practice_at);
    return (
      <time dateTime={p.last_practice_at} title={formatDateTime(p.last_practice_at)} className={cn(days >= 7 && 'font-semibold text-red-700')}>
        {relative.format(-days, 'day')}
      </time>
    );
  };
  const number = (n: number | undefined, tone?: 'red' | 'amber') =>
    progressLoading && n === undefined ? (
      <Skeleton className="h-4 w-6" />
    ) : (
      <span className={cn('tabular-nums', n && tone === 'red' ? 'font-semibold text-red-700' : n ? 'text-slate-900' : 'text-slate-500')}>{n ?? 0}</span>
    );

  return (
    <>
      {/* Phones: the sort as a select (the header row is hidden there). */}
      <div className="mb-3 flex items-end gap-2 md:hidden">
        <label className="min-w-0 flex-1 text-sm font-medium text-slate-700">
          {t('students:table.sortBy')}
          <select
            value={sort.key}
            onChange={(e) => {
              const key = e.target.value as StudentSortKey;
              onSort({ key, dir: DEFAULT_DIRECTION[key] });
            }}
            className="mt-1 block h-11 w-full rounded-lg border-0 bg-white px-3 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none"
            data-testid="sort-select"
          >
            {SORT_KEYS.map((k) => (
              <option key={k} value={k}>
                {label[k]}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => onSort({ key: sort.key, dir: sort.dir === 'asc' ? 'desc' : 'asc' })}
          aria-label={`${t('students:table.sortToggle')} (${sort.dir === 'asc' ? t('students:table.sortAsc') : t('students:table.sortDesc')})`}
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg bg-white text-slate-700 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {sort.dir === 'asc' ? <ArrowUp aria-hidden="true" className="size-4" /> : <ArrowDown aria-hidden="true" className="size-4" />}
        </button>
      </div>

      <Card className="overflow-hidden max-md:border-0 max-md:bg-transparent max-md:shadow-none max-md:ring-0">
        <table className="w-full text-left text-sm max-md:block" data-testid="students-table">
          <caption className="sr-only">{t('students:table.caption')}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 max-md:hidden">
            <tr>
              {header('name', 'pl-4')}
              {header('last')}
              {header('week')}
              {header('open', 'text-right')}
              {header('overdue', 'text-right')}
              <th scope="col" className="px-4 py-2 text-right text-xs font-semibold tracking-wide text-slate-600 uppercase">
                {t('students:table.actions')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-md:block max-md:space-y-3 max-md:divide-y-0">
            {rows.map(({ student, progress: p }) => {
              const avatar = avatarInitials(student.name);
              return (
                <tr
                  key={student.id}
                  className="align-top hover:bg-slate-50/60 max-md:block max-md:rounded-xl max-md:bg-white max-md:p-4 max-md:shadow-xs max-md:ring-1 max-md:ring-slate-200"
                  data-testid="student-card"
                  data-student-id={student.id}
                >
                  <td className="py-3 pr-3 pl-4 max-md:block max-md:p-0">
                    <div className="flex items-start gap-3">
                      <span
                        aria-hidden="true"
                        className={`flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 ${avatar.length > 2 ? 'text-xs' : 'text-sm'}`}
                      >
                        {avatar}
                      </span>
                      <div className="min-w-0 flex-1">
                        <Link
                          to={`/students/${student.id}`}
                          className="block truncate font-semibold text-slate-900 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
                          title={student.name}
                        >
                          {student.name}
                        </Link>
                        <p className="mt-0.5 flex min-w-0 items-center gap-1.5 text-slate-600">
                          <Mail aria-hidden="true" className="size-3.5 shrink-0 text-slate-400" />
                          <span className="sr-only">{t('students:card.email')}: </span>
                          <a href={`mailto:${student.email}`} className="inline-block max-w-full truncate leading-6 hover:text-brand-700 hover:underline" title={student.email}>
                            {student.email}
                          </a>
                        </p>
                        <p className="mt-0.5 flex items-center gap-1.5 text-slate-600">
                          <Phone aria-hidden="true" className="size-3.5 shrink-0 text-slate-400" />
                          <span className="sr-only">{t('students:card.phone')}: </span>
                          {student.phone ? (
                            <a href={`tel:${student.phone.replace(/[^\d+]/g, '')}`} className="inline-block max-w-full truncate leading-6 hover:text-brand-700 hover:underline">
                              {student.phone}
                            </a>
                          ) : (
                            <span className="text-slate-500">{t('students:card.noPhone')}</span>
                          )}
                        </p>
                        <div className="mt-2 flex flex-wrap items-center gap-1.5">
                          {student.courses.length ? (
                            <ul className="flex flex-wrap gap-1.5" aria-label={t('students:card.courses')}>
                              {student.courses.map((c) => (
                                <li key={c.id}>
                                  <Badge tone="brand">{c.name}</Badge>
                                </li>
                              ))}
                            </ul>
                          ) : (
                            <span className="text-xs text-slate-500 italic">{t('students:card.noCourses')}</span>
                          )}
                          <span className="inline-flex items-center gap-1 text-xs text-slate-500">
                            <CalendarDays aria-hidden="true" className="size-3.5" />
                            {t('students:card.registered', { date: formatDate(student.created_at) })}
                          </span>
                        </div>
                      </div>
                    </div>
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap max-md:mt-3 max-md:flex max-md:justify-between max-md:border-t max-md:border-slate-100 max-md:px-0 max-md:pt-3 max-md:pb-1">
                    <span className="text-slate-500 md:hidden">{t('students:table.last')}</span>
                    <span data-testid="progress-last">{lastPractice(p)}</span>
                  </td>
                  <td className="px-3 py-3 whitespace-nowrap max-md:flex max-md:justify-between max-md:px-0 max-md:py-1" title={t('students:table.weekHint')}>
                    <span className="text-slate-500 md:hidden">{t('students:table.week')}</span>
                    <span className="tabular-nums" data-testid="progress-week">
                      {progressLoading && !p ? <Skeleton className="h-4 w-12" /> : formatPracticeTime(p?.week_minutes ?? 0, language)}
                    </span>
                  </td>
                  <td className="px-3 py-3 text-right max-md:flex max-md:justify-between max-md:px-0 max-md:py-1">
                    <span className="text-slate-500 md:hidden">{t('students:table.open')}</span>
                    <span data-testid="progress-open">{number(p?.open_count)}</span>
                  </td>
                  <td className="px-3 py-3 text-right max-md:flex max-md:justify-between max-md:px-0 max-md:py-1">
                    <span className="text-slate-500 md:hidden">{t('students:table.overdue')}</span>
                    <span data-testid="progress-overdue">{number(p?.overdue_count, 'red')}</span>
                  </td>
                  <td className="py-2 pr-2 pl-1 whitespace-nowrap max-md:mt-2 max-md:block max-md:border-t max-md:border-slate-100 max-md:p-0 max-md:pt-2">
                    <div className="flex items-center justify-end gap-0.5 max-md:flex-wrap">
                      <Link
                        to={`/students/${student.id}`}
                        aria-label={t('students:card.dashboardLabel', { name: student.name })}
                        className="inline-flex min-h-9 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
                      >
                        <LayoutDashboard aria-hidden="true" className="size-4" />
                        <span className="md:sr-only">{t('students:card.dashboard')}</span>
                      </Link>
                      <EditDeleteButtons
                        onEdit={() => onEdit(student)}
                        onDelete={() => onDelete(student)}
                        editLabel={t('students:card.editLabel', { name: student.name })}
                        deleteLabel={t('students:card.deleteLabel', { name: student.name })}
                        compact
                      />
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>
    </>
  );
}
