import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CheckCheck, ChevronDown, ClipboardList, LoaderCircle, PartyPopper, RefreshCw, WifiOff } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { cn } from '@web/components/ui/cn';
import { OfflineNotice } from '@web/components/offline-notice';
import { useSubmissionCounts, useSubmissionPages } from '../api/submissions';
import { TASK_TABS, entryLead, gatherSeries, groupTasks, localToday, tabCounts, tasksForTab, type TaskTab } from '../lib/task-status';
import { SeriesGroup } from './series-group';
import { TaskCard } from './task-card';
import { useMarkDone } from './use-mark-done';

function CardSkeleton() {
  return (
    <div className="flex gap-3 rounded-xl border border-slate-200 bg-white p-4">
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
 * The counter and the badges come from GET /api/submissions/counts; each tab loads its own pages
 * of TASK_PAGE_SIZE tasks, the next one with 'Weitere Aufgaben laden' under the list.
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

  const counts = useSubmissionCounts(courseId);
  const pages = useSubmissionPages(courseId, tab);
  const { markDone, pendingId: busyId } = useMarkDone();
  const today = localToday();

  // One toast per failed load (not again when only the language changes); a failed next page
  // keeps the loaded ones and the button.
  const reported = useRef<unknown>(null);
  const loadError = pages.error ?? counts.error;
  useEffect(() => {
    if (!loadError || reported.current === loadError) return;
    reported.current = loadError;
    console.error('Aufgaben konnten nicht geladen werden', loadError);
    toast.error(t('list.loadError'));
  }, [loadError, toast, t]);

  // The cards are drawn from a deferred value: React renders a new list (the first data, a new
  // page, another tab) as a transition in short slices that yield to input and paint, instead of
  // one long task on a phone; until it is drawn the screen keeps what it shows.
  const data = useDeferredValue(pages.data ?? null, null);
  const drawing = data !== (pages.data ?? null);
  const shown = useMemo(() => tasksForTab(data?.pages ?? [], tab), [data, tab]);
  const perTab = counts.data ? tabCounts(counts.data) : null;
  // The counts know when everything is there; without them a short page ends the list.
  const hasMore = pages.hasNextPage && (perTab === null || shown.length < perTab[tab]);

  // 'Weitere Aufgaben laden': focus moves to the first task of the new page (the button may be
  // gone after the last one); a failed page leaves it on the button.
  const listRef = useRef<HTMLDivElement>(null);
  /** The task items of every group, in the order shown. */
  const items = () => Array.from(listRef.current?.querySelectorAll<HTMLElement>('li[data-task-id]') ?? []);
  const focusIndex = useRef<number | null>(null);
  const loadMore = () => {
    if (pages.isFetchingNextPage) return;
    focusIndex.current = shown.length;
    void pages.fetchNextPage();
  };
  useEffect(() => {
    const i = focusIndex.current;
    if (i === null || pages.isFetchingNextPage || drawing) return;
    focusIndex.current = null;
    if (i < shown.length) items()[i]?.querySelector<HTMLElement>('a[href]')?.focus();
  }, [shown.length, pages.isFetchingNextPage, drawing]);
  useEffect(() => {
    focusIndex.current = null;
  }, [tab, courseId]);

  // A task marked done loses its button (and, under Offen, its card): the keyboard focus goes to
  // the task's link, or to the card now in its place, or to the list, never to the page's start.
  // Under Alle the card stays until the list is read again and may then move beyond the loaded
  // page: the request holds until that read is done, and moves the focus again only if it was lost.
  const refocus = useRef<{ id: number; index: number } | null>(null);
  const listSettled = !pages.isFetching;
  useEffect(() => {
    const r = refocus.current;
    if (!r || busyId === r.id || drawing) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || !!listRef.current?.contains(active) || active.id === 'tasks-panel';
    if (listSettled) refocus.current = null;
    if (!lost) return;
    const list = items();
    const same = listRef.current?.querySelector<HTMLElement>(`[data-task-id="${r.id}"]`);
    const target = same ?? list[r.index] ?? list[r.index - 1];
    (target?.querySelector<HTMLElement>('a[href]') ?? document.getElementById('tasks-panel'))?.focus();
  }, [shown, busyId, listSettled, drawing]);

  // One callback for every card across renders (the cards are memoised), calling the latest onComplete.
  const completeRef = useRef<(id: number) => Promise<void>>(async () => undefined);
  const completeStable = useCallback((id: number) => void completeRef.current(id), []);
  // Asks first when nothing was practised, then offers 'Rückgängig' in a toast that takes the focus;
  // when it closes with the focus, the focus comes back to the task (or the card now in its place).
  const onComplete = async (id: number) => {
    const task = shown.find((x) => x.id === id);
    if (!task) return;
    const index = shown.findIndex((x) => x.id === id);
    const card = listRef.current?.querySelector(`[data-task-id="${id}"]`);
    const hadFocus = !!card && card.contains(document.activeElement);
    const restoreFocus = () => {
      const list = items();
      const same = listRef.current?.querySelector<HTMLElement>(`[data-task-id="${id}"]`);
      const target = same ?? list[index] ?? list[index - 1];
      (target?.querySelector<HTMLElement>('a[href]') ?? document.getElementById('tasks-panel'))?.focus();
    };
    const done = await markDone(task, { restoreFocus });
    if (done && hadFocus) refocus.current = { id, index };
  };
  useLayoutEffect(() => {
    completeRef.current = onComplete;
  });

  const tabButton = (key: TaskTab) => {
    const active = tab === key;
    const count = key === 'all' || !perTab ? 0 : perTab[key];
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
          'inline-flex h-11 flex-1 items-center justify-center gap-2 rounded-md px-3 text-sm font-medium transition-colors sm:h-10 sm:flex-none',
          'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900',
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
  if ((pages.isError && !pages.data) || (counts.isError && !counts.data)) {
    const retry = () => {
      if (pages.isError) void pages.refetch();
      if (counts.isError) void counts.refetch();
    };
    body = (
      <EmptyState
        icon={WifiOff}
        title={t('list.loadError')}
        text={t('list.errorText')}
        action={
          <Button
            variant="secondary"
            icon={<RefreshCw aria-hidden="true" className="size-4" />}
            onClick={retry}
            loading={pages.isFetching || counts.isFetching}
          >
            {t('common:actions.retry')}
          </Button>
        }
      />
    );
  } else if ((pages.isPending && pages.fetchStatus === 'paused') || (counts.isPending && counts.fetchStatus === 'paused')) {
    // no connection and nothing kept on this device yet (docs/decisions/offline-practice.md)
    body = <EmptyState icon={WifiOff} title={t('offline:offline')} text={t('offline:offlineNothing')} />;
  } else if (pages.isPending || counts.isPending || !data) {
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
  } else if (counts.data.total === 0 || (shown.length === 0 && tab === 'all')) {
    body = <EmptyState icon={ClipboardList} title={t('empty.noneTitle')} text={courseId ? t('empty.noneInCourseText') : t('empty.noneText')} />;
  } else if (shown.length === 0 && tab === 'open') {
    body = <EmptyState icon={PartyPopper} title={t('empty.allDoneTitle')} text={t('empty.allDoneText')} />;
  } else if (shown.length === 0 && tab === 'completed') {
    body = <EmptyState icon={CheckCheck} title={t('empty.noCompletedTitle')} text={t('empty.noCompletedText')} />;
  } else {
    const loadingMore = pages.isFetchingNextPage;
    body = (
      <>
        {/* Grouped by due date: Heute, Diese Woche, Später, Vergangen (each in the tab's order). */}
        <div ref={listRef} className="space-y-6" data-testid="task-groups">
          {groupTasks(
            gatherSeries(shown).map((e) => ({ entry: e, due_date: entryLead(e).due_date })),
            today,
          ).map(({ group, tasks }) => (
            <section key={group} aria-labelledby={`tasks-group-${group}`} data-testid={`task-group-${group}`}>
              <h2 id={`tasks-group-${group}`} className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-700">
                {t(`groups.${group}`)}
                <span className="rounded-full bg-slate-200 px-2 text-xs leading-5 font-semibold text-slate-700 tabular-nums">{tasks.length}</span>
              </h2>
              <ul className="space-y-3">
                {tasks.map(({ entry }) =>
                  entry.kind === 'task' ? (
                    <li key={entry.task.id} data-task-id={entry.task.id}>
                      <TaskCard task={entry.task} today={today} busy={busyId === entry.task.id} onComplete={completeStable} />
                    </li>
                  ) : (
                    // a repeating task: its dates together, under one header that opens them
                    <li key={`series-${entry.seriesId}`}>
                      <SeriesGroup tasks={entry.tasks} today={today} busyId={busyId} onComplete={completeStable} />
                    </li>
                  ),
                )}
              </ul>
            </section>
          ))}
        </div>
        {perTab && (hasMore || data.pages.length > 1) && (
          <div className="mt-6 flex flex-col items-center gap-2">
            <p className="text-sm text-slate-600 tabular-nums" role="status" data-testid="tasks-loaded">
              {t('list.loaded', { loaded: shown.length, total: perTab[tab] })}
            </p>
            {hasMore && (
              // Not `disabled` while loading: the button keeps the keyboard focus (and its size).
              <Button
                variant="secondary"
                size="lg"
                className="w-full sm:w-auto sm:min-w-64"
                icon={loadingMore ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : <ChevronDown aria-hidden="true" className="size-5" />}
                aria-disabled={loadingMore || undefined}
                aria-busy={loadingMore || undefined}
                onClick={loadMore}
                data-testid="tasks-load-more"
              >
                {t('list.loadMore')}
              </Button>
            )}
          </div>
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader title={t('list.title')} subtitle={t('list.subtitle')} actions={filter}>
        <div className="mt-2 min-h-5 text-sm font-medium text-slate-700 tabular-nums" aria-live="polite" data-testid="task-counter">
          {counts.isPending ? <Skeleton className="h-5 w-32" /> : perTab ? t('list.counter', { shown: perTab[tab], count: perTab.all }) : null}
        </div>
      </PageHeader>
      <OfflineNotice updatedAt={pages.dataUpdatedAt || undefined} />
      <div role="tablist" aria-label={t('tabs.label')} className="mb-4 flex gap-1 rounded-lg bg-slate-100 p-1 sm:inline-flex">
        {TASK_TABS.map(tabButton)}
      </div>
      <div id="tasks-panel" role="tabpanel" tabIndex={-1} aria-labelledby={`tasks-tab-${tab}`} className="rounded-lg focus-visible:outline-2 focus-visible:outline-offset-4 focus-visible:outline-slate-900">
        {body}
      </div>
    </>
  );
}
