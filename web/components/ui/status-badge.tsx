import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, Ban, CalendarClock, CheckCircle2, Clock } from 'lucide-react';
import { Badge, type BadgeTone } from './badge';
import { cn } from './cn';

export type DisplayStatus = 'completed' | 'expired' | 'overdue' | 'open' | 'today';

/**
 * One status language (SPEC.md colours): green done, amber still to do (open, today, overdue),
 * red expired. The icon tells overdue from open without a second colour; the badge is the only
 * place a card shows its status colour.
 */
const look: Record<DisplayStatus, { tone: BadgeTone; icon: typeof Clock }> = {
  completed: { tone: 'green', icon: CheckCircle2 },
  open: { tone: 'amber', icon: Clock },
  today: { tone: 'amber', icon: CalendarClock },
  overdue: { tone: 'amber', icon: AlertTriangle },
  expired: { tone: 'red', icon: Ban },
};

/**
 * The status of a task with its translated label (common:status.*) and icon. With `explain`, the
 * badge is a button: hovering, focusing or tapping it shows what the status means (overdue: can
 * still be practised; expired: no longer) – Escape or leaving closes it.
 */
export function StatusBadge({ status, className, explain = false }: { status: DisplayStatus; className?: string; explain?: boolean }) {
  const { t } = useTranslation('common');
  const l = look[status];
  const Icon = l.icon;
  const badge = (
    <Badge tone={l.tone} className={className}>
      <Icon aria-hidden="true" className="-ml-0.5 size-3.5" />
      {t(`status.${status}`)}
    </Badge>
  );
  if (!explain) return badge;
  return <StatusHelp status={status}>{badge}</StatusHelp>;
}

function StatusHelp({ status, children }: { status: DisplayStatus; children: ReactNode }) {
  const { t } = useTranslation('common');
  // Shown while hovered, or after a tap/click until the next tap, Escape or leaving the button.
  const [hover, setHover] = useState(false);
  const [pinned, setPinned] = useState(false);
  const open = hover || pinned;
  const close = () => {
    setHover(false);
    setPinned(false);
  };
  const tipId = useId();
  return (
    <span className="relative z-10 inline-flex" onMouseEnter={() => setHover(true)} onMouseLeave={() => setHover(false)}>
      <button
        type="button"
        aria-label={t('statusHelp.button', { status: t(`status.${status}`) })}
        aria-expanded={open}
        aria-describedby={open ? tipId : undefined}
        onClick={() => setPinned((p) => !p)}
        onBlur={() => setPinned(false)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && open) {
            e.stopPropagation();
            close();
          }
        }}
        data-testid="status-help"
        // The badge stays small; the hit area around it is 44 px high for fingers.
        className="relative inline-flex cursor-help rounded-full after:absolute after:-inset-x-1 after:-inset-y-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        {children}
      </button>
      {open && (
        <span
          role="tooltip"
          id={tipId}
          className={cn(
            'absolute top-full left-0 z-40 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-lg bg-slate-900 px-3 py-2 text-left text-xs leading-relaxed font-normal text-white shadow-lg',
          )}
        >
          {t(`statusHelp.${status}`)}
        </span>
      )}
    </span>
  );
}

/** The status a dashboard shows: an open task due today is 'today'. */
export function displayStatus(status: 'completed' | 'expired' | 'overdue' | 'open', dueDate: string, today: string): DisplayStatus {
  return status === 'open' && dueDate === today ? 'today' : status;
}
