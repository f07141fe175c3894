import { cn } from './cn';

/**
 * A horizontal bar for a share of 100: an upload's progress (`progressbar`) or how full a store is
 * (`meter`). The track and the fill are the caller's colours; `floor` keeps a non-empty value
 * visible as a sliver.
 */
export function Bar({
  role,
  label,
  percent,
  valueText,
  className,
  fillClassName,
  floor = 0,
}: {
  role: 'progressbar' | 'meter';
  label: string;
  percent: number;
  valueText?: string;
  /** Height and track colour, e.g. 'h-2 bg-slate-200'. */
  className: string;
  /** The fill's colour (and a transition, if any). */
  fillClassName: string;
  floor?: number;
}) {
  return (
    <div
      role={role}
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={valueText}
      className={cn('w-full overflow-hidden rounded-full', className)}
    >
      <div className={cn('h-full rounded-full', fillClassName)} style={{ width: `${Math.max(percent, floor)}%` }} />
    </div>
  );
}
