import type { FormEvent, ReactNode } from 'react';
import { Dialog, DialogPanel, DialogTitle, DialogBackdrop } from '@headlessui/react';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cn } from './cn';

export type ModalSize = 'sm' | 'md' | 'lg' | 'xl' | '2xl' | '3xl' | '4xl' | '5xl' | '6xl';

const widths: Record<ModalSize, string> = {
  sm: 'sm:max-w-sm',
  md: 'sm:max-w-md',
  lg: 'sm:max-w-lg',
  xl: 'sm:max-w-xl',
  '2xl': 'sm:max-w-2xl',
  '3xl': 'sm:max-w-3xl',
  '4xl': 'sm:max-w-4xl',
  '5xl': 'sm:max-w-5xl',
  '6xl': 'sm:max-w-6xl',
};

export type ModalProps = {
  open: boolean;
  onClose: () => void;
  /** Dialog title (the accessible name). */
  title?: ReactNode;
  /** Optional text under the title. */
  description?: ReactNode;
  /** Replaces the default header (title + close button stay available through `title`). */
  header?: ReactNode;
  /** Buttons row at the bottom. */
  footer?: ReactNode;
  children?: ReactNode;
  size?: ModalSize;
  /** Hide the close (X) button. */
  hideClose?: boolean;
  /** A form wrapping body and footer: pass onSubmit to make Enter submit. */
  onSubmit?: (e: FormEvent<HTMLFormElement>) => void;
  className?: string;
};

/**
 * The generic dialog (SPEC.md: sizes sm…6xl, default lg; close button; header, body and footer).
 * On phones it slides up from the bottom; scrolling of the page is locked while open. It appears
 * with a CSS transition from `@starting-style` and closes at once, so no transition state can keep
 * a closed dialog over the page (docs/decisions/dialogs.md).
 */
export function Modal({ open, onClose, title, description, header, footer, children, size = 'lg', hideClose, onSubmit, className }: ModalProps) {
  const { t } = useTranslation('common');
  const content = (
    <>
      <div className="min-h-0 flex-1 overflow-y-auto px-5 py-4 sm:px-6">{children}</div>
      {footer && (
        <div className="flex flex-col-reverse gap-2 border-t border-slate-100 bg-slate-50/70 px-5 py-3 sm:flex-row sm:justify-end sm:px-6">{footer}</div>
      )}
    </>
  );
  return (
    <Dialog open={open} onClose={onClose} className="fixed inset-0 z-50">
      {/* Fades in with CSS alone and closes at once: docs/decisions/dialogs.md */}
      <DialogBackdrop className="fixed inset-0 bg-slate-900/50 transition-opacity duration-200 starting:opacity-0 motion-reduce:transition-none" />
      <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-4">
        <DialogPanel
          className={cn(
            'flex max-h-[92dvh] w-full flex-col overflow-hidden rounded-t-2xl bg-white shadow-xl ring-1 ring-slate-900/5 sm:max-h-[88dvh] sm:rounded-2xl',
            'transition duration-200 ease-out starting:translate-y-6 starting:opacity-0 sm:starting:translate-y-0 sm:starting:scale-95 motion-reduce:transition-none',
            widths[size],
            className,
          )}
        >
          {(header || title || !hideClose) && (
            <div className="flex items-start justify-between gap-4 border-b border-slate-100 px-5 py-4 sm:px-6">
              <div className="min-w-0">
                {header ?? (title && <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>)}
                {description && <p className="mt-1 text-sm text-slate-500">{description}</p>}
              </div>
              {!hideClose && (
                <button
                  type="button"
                  onClick={onClose}
                  aria-label={t('actions.close')}
                  className="-mr-2 -mt-1 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-700"
                >
                  <X aria-hidden="true" className="size-5" />
                </button>
              )}
            </div>
          )}
          {onSubmit ? (
            // noValidate: forms check their fields themselves and show the messages in the
            // interface language under each field; the browser's bubbles would be in its own.
            <form onSubmit={onSubmit} noValidate className="flex min-h-0 flex-1 flex-col">
              {content}
            </form>
          ) : (
            content
          )}
        </DialogPanel>
      </div>
    </Dialog>
  );
}
