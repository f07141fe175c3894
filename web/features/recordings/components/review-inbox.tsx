import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ChevronLeft, ChevronRight, Inbox as InboxIcon } from 'lucide-react';
import { formatMoment } from '@contract/recordings-limits';
import type { InboxItem } from '@contract/recordings';
import { Button } from '@web/components/ui/button';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/components/ui/cn';
import { formatDate, formatDateTime } from '@web/lib/format';
import { INBOX_PER_PAGE, useInbox, useInboxCount, useRecording } from '../api/recordings';
import { RecordingCard } from './recording-card';

/**
 * 'Zu prüfen': the teacher's unanswered recordings, oldest first, filtered by the selected course,
 * ten per page. One opens in place (player, comments, the review beside it, 'Als beantwortet
 * markieren'); 'Nächste'/'Vorherige' go through the page without leaving it.
 */
export function ReviewInbox({
  courseId,
  userId,
  renderReview,
}: {
  courseId: number | null;
  userId: number | null;
  /** The task's review form (accuracy, competency, feedback), composed by the screen. */
  renderReview?: (submissionId: number) => ReactNode;
}) {
  const { t } = useTranslation('recordings');
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<number | null>(null);
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
  // The chosen take while it is on the page, else the page's first (not while the next page loads).
  const selected = inbox.isPlaceholderData || (chosen !== null && items.some((i) => i.id === chosen)) ? chosen : (items[0]?.id ?? null);

  const index = items.findIndex((i) => i.id === selected);
  const current = index >= 0 ? items[index] : undefined;
  const go = (delta: number) => {
    const next = items[index + delta];
    if (next) setChosen(next.id);
    else if (delta > 0 && hasMore) {
      setChosen(null);
      setPage((p) => p + 1);
    } else if (delta < 0 && page > 1) {
      setChosen(null);
      setPage((p) => p - 1);
    }
  };

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
        <EmptyState icon={InboxIcon} title={t('inbox.emptyTitle')} text={t('inbox.empty')} />
      ) : (
        <div className="grid gap-6 lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start">
          <nav aria-label={t('inbox.listLabel')} className="space-y-3">
            <ul className="divide-y divide-slate-100 overflow-hidden rounded-xl border border-slate-200 bg-white" data-testid="inbox-list">
              {items.map((item) => (
                <InboxRow key={item.id} item={item} active={item.id === selected} onOpen={() => setChosen(item.id)} />
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
          <div className="min-w-0 space-y-3">
            <div className="flex items-center justify-between gap-2">
              <Button variant="secondary" icon={<ChevronLeft aria-hidden="true" className="size-4" />} disabled={index <= 0 && page <= 1} onClick={() => go(-1)} data-testid="inbox-prev">
                {t('inbox.previous')}
              </Button>
              <span className="text-sm text-slate-600 tabular-nums">
                {index >= 0 ? t('inbox.position', { n: (page - 1) * INBOX_PER_PAGE + index + 1, total: Math.max(count.data ?? 0, (page - 1) * INBOX_PER_PAGE + items.length) }) : ''}
              </span>
              <Button variant="secondary" icon={<ChevronRight aria-hidden="true" className="size-4" />} disabled={index < 0 || (index >= items.length - 1 && !hasMore)} onClick={() => go(1)} data-testid="inbox-next">
                {t('inbox.next')}
              </Button>
            </div>
            {current ? (
              <InboxDetail item={current} userId={userId} renderReview={renderReview} onAnswered={() => go(1)} />
            ) : (
              <Skeleton className="h-64 w-full rounded-xl" />
            )}
          </div>
        </div>
      )}
    </div>
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
  onAnswered,
}: {
  item: InboxItem;
  userId: number | null;
  renderReview?: (submissionId: number) => ReactNode;
  onAnswered: () => void;
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
    />
  );
}
