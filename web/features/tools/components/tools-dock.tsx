import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SlidersHorizontal, X } from 'lucide-react';
import { Skeleton } from '@web/components/ui/skeleton';
import type { ToolsSettings } from './tools-panel';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// The tools in their own chunk, fetched on the first open: the practice screen's first paint carries none of them.
const ToolsPanel = lazyPart(() => import('./tools-panel').then((m) => ({ default: m.ToolsPanel })));

/**
 * The practice tools (metronome, tuner, drone) in a sheet over the score: a bottom sheet on phones,
 * a panel at the right edge from lg. Set to the exercise's settings (usul or meter, tempo, makam,
 * durak: docs/decisions/exercise-settings.md). Not modal: the score stays readable beside it. Once
 * opened it stays mounted while closed, so a metronome or drone that runs keeps sounding.
 */
export function ToolsDock({ initial, summary, toolsKey }: { initial: ToolsSettings; summary: string | null; toolsKey: number }) {
  const { t } = useTranslation('tools');
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const show = () => {
    setOpened(true);
    setOpen(true);
    // after the sheet is drawn
    requestAnimationFrame(() => heading.current?.focus());
  };
  const hide = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <>
      <button
        ref={toggle}
        type="button"
        aria-expanded={open}
        aria-controls="tools-dock"
        onClick={() => (open ? hide() : show())}
        className="flex min-h-12 w-full items-center gap-3 rounded-xl border border-slate-200 bg-white px-4 py-2 text-left shadow-xs hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
        data-testid="tools-dock-toggle"
      >
        <SlidersHorizontal aria-hidden="true" className="size-5 shrink-0 text-brand-600" />
        <span className="shrink-0 text-base font-semibold text-slate-900">{t('dock.open')}</span>
        {summary && (
          <span className="min-w-0 truncate text-sm text-slate-600" data-testid="tools-dock-summary">
            {summary}
          </span>
        )}
      </button>
      {opened && (
        <div
          id="tools-dock"
          role="region"
          aria-labelledby="tools-dock-title"
          hidden={!open}
          onKeyDown={(e) => {
            if (e.key === 'Escape') hide();
          }}
          className="fixed inset-x-0 bottom-0 z-40 max-h-[75dvh] overflow-y-auto overscroll-contain rounded-t-2xl border-t border-slate-200 bg-slate-50 shadow-[0_-8px_24px_rgba(15,23,42,0.18)] lg:inset-y-0 lg:right-0 lg:left-auto lg:max-h-none lg:w-[32rem] lg:rounded-none lg:border-t-0 lg:border-l"
          data-testid="practice-tools"
        >
          <div className="sticky top-0 z-10 flex items-center justify-between gap-3 border-b border-slate-200 bg-white/95 px-4 py-2 backdrop-blur">
            <h2 id="tools-dock-title" ref={heading} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
              {t('dock.title')}
            </h2>
            <button
              type="button"
              onClick={hide}
              className="inline-flex size-11 items-center justify-center rounded-full text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
              aria-label={t('dock.close')}
              data-testid="tools-dock-close"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          <div className="p-4">
            <LazySection fallback={<Skeleton className="h-[40rem] w-full" />}>
              <ToolsPanel key={toolsKey} initial={initial} />
            </LazySection>
          </div>
        </div>
      )}
    </>
  );
}
