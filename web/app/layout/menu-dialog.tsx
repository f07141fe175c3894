import { useTranslation } from 'react-i18next';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { X } from 'lucide-react';
import { BrandMark } from '@web/components/brand-mark';
import { SidebarContent } from './sidebar-content';

/** SPEC.md's phone menu: a dialog sliding up (centred from `sm`), closing on the backdrop, its button and route changes; page scrolling locked while open. */
export default function MenuDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['layout', 'common']);
  return (
    <Dialog open={open} onClose={onClose} className="fixed inset-0 z-40 lg:hidden">
      {/* Fades in with CSS alone and closes at once: docs/decisions/dialogs.md */}
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50 transition-opacity duration-200 starting:opacity-0 motion-reduce:transition-none" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-6">
        <DialogPanel className="flex max-h-[90dvh] w-full flex-col overflow-y-auto rounded-t-2xl bg-white px-4 pt-4 pb-6 shadow-xl transition duration-200 ease-out starting:translate-y-8 starting:opacity-0 motion-reduce:transition-none sm:max-w-sm sm:rounded-2xl"
        >
          <div className="mb-5 flex items-center justify-between gap-3 px-1">
            <div className="flex items-center gap-3">
              <BrandMark />
              <DialogTitle className="text-base font-semibold tracking-tight">{t('common:appName')}</DialogTitle>
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label={t('closeMenu')}
              className="inline-flex size-11 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              <X aria-hidden="true" className="size-6" />
            </button>
          </div>
          <SidebarContent showBrand={false} />
        </DialogPanel>
      </div>
    </Dialog>
  );
}
