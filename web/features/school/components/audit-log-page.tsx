import '@web/features/school/i18n';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ScrollText } from 'lucide-react';
import { auditActions } from '@contract/school-limits';
import type { AuditEntry } from '@contract/school';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { formatDateTime } from '@web/lib/format';
import { useAuditLog } from '../api/audit';
import { schoolQueryOptions } from '../api/school';
import { auditDetails } from '../lib/audit-details';
import { LoadError } from './load-error';

const KNOWN_ROLES = new Set(['admin', 'teacher', 'student', 'guardian']);
/** Target kinds named before the name; a person ('user') is named by the action already. */
const NAMED_TARGETS = new Set(['invite', 'school']);

function Skeletons({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
      {Array.from({ length: 6 }, (_, i) => (
        <div key={i} className="flex flex-wrap items-center gap-4 px-5 py-4">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-4 w-40" />
          <Skeleton className="h-4 w-56" />
          <Skeleton className="h-4 w-32" />
        </div>
      ))}
    </div>
  );
}

/** What an entry means, in the interface language (an action the web does not know yet: its id). */
function useEntryText() {
  const { t } = useTranslation('school');
  return {
    action: (e: AuditEntry) => ((auditActions as readonly string[]).includes(e.action) ? t(`audit.actions.${e.action}`) : e.action),
    role: (role: string) => (KNOWN_ROLES.has(role) ? t(`roles.${role}`) : role),
    target: (e: AuditEntry) => {
      if (!e.target) return null;
      const kind = NAMED_TARGETS.has(e.target.type) ? t(`audit.targets.${e.target.type}`) : null;
      return { kind, name: e.target.name ?? t('audit.erased') };
    },
    details: (e: AuditEntry) => auditDetails(e, t),
  };
}

/**
 * /school/audit: the audit log, newest first: when (date and time), who (name and role), what
 * (a readable text per action) and on whom; 'Mehr laden' pages back with next_before.
 */
export function AuditLogPage() {
  const { t } = useTranslation(['school', 'common']);
  const toast = useToast();
  const log = useAuditLog();
  // times in the school's time zone (shown in the browser's until the school is loaded)
  const timeZone = useQuery(schoolQueryOptions()).data?.time_zone;
  const text = useEntryText();
  const entries = log.data?.pages.flatMap((p) => p.data) ?? [];

  const more = async () => {
    const r = await log.fetchNextPage();
    if (r.isError) toast.error(t('school:audit.moreError'));
  };

  let body;
  if (log.isPending) body = <Skeletons label={t('common:actions.loading')} />;
  else if (log.isError && !log.data) body = <LoadError title={t('school:audit.error')} retrying={log.isFetching} onRetry={() => void log.refetch()} />;
  else if (entries.length === 0) body = <EmptyState icon={ScrollText} title={t('school:audit.emptyTitle')} text={t('school:audit.emptyText')} />;
  else
    body = (
      <>
        <Card className="overflow-hidden">
          <table className="w-full text-left text-sm max-md:block" data-testid="audit-table">
            <caption className="sr-only">{t('school:audit.caption')}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase max-md:hidden">
              <tr>
                <th scope="col" className="py-2.5 pr-3 pl-5 font-semibold">
                  {t('school:audit.when')}
                </th>
                <th scope="col" className="px-3 py-2.5 font-semibold">
                  {t('school:audit.who')}
                </th>
                <th scope="col" className="px-3 py-2.5 font-semibold">
                  {t('school:audit.what')}
                </th>
                <th scope="col" className="py-2.5 pr-5 pl-3 font-semibold">
                  {t('school:audit.whom')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 max-md:block">
              {entries.map((e) => {
                const target = text.target(e);
                const details = text.details(e);
                return (
                  <tr key={e.id} className="align-top max-md:block max-md:px-4 max-md:py-3" data-testid="audit-row" data-action={e.action}>
                    <td className="py-3 pr-3 pl-5 whitespace-nowrap text-slate-700 tabular-nums max-md:block max-md:p-0 max-md:text-xs max-md:text-slate-500">
                      <time dateTime={e.created_at}>{formatDateTime(e.created_at, timeZone)}</time>
                    </td>
                    <td className="px-3 py-3 max-md:block max-md:p-0 max-md:pt-1">
                      <span className="font-medium text-slate-900">{e.actor.name || t('school:audit.erased')}</span>
                      <Badge tone={e.actor.role === 'admin' ? 'brand' : 'neutral'} className="ml-1.5">
                        {text.role(e.actor.role)}
                      </Badge>
                    </td>
                    <td className="px-3 py-3 text-slate-800 max-md:block max-md:p-0 max-md:pt-1">
                      <span data-testid="audit-action">{text.action(e)}</span>
                      {details && <span className="block text-xs text-slate-600">{details}</span>}
                    </td>
                    <td className="py-3 pr-5 pl-3 text-slate-700 max-md:block max-md:p-0 max-md:pt-1">
                      {target ? (
                        <>
                          {target.kind ? (
                            <span className="text-slate-500">{target.kind}: </span>
                          ) : (
                            <span className="text-slate-500 md:hidden">{t('school:audit.whom')}: </span>
                          )}
                          <span className="font-medium text-slate-900" data-testid="audit-target">
                            {target.name}
                          </span>
                        </>
                      ) : (
                        <span className="text-slate-500 max-md:hidden">–</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </Card>
        <div className="mt-4 flex flex-col items-center gap-2">
          <p className="text-sm text-slate-600" aria-live="polite" data-testid="audit-count">
            {log.hasNextPage ? t('school:audit.shown', { count: entries.length }) : t('school:audit.all', { count: entries.length })}
          </p>
          {log.hasNextPage && (
            <Button variant="secondary" loading={log.isFetchingNextPage} onClick={() => void more()}>
              {t('school:audit.more')}
            </Button>
          )}
        </div>
      </>
    );

  return (
    <>
      <PageHeader title={t('school:audit.title')} subtitle={t('school:audit.subtitle')} />
      {body}
    </>
  );
}
