import '@web/features/guardians/i18n';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { AlertTriangle, ChevronRight, CircleDot, Clock3, Flame, MessageSquareText, RotateCcw, Timer, Users } from 'lucide-react';
import type { GuardianChild } from '@contract/guardians';
import { Badge } from '@web/components/ui/badge';
import { feedbackHref } from '@web/lib/feedback-landing';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatPracticeTime, initials } from '@web/lib/format';
import { useGuardianChildren } from '../api/guardians';

/**
 * The guardian's home (docs/decisions/schools-and-roles.md): a card per linked child – teacher, streak, practice minutes of the
 * last 7 days, open and overdue tasks, new feedback – each leading to the child's page. Read-only.
 */
export function GuardianHome() {
  const { t } = useTranslation(['guardians', 'common']);
  const children = useGuardianChildren();

  return (
    <>
      <PageHeader title={t('home.title')} subtitle={t('home.subtitle')} />
      {children.isPending ? (
        <div aria-busy="true" data-testid="guardian-home-loading">
          <span className="sr-only" role="status">
            {t('home.loading')}
          </span>
          <ul aria-hidden="true" className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {Array.from({ length: 2 }, (_, i) => (
              <li key={i}>
                <ChildCardSkeleton />
              </li>
            ))}
          </ul>
        </div>
      ) : children.isError ? (
        <div role="alert" className="flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="guardian-home-error">
          <p className="flex items-center gap-2 text-sm font-medium text-red-800">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            {t('home.error')}
          </p>
          <Button variant="secondary" size="sm" icon={<RotateCcw aria-hidden="true" className="size-4" />} loading={children.isFetching} onClick={() => void children.refetch()}>
            {t('common:actions.retry')}
          </Button>
        </div>
      ) : children.data.length === 0 ? (
        <EmptyState icon={Users} title={t('home.empty')} text={t('home.emptyText')} className="py-16" />
      ) : (
        <ul className="grid grid-cols-1 gap-4 md:grid-cols-2" data-testid="guardian-children">
          {children.data.map((c) => (
            <li key={c.id}>
              <ChildCard child={c} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Figure({ icon: Icon, label, value, tone, testId }: { icon: typeof Flame; label: string; value: string | number; tone?: 'red'; testId: string }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2.5 ring-1 ring-slate-100 ring-inset">
      <dt className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
        <Icon aria-hidden="true" className={cn('size-3.5 shrink-0', tone === 'red' ? 'text-red-600' : 'text-slate-400')} />
        {label}
      </dt>
      <dd className={cn('mt-0.5 text-lg font-semibold tabular-nums', tone === 'red' ? 'text-red-700' : 'text-slate-900')} data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** One child: the whole card is the link to /children/{id} (its name is the link text). */
function ChildCard({ child }: { child: GuardianChild }) {
  const { t } = useTranslation('guardians');
  const language = useLanguage();
  return (
    <Card className="relative flex h-full flex-col p-4 transition-shadow focus-within:ring-2 focus-within:ring-brand-600 hover:shadow-md sm:p-5" data-testid="guardian-child-card">
      <div className="flex items-start gap-3">
        <span aria-hidden="true" className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-50 text-base font-semibold text-brand-700">
          {initials(child.name)}
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="text-lg font-semibold break-words text-slate-900">
            <Link to={`/children/${child.id}`} className="rounded-sm outline-none after:absolute after:inset-0 after:rounded-xl hover:text-brand-700">
              {child.name}
            </Link>
          </h2>
          <p className="truncate text-sm text-slate-600" title={t('home.teacher', { name: child.teacher.name })}>
            {t('home.teacher', { name: child.teacher.name })}
          </p>
          {child.new_feedback > 0 &&
            (child.new_feedback_latest ? (
              // above the card's own link: the take with the newest feedback, at its newest comment, playing from there
              <Link
                to={feedbackHref(`/children/${child.id}`, child.new_feedback_latest)}
                className="relative z-10 mt-1.5 inline-flex rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                data-testid="child-new-feedback-link"
              >
                <Badge tone="violet" className="underline-offset-2 hover:underline">
                  <MessageSquareText aria-hidden="true" className="size-3.5" />
                  <span data-testid="child-new-feedback">{t('home.newFeedback', { count: child.new_feedback })}</span>
                  <span className="sr-only"> ({child.name})</span>
                </Badge>
              </Link>
            ) : (
              <Badge tone="violet" className="mt-1.5">
                <MessageSquareText aria-hidden="true" className="size-3.5" />
                <span data-testid="child-new-feedback">{t('home.newFeedback', { count: child.new_feedback })}</span>
              </Badge>
            ))}
        </div>
      </div>
      <dl className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-4 md:grid-cols-2 xl:grid-cols-4">
        <Figure icon={Flame} label={t('home.streak')} value={t('days', { count: child.current_streak })} testId="child-streak" />
        <Figure icon={Timer} label={t('home.week')} value={formatPracticeTime(child.weekly_practice_time_minutes, language)} testId="child-week" />
        <Figure icon={CircleDot} label={t('home.open')} value={child.open_submissions} testId="child-open" />
        <Figure icon={Clock3} label={t('home.overdue')} value={child.overdue_submissions} tone={child.overdue_submissions > 0 ? 'red' : undefined} testId="child-overdue" />
      </dl>
      <p aria-hidden="true" className="mt-4 flex items-center justify-end gap-1 text-sm font-medium text-brand-700">
        {t('home.details')}
        <ChevronRight className="size-4" />
      </p>
    </Card>
  );
}

function ChildCardSkeleton() {
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex items-start gap-3">
        <Skeleton className="size-12 rounded-full" />
        <div className="flex-1 space-y-2 pt-1">
          <Skeleton className="h-5 w-40" />
          <Skeleton className="h-4 w-32" />
        </div>
      </div>
      <div className="mt-4 grid grid-cols-2 gap-2 sm:grid-cols-4 md:grid-cols-2 xl:grid-cols-4">
        {Array.from({ length: 4 }, (_, i) => (
          <Skeleton key={i} className="h-16" />
        ))}
      </div>
      <Skeleton className="mt-4 ml-auto h-4 w-28" />
    </Card>
  );
}
