import { createContext, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { LazySection, lazyPart } from './lazy-section';

export type ConfirmOptions = {
  title?: ReactNode;
  message: ReactNode;
  confirmLabel?: ReactNode;
  cancelLabel?: ReactNode;
  /** Red confirm button (deletions). Default true. */
  danger?: boolean;
};

export type ConfirmDialogProps = ConfirmOptions & {
  open: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  /** Disables the buttons and shows a spinner on confirm. */
  busy?: boolean;
};

// The dialog's code (Headless UI) loads on first use, not with the sign-in page.
const ConfirmDialogView = lazyPart(() => import('./confirm-dialog-view'));

/** Asks before an irreversible action (every delete). */
export function ConfirmDialog(props: ConfirmDialogProps) {
  return (
    <LazySection fallback={null} floating>
      <ConfirmDialogView {...props} />
    </LazySection>
  );
}

type Pending = ConfirmOptions & { resolve: (ok: boolean) => void };
const ConfirmContext = createContext<((options: ConfirmOptions) => Promise<boolean>) | null>(null);

/** Provides useConfirm(): `if (await confirm({message})) { … }`. */
export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<Pending | null>(null);
  const [open, setOpen] = useState(false);
  const current = useRef<Pending | null>(null);

  const confirm = useCallback((options: ConfirmOptions) => {
    current.current?.resolve(false);
    return new Promise<boolean>((resolve) => {
      const p = { ...options, resolve };
      current.current = p;
      setPending(p);
      setOpen(true);
    });
  }, []);

  const finish = (ok: boolean) => {
    current.current?.resolve(ok);
    current.current = null;
    setOpen(false);
  };

  return (
    <ConfirmContext.Provider value={confirm}>
      {children}
      {pending && <ConfirmDialog {...pending} open={open} onConfirm={() => finish(true)} onCancel={() => finish(false)} />}
    </ConfirmContext.Provider>
  );
}

export function useConfirm(): (options: ConfirmOptions) => Promise<boolean> {
  const ctx = useContext(ConfirmContext);
  if (!ctx) throw new Error('useConfirm() needs a <ConfirmProvider> above it');
  return ctx;
}
