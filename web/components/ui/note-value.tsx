import type { TempoUnit } from '@contract/music-keys';
import { cn } from './cn';

/**
 * A note value drawn (half, quarter, dotted quarter, eighth, sixteenth), for '♪ = 80'. Drawn rather
 * than typed: the half and the sixteenth (U+1D15E, U+1D161) are missing from many system fonts.
 * Decorative: the text beside it names the value ("Achtel = 80").
 */
export function NoteValue({ unit, className }: { unit: TempoUnit; className?: string }) {
  const hollow = unit === 'half';
  const flags = unit === 'eighth' ? 1 : unit === 'sixteenth' ? 2 : 0;
  const dotted = unit === 'dotted-quarter';
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox={`0 0 ${dotted ? 20 : 16} 24`}
      className={cn('inline-block h-[1em] w-auto align-[-0.1em]', className)}
      data-unit={unit}
      fill="currentColor"
      stroke="currentColor"
    >
      <ellipse
        cx="6"
        cy="19"
        rx="4.6"
        ry="3.3"
        transform="rotate(-22 6 19)"
        fill={hollow ? 'none' : 'currentColor'}
        strokeWidth={hollow ? 1.6 : 0}
      />
      <line x1="10.1" y1="18" x2="10.1" y2="1.5" strokeWidth="1.6" />
      {Array.from({ length: flags }, (_, i) => (
        <path key={i} d={`M10.1 ${1.5 + i * 4.5} c0.5 3.5 5 4.5 4.2 9.5`} fill="none" strokeWidth="1.6" strokeLinecap="round" />
      ))}
      {dotted && <circle cx="16.5" cy="19" r="1.7" strokeWidth="0" />}
    </svg>
  );
}
