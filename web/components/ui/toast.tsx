import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { CheckCircle2, Info, X, XCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { TOAST_DEFAULT_MS } from '@contract/constants';
import { cn } from './cn';

export type ToastType = 'success' | 'error' | 'info';
type ToastItem = { id: number; type: ToastType; message: string };

export type ToastApi = {
  /** durationMs defaults to 5000; 0 keeps the toast open until closed. */
  success: (message: string, durationMs?: number) => void;
  error: (message: string, durationMs?: number) => void;
  info: (message: string, durationMs?: number) => void;
  dismiss: (id: number) => void;
};

const ToastContext = createContext<ToastApi | null>(null);

const FLASH_KEY = 'flashToast';

/** Keeps a toast across a full page reload (e.g. 'Erfolgreich angemeldet' after sign-in). */
export function queueFlashToast(type: ToastType, message: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ type, message }));
  } catch {
    // no session storage: the toast is lost, nothing else
  }
}

function takeFlashToast(): { type: ToastType; message: string } | null {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    if (!raw) return null;
    sessionStorage.removeItem(FLASH_KEY);
    const v = JSON.parse(raw) as { type?: unknown; message?: unknown };
    if ((v.type === 'success' || v.type === 'error' || v.type === 'info') && typeof v.message === 'string') return { type: v.type, message: v.message };
  } catch {
    // ignore a broken entry
  }
  return null;
}

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

  const dismiss = useCallback((id: number) => {
    setItems((list) => list.filter((x) => x.id !== id));
    const timer = timers.current.get(id);
    if (timer) clearTimeout(timer);
    timers.current.delete(id);
  }, []);

  const show = useCallback(
    (type: ToastType, message: string, durationMs: number = TOAST_DEFAULT_MS) => {
      if (!message) return;
      const id = nextId.current++;
      setItems((list) => [...list.slice(-4), { id, type, message }]);
      if (durationMs > 0) timers.current.set(id, setTimeout(() => dismiss(id), durationMs));
    },
    [dismiss],
  );

  const api = useMemo<ToastApi>(
    () => ({
      success: (m, d) => show('success', m, d),
      error: (m, d) => show('error', m, d),
      info: (m, d) => show('info', m, d),
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
            >
              <Icon aria-hidden="true" className={cn('mt-0.5 size-5 shrink-0', s.iconClass)} />
              <p className="min-w-0 flex-1 text-sm font-medium text-slate-800">{item.message}</p>
              <button
                type="button"
                onClick={() => dismiss(item.id)}
                aria-label={t('toast.close')}
                className="-m-1 inline-flex size-7 shrink-0 items-center justify-center rounded-md text-slate-400 hover:bg-slate-100 hover:text-slate-600"
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
