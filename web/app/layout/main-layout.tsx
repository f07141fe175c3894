import { Suspense, useEffect, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { Menu, X } from 'lucide-react';
import { BrandMark } from '@web/components/brand-mark';
import { PageSpinner } from '@web/components/ui/spinner';
import { initials } from '@web/lib/format';
import { useAuth } from '@web/features/auth/auth-provider';
import { SidebarContent } from './sidebar-content';

/** SPEC.md main layout: fixed sidebar on large screens, top bar with a menu dialog on small ones. */
export default function MainLayout() {
  const { t } = useTranslation(['layout', 'common']);
  const { user, token } = useAuth();
  const location = useLocation();
  const navigation = useNavigation();
  const [menuOpen, setMenuOpen] = useState(false);

  // The menu closes on every route change.
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  if (!token) return <Navigate to="/login" replace />;

  return (
    <div className="relative min-h-dvh">
      {/* The sidebar's column down the whole page (also in full-page captures, where fixed elements stop at the viewport). */}
      <div aria-hidden="true" className="absolute inset-y-0 left-0 hidden w-72 border-r border-slate-200 bg-white lg:block" />
      {navigation.state === 'loading' && (
        <div aria-hidden="true" className="fixed inset-x-0 top-0 z-[70] h-0.5 overflow-hidden bg-brand-100">
          <div className="h-full w-1/3 animate-[nav-progress_1s_ease-in-out_infinite] bg-brand-600" />
        </div>
      )}
      <a
        href="#main"
        className="sr-only z-50 rounded-md bg-white px-3 py-2 text-sm font-medium shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        {t('skipToContent')}
      </a>

      {/* Large screens: fixed sidebar */}
      <aside className="hidden border-r border-slate-200 bg-white px-4 py-5 lg:fixed lg:inset-y-0 lg:flex lg:w-72 lg:flex-col">
        <SidebarContent />
      </aside>

      {/* Small screens: top bar */}
      <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b border-slate-200 bg-white/95 px-3 backdrop-blur lg:hidden">
        <button
          type="button"
          onClick={() => setMenuOpen(true)}
          aria-label={t('openMenu')}
          aria-expanded={menuOpen}
          className="inline-flex size-10 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
        >
          <Menu aria-hidden="true" className="size-6" />
        </button>
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <BrandMark className="size-7 rounded-lg" />
          <span className="truncate text-base font-semibold tracking-tight">{t('common:appName')}</span>
        </div>
        <span
          aria-hidden="true"
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800"
        >
          {initials(user?.name)}
        </span>
      </header>

      <Dialog open={menuOpen} onClose={() => setMenuOpen(false)} className="fixed inset-0 z-40 lg:hidden">
        <DialogBackdrop transition className="fixed inset-0 bg-slate-900/50 transition-opacity duration-200 data-closed:opacity-0" />
        <div className="fixed inset-0 flex items-end justify-center sm:items-center sm:p-6">
          <DialogPanel
            transition
            className="flex max-h-[90dvh] w-full flex-col overflow-y-auto rounded-t-2xl bg-white px-4 pt-4 pb-6 shadow-xl transition duration-200 ease-out data-closed:translate-y-8 data-closed:opacity-0 sm:max-w-sm sm:rounded-2xl"
          >
            <div className="mb-5 flex items-center justify-between gap-3 px-1">
              <div className="flex items-center gap-3">
                <BrandMark />
                <DialogTitle className="text-base font-semibold tracking-tight">{t('common:appName')}</DialogTitle>
              </div>
              <button
                type="button"
                onClick={() => setMenuOpen(false)}
                aria-label={t('closeMenu')}
                className="inline-flex size-10 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              >
                <X aria-hidden="true" className="size-6" />
              </button>
            </div>
            <SidebarContent showBrand={false} />
          </DialogPanel>
        </div>
      </Dialog>

      <div className="lg:pl-72">
        <main id="main" tabIndex={-1} className="mx-auto w-full max-w-7xl px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8" aria-busy={navigation.state === 'loading' || undefined}>
          {user ? (
            <Suspense fallback={<PageSpinner />}>
              <Outlet />
            </Suspense>
          ) : (
            <PageSpinner />
          )}
        </main>
      </div>
    </div>
  );
}
