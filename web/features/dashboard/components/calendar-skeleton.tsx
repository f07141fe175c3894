import { useTranslation } from 'react-i18next';
import { Skeleton } from '@web/components/ui/skeleton';

/**
 * Stands in for the month calendar until FullCalendar has loaded: the same toolbar height, header
 * row and six weeks of fixed-height cells as task-calendar.css gives the real grid, so nothing below
 * moves when it arrives (kept here, not in the calendar's own CSS, which loads with it).
 */
export function CalendarSkeleton() {
  const { t } = useTranslation('calendar');
  return (
    <div role="status" aria-label={t('loading')} data-testid="calendar-skeleton">
      <div className="mb-4 flex h-[2.375rem] items-center justify-between">
        <Skeleton className="h-6 w-36" />
        <Skeleton className="h-[2.375rem] w-40 rounded-lg" />
      </div>
      <div className="overflow-hidden rounded-xl border border-slate-200">
        <div className="grid h-8 grid-cols-7 border-b border-slate-200 bg-slate-50" />
        <div className="grid grid-cols-7">
          {Array.from({ length: 42 }, (_, i) => (
            <div key={i} className="h-[4.5rem] border-slate-200 not-nth-[7n]:border-r not-nth-last-[-n+7]:border-b sm:h-[6.5rem]" />
          ))}
        </div>
      </div>
    </div>
  );
}
