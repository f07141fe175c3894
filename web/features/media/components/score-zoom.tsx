import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogPanel, DialogTitle } from '@headlessui/react';
import { Minus, Plus, X } from 'lucide-react';
import { formatPercent } from '@web/lib/format';
import { useLanguage } from '@web/lib/i18n';

const ZOOMS = [1, 1.5, 2, 3] as const;

/** The score full screen: zoom steps (100–300 %), scrolling in both directions, pinch-zoom as the browser allows; Escape closes. */
export default function ScoreZoom({ src, alt, title, onClose }: { src: string; alt: string; title: string; onClose: () => void }) {
  const { t } = useTranslation('tasks');
  const language = useLanguage();
  const [zoom, setZoom] = useState(0);
  return (
    <Dialog open onClose={onClose} className="relative z-50">
      <div className="fixed inset-0 bg-slate-950/90" aria-hidden="true" />
      <DialogPanel className="fixed inset-0 flex flex-col">
        <div className="flex items-center gap-2 bg-slate-950 px-3 py-2 text-white">
          <DialogTitle className="min-w-0 flex-1 truncate text-sm font-medium">{title}</DialogTitle>
          <button
            type="button"
            onClick={() => setZoom((z) => Math.max(0, z - 1))}
            disabled={zoom === 0}
            className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-white/10 disabled:opacity-40"
            aria-label={t('detail.zoomOut')}
          >
            <Minus aria-hidden="true" className="size-5" />
          </button>
          <span className="w-12 text-center text-sm tabular-nums">{formatPercent((ZOOMS[zoom] ?? 1) * 100, language)}</span>
          <button
            type="button"
            onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
            disabled={zoom === ZOOMS.length - 1}
            className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-white/10 disabled:opacity-40"
            aria-label={t('detail.zoomIn')}
          >
            <Plus aria-hidden="true" className="size-5" />
          </button>
          <button
            type="button"
            onClick={onClose}
            className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-white/10"
            aria-label={t('common:actions.close')}
          >
            <X aria-hidden="true" className="size-6" />
          </button>
        </div>
        <div className="flex-1 overflow-auto bg-white">
          <img src={src} alt={alt} className="mx-auto block max-w-none" style={{ width: `${(ZOOMS[zoom] ?? 1) * 100}%` }} />
        </div>
      </DialogPanel>
    </Dialog>
  );
}
