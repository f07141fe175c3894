import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UserPlus } from 'lucide-react';
import type { RecentStudent } from '@contract/dashboard';
import { Card, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatDate } from '@web/lib/format';

/**
 * The 8 most recently registered students: initial, name, e-mail, registration date. Each link is
 * named by what it shows; long names and addresses are cut with their full text in the title
 * (docs/decisions/label-in-name-and-phone-width.md).
 */
export function RecentStudents({ students, loading, failed = false }: { students: RecentStudent[] | undefined; loading: boolean; failed?: boolean }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card>
      <CardHeader title={t('recent.title')} description={t('recent.subtitle')} />
      {failed && !students ? (
        <p className="px-5 py-6 text-sm text-slate-600">{t('error.text')}</p>
      ) : loading || !students ? (
        <ul aria-hidden="true" className="divide-y divide-slate-100">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="flex items-center gap-3 px-5 py-3">
              <Skeleton className="size-9 rounded-full" />
              <div className="flex-1 space-y-1.5">
                <Skeleton className="h-3.5 w-1/3" />
                <Skeleton className="h-3 w-1/2" />
              </div>
            </li>
          ))}
        </ul>
      ) : students.length === 0 ? (
        <div className="flex flex-col items-center px-5 py-8 text-center">
          <div className="flex size-10 items-center justify-center rounded-full bg-slate-100">
            <UserPlus aria-hidden="true" className="size-5 text-slate-500" />
          </div>
          <p className="mt-3 text-sm font-semibold text-slate-900">{t('recent.emptyTitle')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('recent.emptyText')}</p>
        </div>
      ) : (
        <ul className="grid grid-cols-1 divide-y divide-slate-100 md:grid-cols-2 md:divide-y-0" data-testid="recent-students">
          {students.map((s) => (
            <li key={s.id} className="border-slate-100 md:border-b md:odd:border-r">
              <Link
                to={`/students/${s.id}`}
                className="flex items-center gap-3 px-5 py-3 hover:bg-slate-50 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600"
              >
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800"
              >
                {(s.name.trim()[0] ?? 'U').toLocaleUpperCase('de-DE')}
              </span>
              <div className="min-w-0 flex-1">
                <p className="truncate text-sm font-medium text-slate-900" title={s.name}>
                  {s.name}
                </p>
                <p className="truncate text-sm text-slate-500" title={s.email}>
                  {s.email}
                </p>
              </div>
              <p className="shrink-0 text-right text-xs text-slate-500">
                <span className="sr-only">{t('recent.registered')} </span>
                <time dateTime={s.created_at}>{formatDate(s.created_at)}</time>
              </p>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
