import '@web/features/recordings/i18n';
import { useEffect, useMemo, useRef, useState, type ComponentType, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { ChevronLeft, ChevronRight, Inbox as InboxIcon } from 'lucide-react';
import { formatMoment } from '@contract/recordings-limits';
import type { InboxItem, Recording } from '@contract/recordings';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/components/ui/cn';
import { formatDate, formatDateTime } from '@web/lib/format';
import { useMediaQuery } from '@web/lib/media-query';
import { INBOX_PER_PAGE, useInbox, useInboxCount, useRecording } from '../api/recordings';
import { REVIEW_VIEW_ATTR, reviewKeyAction, type ReviewKeyAction } from '../lib/review-keys';
import { RecordingCard, type ReviewHandle } from './recording-card';
import { SEEK_MS } from './recording-player';

/** Wide enough for the list and the open take side by side; narrower, a take opens full screen. */
const WIDE = '(min-width: 1024px)';
/** The search parameter of the full-screen take on a phone: the browser's Back closes it. */
const VIEW_PARAM = 'take';

/**
 * 'Zu prüfen': the teacher's unanswered recordings, oldest first, filtered by the selected course,
 * ten per page. On a wide screen one opens beside the list (player pinned at the top, comments,
 * the review, 'Als beantwortet markieren'); on a phone a tapped take opens full screen (Back or
 * Escape closes it and the focus returns to the take in the list). The screen's keys work anywhere
 * outside a text field and an other dialog: J/K next/previous, Space play/pause, ←/→ 5 s, C a
 * comment at the current moment, Enter answered. After each the focus is on the player; after
 * 'answered' the next take is open, at the end 'Alles beantwortet'. See docs/decisions/recordings.md.
 */
export function ReviewInbox({
  courseId,
  userId,
  renderReview,
  AnalysisView,
  TakeActions,
}: {
  courseId: number | null;
  userId: number | null;
  /** The task's review form (competency, accuracy, feedback), composed by the screen. */
  renderReview?: (submissionId: number) => ReactNode;
  /** What the app heard in the take (a slot the app fills: the listening report). */
  AnalysisView?: ComponentType<{ recording: Recording; onPlay: (ms: number) => void }>;
  /** Further actions on the open take at the player's moment (a slot the app fills: a message about it). */
  TakeActions?: ComponentType<{ recording: Recording; currentMs: () => number }>;
}) {
  const { t } = useTranslation('recordings');
  const wide = useMediaQuery(WIDE);
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<number | null>(() => Number(params.get(VIEW_PARAM)) || null);
  // Which take is to take the focus (null: whichever is open next) and a counter that asks again.
  const [focusAsk, setFocusAsk] = useState<{ id: number | null; n: number } | null>(null);
  const [allDone, setAllDone] = useState(false);
  // The full-screen view was opened here (one history entry to go back), not arrived at by a link.
  const [pushed, setPushed] = useState(false);
  const card = useRef<ReviewHandle>(null);
  const list = useRef<HTMLUListElement>(null);
  const inbox = useInbox(courseId, page);
  const count = useInboxCount(courseId);
  const items = useMemo(() => inbox.data?.data ?? [], [inbox.data]);
  const hasMore = inbox.data?.pagination.has_more ?? false;

  // A new course: back to its first page (set while rendering: docs/decisions/compiler-ready-components.md).
  const [pageCourse, setPageCourse] = useState(courseId);
  if (pageCourse !== courseId) {
    setPageCourse(courseId);
    setPage(1);
  }
  // A later page whose takes were all answered: the page before.
  if (inbox.data && !inbox.isPlaceholderData && items.length === 0 && page > 1) setPage(page - 1);
  const viewWanted = params.has(VIEW_PARAM);
  if (pushed && !viewWanted) setPushed(false);

  // The chosen take while it is on the page, else the page's first (not while the next page loads).
  const selected = inbox.isPlaceholderData || (chosen !== null && items.some((i) => i.id === chosen)) ? chosen : (items[0]?.id ?? null);
  const index = items.findIndex((i) => i.id === selected);
  const current = index >= 0 ? items[index] : undefined;
  const position = (page - 1) * INBOX_PER_PAGE + index + 1;
  const total = Math.max(count.data ?? 0, (page - 1) * INBOX_PER_PAGE + items.length);
  const viewOpen = !wide && viewWanted && items.length > 0;

  const askFocus = (id: number | null) => setFocusAsk((f) => ({ id, n: (f?.n ?? 0) + 1 }));

  const openTake = (id: number) => {
    setAllDone(false);
    setChosen(id);
    askFocus(id);
    if (!wide && !viewWanted) {
      setParams((p) => {
        const next = new URLSearchParams(p);
        next.set(VIEW_PARAM, String(id));
        return next;
      });
      setPushed(true);
    }
  };

  const closeView = () => {
    if (!viewWanted) return;
    if (pushed) void navigate(-1);
    else
      setParams(
        (p) => {
          const next = new URLSearchParams(p);
          next.delete(VIEW_PARAM);
          return next;
        },
        { replace: true },
      );
  };

  const go = (delta: number) => {
    const next = items[index + delta];
    if (next) openTake(next.id);
    else if (delta > 0 && hasMore) {
      setChosen(null);
      setPage((p) => p + 1);
      askFocus(null);
    } else if (delta < 0 && page > 1) {
      setChosen(null);
      setPage((p) => p - 1);
      askFocus(null);
    }
  };

  // Called once the inbox has been fetched again (the answered take is gone from it).
  const onAnswered = () => {
    const next = items[index + 1];
    if (next) openTake(next.id);
    else if (hasMore || items.length > 1) {
      // The page's first take still waiting (the page has moved up by one).
      setChosen(null);
      askFocus(null);
    } else {
      setAllDone(true);
      closeView();
    }
  };

  // The screen's keys: one listener while the screen is open, doing what this render knows.
  const keyAction = useRef<(a: ReviewKeyAction) => boolean>(() => false);
  useEffect(() => {
    keyAction.current = (a) => {
      if (!wide && !viewOpen) return false;
      if (a === 'next' || a === 'previous') {
        go(a === 'next' ? 1 : -1);
        return true;
      }
      const take = card.current;
      if (!take) return false;
      if (a === 'comment') take.commentNow();
      else if (a === 'answer') take.answer();
      else {
        if (a === 'toggle') take.toggle();
        else take.seekBy(a === 'back' ? -SEEK_MS : SEEK_MS);
        take.focusPlayer();
      }
      return true;
    };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = reviewKeyAction(e);
      if (action && keyAction.current(action)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);

  // The full-screen view closed (its button, Escape, the browser's Back): the focus goes back to the take in the list.
  const wasOpen = useRef(false);
  useEffect(() => {
    if (viewOpen) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    // After the dialog's own focus return, which would pick the row tapped first.
    const timer = setTimeout(() => {
      const rows = list.current;
      (rows?.querySelector<HTMLElement>(`[data-take-id="${selected}"]`) ?? rows?.querySelector<HTMLElement>('button'))?.focus();
    }, 0);
    return () => clearTimeout(timer);
  }, [viewOpen, selected]);

  const announcement = (
    <p role="status" className="sr-only" data-testid="take-announcement">
      {current ? t('inbox.nowOpen', { n: position, total, name: current.student.name, task: current.exercise_title }) : ''}
    </p>
  );

  const detail = current ? (
    <InboxDetail
      key={current.id}
      item={current}
      userId={userId}
      renderReview={renderReview}
      AnalysisView={AnalysisView}
      TakeActions={TakeActions}
      onAnswered={onAnswered}
      review={card}
      focusRequest={focusAsk && (focusAsk.id === null || focusAsk.id === current.id) ? focusAsk.n : 0}
    />
  ) : (
    <Skeleton className="h-64 w-full rounded-xl" />
  );

  return (
    <div>
      <PageHeader title={t('inbox.title')} subtitle={t('inbox.subtitle')}>
        {count.data !== undefined && (
          <p className="mt-2 text-sm font-medium text-slate-700 tabular-nums" data-testid="inbox-count">
            {t('inbox.count', { count: count.data })}
          </p>
        )}
      </PageHeader>
      {inbox.isPending ? (
        <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)]">
          <Skeleton className="h-64 w-full rounded-xl" />
          <Skeleton className="h-64 w-full rounded-xl" />
        </div>
      ) : inbox.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {t('inbox.loadError')}
        </p>
      ) : items.length === 0 && page === 1 ? (
        <EmptyState
          icon={InboxIcon}
          title={t('inbox.emptyTitle')}
          text={t('inbox.empty')}
          action={
            <Link
              // Answered the last one: the focus lands here, not on the page's body.
              ref={allDone ? (el) => el?.focus() : undefined}
              to="/"
              className="inline-flex h-11 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
              data-testid="inbox-done-back"
            >
              {t('inbox.backToDashboard')}
            </Link>
          }
        />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
          <nav aria-label={t('inbox.listLabel')} className="space-y-3">
            <ul ref={list} className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white" data-testid="inbox-list">
              {items.map((item) => (
                <InboxRow key={item.id} item={item} active={item.id === selected} onOpen={() => openTake(item.id)} />
              ))}
            </ul>
            {(page > 1 || hasMore) && (
              <div className="flex items-center justify-between gap-2">
                <Button variant="secondary" size="sm" disabled={page <= 1} onClick={() => setPage((p) => p - 1)}>
                  {t('inbox.prevPage')}
                </Button>
                <span className="text-sm text-slate-600 tabular-nums">{t('inbox.page', { page })}</span>
                <Button variant="secondary" size="sm" disabled={!hasMore} onClick={() => setPage((p) => p + 1)}>
                  {t('inbox.nextPage')}
                </Button>
              </div>
            )}
          </nav>
          {wide && (
            <div className="min-w-0 space-y-3">
              {announcement}
              <KeyLegend />
              <div className="flex items-center justify-between gap-2">
                <Button variant="secondary" icon={<ChevronLeft aria-hidden="true" className="size-4" />} disabled={index <= 0 && page <= 1} onClick={() => go(-1)} data-testid="inbox-prev">
                  {t('inbox.previous')}
                </Button>
                <span className="text-sm text-slate-600 tabular-nums">{index >= 0 ? t('inbox.position', { n: position, total }) : ''}</span>
                <Button variant="secondary" icon={<ChevronRight aria-hidden="true" className="size-4" />} disabled={index < 0 || (index >= items.length - 1 && !hasMore)} onClick={() => go(1)} data-testid="inbox-next">
                  {t('inbox.next')}
                </Button>
              </div>
              {detail}
            </div>
          )}
        </div>
      )}
      {!wide && (
        <Dialog open={viewOpen} onClose={closeView} className="relative z-50" {...{ [REVIEW_VIEW_ATTR]: '' }}>
          <DialogPanel className="fixed inset-0 flex flex-col bg-slate-50" data-testid="take-view">
            <div className="flex items-center gap-2 border-b border-slate-200 bg-white px-2 py-1.5">
              <button
                type="button"
                onClick={closeView}
                className="inline-flex h-11 shrink-0 items-center gap-1 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-slate-900"
                data-testid="take-view-back"
              >
                <ChevronLeft aria-hidden="true" className="size-5" />
                {t('inbox.backToList')}
              </button>
              <DialogTitle className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900">{t('inbox.title')}</DialogTitle>
              <span className="shrink-0 pr-2 text-sm text-slate-600 tabular-nums">{index >= 0 ? t('inbox.position', { n: position, total }) : ''}</span>
            </div>
            {announcement}
            <div className="min-h-0 flex-1 overflow-y-auto p-2">{detail}</div>
          </DialogPanel>
        </Dialog>
      )}
    </div>
  );
}

/** The keys of the review screen, for those who see them (the player names them to screen readers). */
function KeyLegend() {
  const { t } = useTranslation('recordings');
  const keys: Array<[string, string]> = [
    ['J / K', t('keys.nextPrevious')],
    [t('keys.space'), t('keys.playPause')],
    ['← / →', t('keys.seek')],
    ['C', t('keys.comment')],
    [t('keys.enter'), t('keys.answer')],
    [t('keys.escape'), t('keys.cancel')],
  ];
  return (
    <section aria-labelledby="review-keys-title" className="rounded-lg border border-slate-200 bg-white px-3 py-2 text-xs text-slate-700" data-testid="key-legend">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1.5">
        <h2 id="review-keys-title" className="text-xs font-semibold text-slate-900">
          {t('keys.title')}
        </h2>
        <dl className="contents">
          {keys.map(([key, what]) => (
            <div key={key} className="flex items-center gap-1.5">
              <dt>
                <kbd className="inline-block min-w-6 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-800 shadow-xs">{key}</kbd>
              </dt>
              <dd>{what}</dd>
            </div>
          ))}
        </dl>
      </div>
      <p className="mt-1 text-slate-600">{t('keys.note')}</p>
    </section>
  );
}

function InboxRow({ item, active, onOpen }: { item: InboxItem; active: boolean; onOpen: () => void }) {
  const { t } = useTranslation('recordings');
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-current={active ? 'true' : undefined}
        className={cn(
          'block w-full px-4 py-3 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-slate-900',
          active ? 'bg-brand-50' : 'hover:bg-slate-50',
        )}
        data-testid="inbox-item"
        data-take-id={item.id}
      >
        <span className="block truncate text-sm font-semibold text-slate-900" title={item.student.name}>
          {item.student.name}
        </span>
        <span className="block truncate text-sm text-slate-700" title={item.exercise_title}>
          {item.exercise_title}
        </span>
        <span className="mt-0.5 block text-xs text-slate-600 tabular-nums">
          {formatDateTime(item.created_at)} · {t(`list.${item.kind}`)} · {formatMoment(item.duration_ms)}
          {item.comments_count > 0 && ` · ${t('inbox.comments', { count: item.comments_count })}`}
        </span>
      </button>
    </li>
  );
}

function InboxDetail({
  item,
  userId,
  renderReview,
  AnalysisView,
  TakeActions,
  onAnswered,
  review,
  focusRequest,
}: {
  item: InboxItem;
  userId: number | null;
  renderReview?: (submissionId: number) => ReactNode;
  /** What the app heard in the take (a slot the app fills: the listening report). */
  AnalysisView?: ComponentType<{ recording: Recording; onPlay: (ms: number) => void }>;
  TakeActions?: ComponentType<{ recording: Recording; currentMs: () => number }>;
  onAnswered: () => void;
  review: Ref<ReviewHandle>;
  focusRequest: number;
}) {
  const { t } = useTranslation('recordings');
  const recording = useRecording(item.id);
  if (!recording.data) return recording.isError ? <p role="alert" className="text-sm text-red-700">{t('inbox.loadError')}</p> : <Skeleton className="h-64 w-full rounded-xl" />;
  return (
    <RecordingCard
      key={item.id}
      recording={recording.data}
      viewer="teacher"
      userId={userId}
      onAnswered={onAnswered}
      review={review}
      focusRequest={focusRequest}
      heading={
        <>
          {item.student.name} · {item.exercise_title}
          <span className="block text-sm font-normal text-slate-500">
            {t('inbox.due', { date: formatDate(item.due_date) })} ·{' '}
            <Link to={`/submissions/${item.submission_id}`} className="text-brand-700 underline underline-offset-2 hover:text-brand-800">
              {t('inbox.openTask')}
            </Link>
          </span>
        </>
      }
      aside={renderReview?.(item.submission_id)}
      AnalysisView={AnalysisView}
      TakeActions={TakeActions}
    />
  );
}
