import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CheckCheck, ClipboardList, PartyPopper, RefreshCw, WifiOff } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { cn } from '@web/components/ui/cn';
import { useCompleteSubmission, useSubmissions } from '../api/submissions';
import { TASK_TABS, completeErrorKey, inTab, localToday, sortForList, tabCounts, type TaskTab } from '../lib/task-status';
import { TaskCard } from './task-card';

function CardSkeleton() {
  return (
    <div className="flex gap-3 rounded-xl border border-l-4 border-slate-200 bg-white p-4">
      <Skeleton className="size-10 rounded-full" />
      <div className="flex-1 space-y-2">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-4 w-5/6" />
        <Skeleton className="h-4 w-1/3" />
      </div>
    </div>
  );
}

/**
 * SPEC.md 'Task list': counter, tabs All/Open/Completed with count badges, cards, the three empty
 * states; reloads when the course changes. `filter` is the course filter the screen provides.
 */
export function TaskList({ courseId, filter }: { courseId: number | null; filter?: ReactNode }) {
  const { t } = useTranslation('tasks');
  const toast = useToast();
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: TaskTab = tabParam === 'open' || tabParam === 'completed' ? tabParam : 'all';
  const setTab = (next: TaskTab) =>
    setParams(
      (p) => {
        const n = new URLSearchParams(p);
        if (next === 'all') n.delete('tab');
        else n.set('tab', next);
        return n;
      },
      { replace: true },
    );

  const query = useSubmissions(courseId);
  const complete = useCompleteSubmission();
  const [busyId, setBusyId] = useState<number | null>(null);
  const today = localToday();

  // One toast per failed load (not again when only the language changes).
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!query.error || reported.current === query.error) return;
    reported.current = query.error;
    console.error('Aufgaben konnten nicht geladen werden', query.error);
    toast.error(t('list.loadError'));
  }, [query.error, toast, t]);

  const list = useMemo(() => query.data ?? [], [query.data]);
  const counts = tabCounts(list);
  const shown = sortForList(list.filter((s) => inTab(s, tab)));

  const onComplete = async (id: number) => {
    setBusyId(id);
    try {
      await complete.mutateAsync(id);
      toast.success(t('complete.success'));
    } catch (err) {
      toast.error(t(completeErrorKey(err)));
    } finally {
      setBusyId(null);
    }
  };

  const tabButton = (key: TaskTab) => {
    const active = tab === key;
    const count = key === 'all' ? 0 : counts[key];
    return (
      <button
        key={key}
        type="button"
        role="tab"
        id={`tasks-tab-${key}`}
        aria-selected={active}
        aria-controls="tasks-panel"
        tabIndex={active ? 0 : -1}
        onClick={() => setTab(key)}
        onKeyDown={(e) => {
          const i = TASK_TABS.indexOf(key);
          if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
            e.preventDefault();
            const next = TASK_TABS[(i + (e.key === 'ArrowRight' ? 1 : TASK_TABS.length - 1)) % TASK_TABS.length]!;
            setTab(next);
            document.getElementById(`tasks-tab-${next}`)?.focus();
          }
        }}
        className={cn(
          'inline-flex h-10 flex-1 items-center justify-center gap-2 rounded-md px-3 text-sm font-medium transition-colors sm:flex-none',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600',
          active ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900',
        )}
      >
        {t(`tabs.${key}`)}
        {count > 0 && (
          <span
            className={cn(
              'min-w-5 rounded-full px-1.5 text-xs leading-5 font-semibold tabular-nums',
              active ? 'bg-brand-600 text-white' : 'bg-slate-200 text-slate-700',
            )}
          >
            {count}
          </span>
        )}
      </button>
    );
  };

  let body: ReactNode;
  if (query.isPending) {
    body = (
      <div className="space-y-3" aria-busy="true">
        <span className="sr-only" role="status">
          {t('list.loading')}
        </span>
        {Array.from({ length: 4 }, (_, i) => (
          <CardSkeleton key={i} />
        ))}
      </div>
    );
  } else if (query.isError) {
    body = (
      <EmptyState
        icon={WifiOff}
        title={t('list.loadError')}
        text={t('list.errorText')}
        action={
          <Button variant="secondary" icon={<RefreshCw aria-hidden="true" className="size-4" />} onClick={() => void query.refetch()} loading={query.isFetching}>
            {t('common:actions.retry')}
          </Button>
        }
      />
    );
  } else if (list.length === 0) {
    body = <EmptyState icon={ClipboardList} title={t('empty.noneTitle')} text={courseId ? t('empty.noneInCourseText') : t('empty.noneText')} />;
  } else if (shown.length === 0 && tab === 'open') {
    body = <EmptyState icon={PartyPopper} title={t('empty.allDoneTitle')} text={t('empty.allDoneText')} />;
  } else if (shown.length === 0 && tab === 'completed') {
    body = <EmptyState icon={CheckCheck} title={t('empty.noCompletedTitle')} text={t('empty.noCompletedText')} />;
  } else {
    body = (
      <ul className="space-y-3">
        {shown.map((s) => (
          <li key={s.id}>
            <TaskCard task={s} today={today} busy={busyId === s.id} onComplete={(id) => void onComplete(id)} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      <PageHeader title={t('list.title')} subtitle={t('list.subtitle')} actions={filter}>
        <div className="mt-2 min-h-5 text-sm font-medium text-slate-700 tabular-nums" aria-live="polite" data-testid="task-counter">
          {query.isPending ? <Skeleton className="h-5 w-32" /> : query.isError ? null : t('list.counter', { shown: shown.length, count: list.length })}
        </div>
      </PageHeader>
      <div role="tablist" aria-label={t('tabs.label')} className="mb-4 flex gap-1 rounded-lg bg-slate-100 p-1 sm:inline-flex">
        {TASK_TABS.map(tabButton)}
      </div>
      <div id="tasks-panel" role="tabpanel" aria-labelledby={`tasks-tab-${tab}`}>
        {body}
      </div>
    </>
  );
}
