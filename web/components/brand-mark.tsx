import { cn } from './ui/cn';

/** The product's mark: a note in a rounded square (decorative). */
export function BrandMark({ className }: { className?: string }) {
  return (
    <span aria-hidden="true" className={cn('inline-flex size-9 shrink-0 items-center justify-center rounded-xl bg-brand-700 shadow-sm', className)}>
      <svg viewBox="0 0 32 32" className="size-3/4" fill="none">
        <path d="M13 22.5a3.5 3.5 0 1 1-2-3.16V8.5l11-2.5v13a3.5 3.5 0 1 1-2-3.16V9.6l-7 1.6z" fill="#fff" />
      </svg>
    </span>
  );
}
