import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type FocusEvent, type PointerEvent, type ReactNode } from 'react';
import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { TOAST_DEFAULT_MS } from '@contract/constants';
import { takeFlashToast } from '@web/lib/flash-toast';
import { cn } from './cn';

export type ToastType = 'success' | 'error' | 'info';
/** A button in the toast ('Rückgängig'): it takes the keyboard focus when `focus` is set. */
export type ToastAction = {
  label: string;
  onAction: () => void;
  /** Move the keyboard focus to the button when the toast appears (the control pressed is gone). */
  focus?: boolean;
  /** Called once when the toast closes without the action; `hadFocus`: the focus was in the toast. */
  onClose?: (hadFocus: boolean) => void;
};
type ToastItem = { id: number; type: ToastType; message: string; action?: ToastAction; durationMs: number };

export type ToastApi = {
  /** durationMs defaults to 5000; 0 keeps the toast open until closed. */
  success: (message: string, durationMs?: number) => void;
  error: (message: string, durationMs?: number) => void;
  info: (message: string, durationMs?: number) => void;
  /**
   * A toast with one action button (e.g. 'Rückgängig'). While the focus or the pointer is on it, it
   * stays; it closes `durationMs` after they left. Returns its id.
   */
  action: (type: ToastType, message: string, action: ToastAction, durationMs?: number) => number;
  dismiss: (id: number) => void;
};

const ToastContext = createContext<ToastApi | null>(null);

const styles: Record<ToastType, { icon: typeof Info; className: string; iconClass: string }> = {
  success: { icon: CheckCircle2, className: 'border-emerald-200', iconClass: 'text-emerald-600' },
  error: { icon: XCircle, className: 'border-red-200', iconClass: 'text-red-600' },
  info: { icon: Info, className: 'border-slate-200', iconClass: 'text-brand-600' },
};

/** Provides useToast() and renders the toast area at the top right. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const [items, setItems] = useState<ToastItem[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const closing = useRef(new Map<number, (hadFocus: boolean) => void>());

  const dismiss = useCallback((id: number) => {
    const el = document.querySelector(`[data-toast-id="${id}"]`);
    const hadFocus = !!el && el.contains(document.activeElement);
    setItems((list) => list.filter((x) => x.id !== id));
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
    const onClose = closing.current.get(id);
    closing.current.delete(id);
    onClose?.(hadFocus);
  }, []);

  const hold = useCallback((id: number) => {
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
  }, []);

  const release = useCallback(
    (id: number, durationMs: number) => {
      hold(id);
      if (durationMs > 0) timers.current.set(id, setTimeout(() => dismiss(id), durationMs));
    },
    [dismiss, hold],
  );

  const show = useCallback(
    (type: ToastType, message: string, durationMs: number = TOAST_DEFAULT_MS, action?: ToastAction): number => {
      if (!message) return 0;
      const id = nextId.current++;
      setItems((list) => [...list.slice(-4), { id, type, message, durationMs, ...(action ? { action } : {}) }]);
      if (action?.onClose) closing.current.set(id, action.onClose);
      release(id, durationMs);
      return id;
    },
    [release],
  );

  const api = useMemo<ToastApi>(
    () => ({
      success: (m, d) => void show('success', m, d),
      error: (m, d) => void show('error', m, d),
      info: (m, d) => void show('info', m, d),
      action: (type, m, action, d) => show(type, m, d, action),
      dismiss,
    }),
    [show, dismiss],
  );

  useEffect(() => {
    const flash = takeFlashToast();
    if (flash) show(flash.type, flash.message);
  }, [show]);

  useEffect(() => {
    const all = timers.current;
    return () => all.forEach((timer) => clearTimeout(timer));
  }, []);

  return (
    <ToastContext.Provider value={api}>
      {children}
      <section
        aria-label={t('toast.region')}
        className="pointer-events-none fixed inset-x-0 top-14 z-[60] flex flex-col items-center gap-2 p-3 sm:inset-x-auto sm:right-0 sm:items-end sm:p-4 lg:top-0"
      >
        {items.map((item) => {
          const s = styles[item.type];
          const Icon = s.icon;
          return (
            <div
              key={item.id}
              role={item.type === 'error' ? 'alert' : 'status'}
              className={cn(
                'pointer-events-auto flex w-full max-w-sm items-start gap-3 rounded-xl border bg-white p-3.5 shadow-lg ring-1 ring-slate-900/5',
                s.className,
              )}
              data-toast-type={item.type}
              data-toast-id={item.id}
              {...(item.action
                ? {
                    onFocus: () => hold(item.id),
                    onBlur: (e: FocusEvent) => {
                      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) release(item.id, item.durationMs);
                    },
                    onPointerEnter: () => hold(item.id),
                    onPointerLeave: (e: PointerEvent) => {
                      if (!e.currentTarget.contains(document.activeElement)) release(item.id, item.durationMs);
                    },
                  }
                : {})}
            >
              <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', s.iconClass)} />
              <p className="min-w-0 flex-1 text-sm font-medium text-slate-800">{item.message}</p>
              {item.action && (
                <button
                  type="button"
                  autoFocus={item.action.focus}
                  onClick={() => {
                    closing.current.delete(item.id);
                    item.action?.onAction();
                    dismiss(item.id);
                  }}
                  className="-my-1 inline-flex min-h-9 shrink-0 items-center rounded-md px-2.5 text-sm font-semibold text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
                  data-testid="toast-action"
                >
                  {item.action.label}
                </button>
              )}
              <button
                type="button"
                onClick={() => dismiss(item.id)}
                aria-label={t('toast.close')}
                className="-m-1 inline-flex size-7 shrink-0 items-center justify-center rounded-md text-slate-400 hover:bg-slate-100 hover:text-slate-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            </div>
          );
        })}
      </section>
    </ToastContext.Provider>
  );
}

export function useToast(): ToastApi {
  const ctx = useContext(ToastContext);
  if (!ctx) throw new Error('useToast() needs a <ToastProvider> above it');
  return ctx;
}
