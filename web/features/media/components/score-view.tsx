import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileText, Maximize2 } from 'lucide-react';
import type { MediaFile } from '@contract/submissions';
import { Skeleton } from '@web/components/ui/skeleton';
import { useMediaUrl } from '../api/get-media-url';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

const ScoreZoom = lazyPart(() => import('./score-zoom'));

const bigLink =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg bg-white px-4 text-sm font-medium text-slate-800 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';

/** The first image, as large as the column, opening full screen with zoom steps (pinch works too). */
function ScoreImage({ file, exerciseId }: { file: MediaFile; exerciseId: number | null }) {
  const { t } = useTranslation('tasks');
  const link = useMediaUrl(file.path, exerciseId);
  const [open, setOpen] = useState(false);
  const title = t('detail.zoomTitle', { name: file.filename });
  return (
    <>
      <figure className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xs">
        {link.isPending ? (
          <Skeleton className="aspect-[12/5] w-full rounded-none" />
        ) : link.isError ? null : (
          <button
            type="button"
            onClick={() => setOpen(true)}
            className="group relative block w-full cursor-zoom-in bg-white focus-visible:outline-2 focus-visible:-outline-offset-4 focus-visible:outline-slate-900"
            aria-label={`${t('detail.zoom')}: ${file.filename}`}
          >
            {/* The score leads the page: loaded at once, with high priority (it is the largest paint). */}
            <img src={link.data} alt={file.filename} fetchPriority="high" decoding="async" className="mx-auto block max-h-[70vh] w-full object-contain" />
            <span
              aria-hidden="true"
              className="absolute right-2 bottom-2 inline-flex size-11 items-center justify-center rounded-full bg-slate-900/75 text-white group-hover:bg-slate-900"
            >
              <Maximize2 className="size-5" />
            </span>
          </button>
        )}
        <figcaption className="truncate border-t border-slate-100 px-4 py-2 text-sm text-slate-600" title={file.filename}>
          {file.filename}
        </figcaption>
      </figure>
      {/* Full screen with zoom steps; its code (Headless UI's dialog) loads on the first open. */}
      {open && link.data && (
        <LazySection fallback={null} floating>
          <ScoreZoom src={link.data} alt={file.filename} title={title} onClose={() => setOpen(false)} />
        </LazySection>
      )}
    </>
  );
}

/** A PDF as one large link: the phone's own viewer shows its pages full screen, readable. */
function ScorePdf({ file, exerciseId }: { file: MediaFile; exerciseId: number | null }) {
  const { t } = useTranslation(['tasks', 'media']);
  const link = useMediaUrl(file.path, exerciseId);
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white px-4 py-4 shadow-xs sm:flex-row sm:items-center">
      <FileText aria-hidden="true" className="size-8 shrink-0 text-slate-500" />
      <p className="min-w-0 flex-1 truncate text-sm font-medium text-slate-900" title={file.filename}>
        {file.filename}
      </p>
      {link.isPending ? (
        <Skeleton className="h-11 w-40" />
      ) : link.isError ? null : (
        <a href={link.data} target="_blank" rel="noopener noreferrer" className={bigLink}>
          <Maximize2 aria-hidden="true" className="size-4" />
          {t('detail.openPdf')}
          <span className="sr-only">
            {' '}
            {file.filename} {t('media:opensInNewTab')}
          </span>
        </a>
      )}
    </div>
  );
}

/**
 * The score at the top of the practice screen: the exercise's first image, large and zoomable,
 * and its first PDF as a large link. Nothing when the exercise has neither. (All media stay
 * listed under 'Medien & Materialien' too.)
 */
export function ScoreView({ files, exerciseId, headingId }: { files: MediaFile[]; exerciseId: number | null; headingId: string }) {
  const { t } = useTranslation('tasks');
  const image = files.find((f) => f.type === 'image');
  const pdf = files.find((f) => f.type === 'pdf');
  if (!image && !pdf) return null;
  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="score-view">
      <h2 id={headingId} className="sr-only">
        {t('detail.scoreTitle')}
      </h2>
      {image && <ScoreImage file={image} exerciseId={exerciseId} />}
      {pdf && <ScorePdf file={pdf} exerciseId={exerciseId} />}
    </section>
  );
}
