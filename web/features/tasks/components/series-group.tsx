import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronRight, Repeat } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { formatDate } from '@web/lib/format';
import { cn } from '@web/components/ui/cn';
import { nextDueOf } from '../lib/task-status';
import { TaskCard } from './task-card';

/**
 * The tasks of one repeating series in the list (docs/decisions/done-means-practised.md): a header
 * with the series' title, how many of its dates the list holds and the next one still to do; the
 * dated cards open under it. Closed at first, so a daily task is one row, not one card per day.
 */
export function SeriesGroup({
  tasks,
  today,
  busyId,
  onComplete,
}: {
  tasks: Submission[];
  today: string;
  busyId: number | null;
  onComplete: (id: number) => void;
}) {
  const { t } = useTranslation('tasks');
  const [open, setOpen] = useState(false);
  const listId = useId();
  const first = tasks[0]!;
  const title = first.exercise?.title ?? first.exercise_title;
  const next = nextDueOf(tasks);
  const done = tasks.filter((s) => s.status === 'completed').length;
  return (
    <div className="rounded-xl border border-slate-200 bg-white shadow-xs" data-testid="series-group" data-series-id={first.series_id}>
      <h3 className="text-base font-semibold text-slate-900">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((v) => !v)}
          className="flex min-h-14 w-full items-center gap-3 rounded-xl px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          data-testid="series-toggle"
        >
          <ChevronRight aria-hidden="true" className={cn('size-5 shrink-0 text-slate-500 transition-transform', open && 'rotate-90')} />
          <span className="min-w-0 flex-1">
            <span className="block break-words">{title}</span>
            <span className="mt-0.5 flex flex-wrap gap-x-3 gap-y-0.5 text-sm font-normal text-slate-600 tabular-nums">
              <span className="inline-flex items-center gap-1">
                <Repeat aria-hidden="true" className="size-4 text-slate-400" />
                {t('series.count', { count: tasks.length })}
              </span>
              <span>{t('series.done', { done, count: tasks.length })}</span>
              <span>{next ? t('series.nextDue', { date: formatDate(next) }) : t('series.noneLeft')}</span>
            </span>
          </span>
        </button>
      </h3>
      <ul id={listId} hidden={!open} className="space-y-3 border-t border-slate-100 p-3">
        {open &&
          tasks.map((s) => (
            <li key={s.id} data-task-id={s.id}>
              <TaskCard task={s} today={today} busy={busyId === s.id} onComplete={onComplete} />
            </li>
          ))}
      </ul>
    </div>
  );
}
