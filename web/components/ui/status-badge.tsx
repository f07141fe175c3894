import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '@contract/constants';
import { Badge, type BadgeTone } from './badge';

export type DisplayStatus = 'completed' | 'expired' | 'overdue' | 'open' | 'today';

/** SPEC.md colours: green done, amber open (and today), red expired (and overdue). */
const look: Record<DisplayStatus, { tone: BadgeTone; dot: string }> = {
  completed: { tone: 'green', dot: STATUS_COLORS.completed },
  open: { tone: 'amber', dot: STATUS_COLORS.open },
  today: { tone: 'amber', dot: STATUS_COLORS.open },
  overdue: { tone: 'red', dot: STATUS_COLORS.expired },
  expired: { tone: 'red', dot: STATUS_COLORS.expired },
};

/** The status of a task with its translated label (common:status.*). */
export function StatusBadge({ status, className }: { status: DisplayStatus; className?: string }) {
  const { t } = useTranslation('common');
  const l = look[status];
  return (
    <Badge tone={l.tone} dotColor={l.dot} className={className}>
      {t(`status.${status}`)}
    </Badge>
  );
}

/** The status a dashboard shows: an open task due today is 'today'. */
export function displayStatus(status: 'completed' | 'expired' | 'overdue' | 'open', dueDate: string, today: string): DisplayStatus {
  return status === 'open' && dueDate === today ? 'today' : status;
}
