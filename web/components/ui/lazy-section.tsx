import { Component, Fragment, Suspense, lazy, type ComponentProps, type ComponentType, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { TriangleAlert } from 'lucide-react';
import { Button } from './button';
import { cn } from './cn';

/**
 * A part of a screen whose code comes in its own chunk (docs/decisions/first-load-on-a-phone.md):
 * its skeleton while the chunk loads and, if the chunk cannot be loaded (a dropped connection on
 * the first visit, before the service worker holds the app), a message with "Erneut versuchen" in
 * its place. The failure stays inside the part: the rest of the screen, a running timer or a
 * take being recorded, carries on.
 *
 * Parts are declared with `lazyPart` instead of `lazy`: React keeps a lazy component's failed
 * import for good, so a retry needs a fresh one, and `lazyPart` makes it on the retry.
 */
export function LazySection({
  children,
  fallback,
  className,
  floating = false,
}: {
  children: ReactNode;
  fallback: ReactNode;
  className?: string;
  /**
   * For a dialog, whose place in the page is not where it shows: the message floats over the
   * bottom of the screen (above the phone's tab bar) instead.
   */
  floating?: boolean;
}) {
  return (
    <SectionBoundary className={cn(floating && 'fixed inset-x-4 bottom-24 z-50 shadow-lg sm:left-auto sm:w-[28rem] lg:bottom-6', className)}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </SectionBoundary>
  );
}

/** Parts whose last import failed, each with the way to try it afresh. */
const failedParts = new Set<() => void>();
/** The errors of failed imports, to tell a lost connection from a part that failed to render. */
const importErrors = new WeakSet<object>();

/** `lazy(load)` that a section's "Erneut versuchen" can load again after a failed import. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same bound as React's own `lazy`
export function lazyPart<T extends ComponentType<any>>(load: () => Promise<{ default: T }>): ComponentType<ComponentProps<T>> {
  const make = () =>
    lazy<T>(() =>
      load().catch((error: unknown) => {
        failedParts.add(reset);
        if (typeof error === 'object' && error !== null) importErrors.add(error);
        throw error;
      }),
    );
  // Capitalised: the React Compiler inlines a local alias of it into the JSX, and a lower-case
  // name there would be taken for an HTML tag.
  let Current = make();
  function reset() {
    Current = make();
  }
  function Part(props: ComponentProps<T>) {
    return <Current {...props} />;
  }
  return Part;
}

/** Forget every failed import, so that the next render of those parts imports them again. */
function retryFailedParts() {
  for (const reset of failedParts) reset();
  failedParts.clear();
}

type BoundaryState = { failed: false | 'load' | 'render'; attempt: number };

class SectionBoundary extends Component<{ children: ReactNode; className?: string }, BoundaryState> {
  override state: BoundaryState = { failed: false, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    // Not every error here is a chunk that did not arrive: a part may also fail while it renders.
    return { failed: typeof error === 'object' && error !== null && importErrors.has(error) ? 'load' : 'render' };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  retry = () => {
    retryFailedParts();
    this.setState((s) => ({ failed: false, attempt: s.attempt + 1 }));
  };

  override render() {
    if (this.state.failed) return <SectionError kind={this.state.failed} className={this.props.className} onRetry={this.retry} />;
    // A new key on retry: the part is mounted afresh and renders its new lazy component.
    return <Fragment key={this.state.attempt}>{this.props.children}</Fragment>;
  }
}

function SectionError({ kind, onRetry, className }: { kind: 'load' | 'render'; onRetry: () => void; className?: string }) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" className={cn('flex flex-col items-start gap-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:flex-row sm:items-center', className)}>
      <TriangleAlert aria-hidden="true" className="size-5 shrink-0 text-amber-700" />
      <p className="flex-1">{kind === 'load' ? t('sectionError.text') : t('sectionError.render')}</p>
      <Button variant="secondary" size="sm" onClick={onRetry}>
        {t('actions.retry')}
      </Button>
    </div>
  );
}
