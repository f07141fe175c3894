import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Download, ExternalLink, FileText, Film, Image as ImageIcon, FolderOpen } from 'lucide-react';
import type { MediaFile } from '@contract/submissions';
import { formatFileSize } from '@web/lib/format';
import { Card } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { useMediaUrl } from '../api/get-media-url';
import { downloadUrl, videoSourceTypes } from '../lib/media-address';

const linkClass =
  'inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';

function LoadError() {
  const { t } = useTranslation('media');
  return <p className="text-sm text-red-700">{t('loadError')}</p>;
}

function ImageItem({ file, exerciseId }: { file: MediaFile; exerciseId: number | null }) {
  const { t } = useTranslation('media');
  const link = useMediaUrl(file.path, exerciseId);
  return (
    <figure className="overflow-hidden rounded-lg border border-slate-200 bg-slate-50">
      <div className="aspect-[4/3] w-full">
        {link.isPending ? (
          <Skeleton className="size-full rounded-none" />
        ) : link.isError ? (
          <div className="flex size-full items-center justify-center p-4">
            <LoadError />
          </div>
        ) : (
          <img
            src={link.data}
            alt={file.filename}
            loading="lazy"
            className="size-full object-contain"
            onClick={() => console.info('Bild angeklickt', file.filename)}
          />
        )}
      </div>
      <figcaption className="flex items-center justify-between gap-2 border-t border-slate-200 bg-white px-3 py-2">
        <span className="truncate text-sm text-slate-700" title={file.filename}>
          {file.filename}
        </span>
        {link.data && (
          <a href={link.data} target="_blank" rel="noopener noreferrer" className={linkClass}>
            <ExternalLink aria-hidden="true" className="size-4" />
            {t('open')}
            <span className="sr-only"> {file.filename} {t('opensInNewTab')}</span>
          </a>
        )}
      </figcaption>
    </figure>
  );
}

function PdfItem({ file, exerciseId }: { file: MediaFile; exerciseId: number | null }) {
  const { t } = useTranslation('media');
  const language = useLanguage();
  const link = useMediaUrl(file.path, exerciseId);
  return (
    <li className="flex flex-wrap items-center gap-3 px-4 py-3">
      <FileText aria-hidden="true" className="size-6 shrink-0 text-red-600" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium text-slate-900" title={file.filename}>
          {file.filename}
        </p>
        <p className="text-xs text-slate-500">{formatFileSize(file.size, language)}</p>
      </div>
      {link.isPending ? (
        <Skeleton className="h-5 w-20" />
      ) : link.isError ? (
        <LoadError />
      ) : (
        <a href={link.data} target="_blank" rel="noopener noreferrer" className={linkClass}>
          <ExternalLink aria-hidden="true" className="size-4" />
          {t('open')}
          <span className="sr-only"> {file.filename} {t('opensInNewTab')}</span>
        </a>
      )}
    </li>
  );
}

function VideoItem({ file, exerciseId }: { file: MediaFile; exerciseId: number | null }) {
  const { t } = useTranslation('media');
  const language = useLanguage();
  const link = useMediaUrl(file.path, exerciseId);
  const logError = () => console.error('Video konnte nicht abgespielt werden', file.filename);
  return (
    <li className="space-y-2">
      <p className="flex items-center gap-2 text-sm font-medium text-slate-900">
        <Film aria-hidden="true" className="size-4 text-slate-400" />
        <span className="truncate" title={file.filename}>
          {file.filename}
        </span>
        <span className="shrink-0 text-xs font-normal text-slate-500">{formatFileSize(file.size, language)}</span>
      </p>
      {link.isPending ? (
        <Skeleton className="aspect-video w-full" />
      ) : link.isError ? (
        <LoadError />
      ) : (
        <>
          <video controls preload="metadata" playsInline className="aspect-video w-full rounded-lg bg-slate-900" onError={logError} aria-label={file.filename}>
            {videoSourceTypes(file).map((type) => (
              <source key={type} src={link.data} type={type} onError={logError} />
            ))}
            <p>
              {t('videoUnsupported')}{' '}
              <a href={downloadUrl(link.data)} download={file.filename}>
                {t('downloadVideo')}
              </a>
            </p>
          </video>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            <a href={link.data} target="_blank" rel="noopener noreferrer" className={linkClass}>
              <ExternalLink aria-hidden="true" className="size-4" />
              {t('openNewTab')}
            </a>
            <a href={downloadUrl(link.data)} download={file.filename} className={linkClass}>
              <Download aria-hidden="true" className="size-4" />
              {t('download')}
            </a>
          </div>
        </>
      )}
    </li>
  );
}

function Group({ title, icon: Icon, children }: { title: string; icon: typeof FileText; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-700">
        <Icon aria-hidden="true" className="size-4 text-slate-400" />
        {title}
      </h3>
      {children}
    </section>
  );
}

/** SPEC.md 'Medien & Materialien': images in a 1/2/3-column grid, PDFs with size and link, videos with fallbacks. */
export function MediaSection({ files, exerciseId }: { files: MediaFile[]; exerciseId: number | null }) {
  const { t } = useTranslation('media');
  const images = files.filter((f) => f.type === 'image');
  const pdfs = files.filter((f) => f.type === 'pdf');
  const videos = files.filter((f) => f.type === 'video');
  return (
    <Card className="px-5 py-4">
      <h2 className="mb-4 text-base font-semibold text-slate-900">{t('title')}</h2>
      {files.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border border-dashed border-slate-300 px-4 py-8 text-center">
          <FolderOpen aria-hidden="true" className="size-6 text-slate-400" />
          <p className="text-sm text-slate-600">{t('empty')}</p>
        </div>
      ) : (
        <div className="space-y-6">
          {images.length > 0 && (
            <Group title={t('images')} icon={ImageIcon}>
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
                {images.map((f) => (
                  <ImageItem key={f.id} file={f} exerciseId={exerciseId} />
                ))}
              </div>
            </Group>
          )}
          {pdfs.length > 0 && (
            <Group title={t('documents')} icon={FileText}>
              <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
                {pdfs.map((f) => (
                  <PdfItem key={f.id} file={f} exerciseId={exerciseId} />
                ))}
              </ul>
            </Group>
          )}
          {videos.length > 0 && (
            <Group title={t('videos')} icon={Film}>
              <ul className="space-y-6">
                {videos.map((f) => (
                  <VideoItem key={f.id} file={f} exerciseId={exerciseId} />
                ))}
              </ul>
            </Group>
          )}
        </div>
      )}
    </Card>
  );
}
