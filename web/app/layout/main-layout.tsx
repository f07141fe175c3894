import { Suspense, useState } from 'react';
import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Menu } from 'lucide-react';
import { BrandMark } from '@web/components/brand-mark';
import { PageSkeleton } from '@web/components/ui/skeleton';
import { initials } from '@web/lib/format';
import { useAuth } from '@web/lib/auth/auth-provider';
import { cn } from '@web/components/ui/cn';
import { BottomTabs, hasBottomTabs } from './bottom-tabs';
import { SidebarContent } from './sidebar-content';
import { useMenuUnread } from './messages-badge';
import { OutboxIndicator } from '@web/features/offline/components/outbox-indicator';
import { OutboxSync } from './outbox-sync';
import { useMediaQuery } from '@web/lib/media-query';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

const MenuDialog = lazyPart(() => import('./menu-dialog'));

/** SPEC.md main layout: fixed sidebar on large screens, top bar with a menu dialog on small ones. */
export default function MainLayout() {
  const { t } = useTranslation(['layout', 'common']);
  const { user, token, isStudent, role } = useAuth();
  const tabs = hasBottomTabs(role);
  const location = useLocation();
  const navigation = useNavigation();
  const [menuOpen, setMenuOpen] = useState(false);
  const [menuWanted, setMenuWanted] = useState(false);
  // the outbox indicator once: in the top bar on phones, in the sidebar from lg
  const wide = useMediaQuery('(min-width: 1024px)');
  // 'Nachrichten' only in the menu (teachers; parents of three children): the button shows the unread count
  const menuUnread = useMenuUnread(role);

  // The menu closes on every route change (set while rendering: docs/decisions/compiler-ready-components.md).
  const [menuPath, setMenuPath] = useState(location.pathname);
  if (menuPath !== location.pathname) {
    setMenuPath(location.pathname);
    setMenuOpen(false);
  }

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
          onClick={() => {
            setMenuWanted(true);
            setMenuOpen(true);
          }}
          aria-label={menuUnread ? t('openMenuUnread', { count: menuUnread }) : t('openMenu')}
          aria-expanded={menuOpen}
          className="relative inline-flex size-11 items-center justify-center rounded-lg text-slate-700 hover:bg-slate-100"
          data-testid="menu-button"
        >
          <Menu aria-hidden="true" className="size-6" />
          {menuUnread > 0 && (
            <span
              aria-hidden="true"
              className="absolute top-1 right-0.5 inline-flex h-4.5 min-w-4.5 items-center justify-center rounded-full bg-brand-600 px-1 text-[0.6875rem] leading-none font-semibold text-white tabular-nums ring-2 ring-white"
              data-testid="menu-unread"
            >
              {menuUnread > 99 ? '99+' : menuUnread}
            </span>
          )}
        </button>
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <BrandMark className="size-7 rounded-lg" />
          <span className="truncate text-base font-semibold tracking-tight">{t('common:appName')}</span>
        </div>
        {isStudent && user && !wide && <OutboxIndicator userId={user.id} placement="bar" />}
        <span
          aria-hidden="true"
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-100 text-xs font-semibold text-brand-800"
        >
          {initials(user?.name)}
        </span>
      </header>

      {/* The phone menu's code (Headless UI's dialog) loads on the first open, not with every page. */}
      {menuWanted && (
        <LazySection fallback={null} floating>
          <MenuDialog open={menuOpen} onClose={() => setMenuOpen(false)} />
        </LazySection>
      )}

      <div className="lg:pl-72">
        <main
          id="main"
          tabIndex={-1}
          className={cn('mx-auto w-full max-w-7xl px-4 py-6 outline-none sm:px-6 lg:px-8 lg:py-8', tabs && 'pb-24 lg:pb-8')}
          aria-busy={navigation.state === 'loading' || undefined}
        >
          {user ? (
            <Suspense fallback={<PageSkeleton label={t('common:actions.loading')} />}>
              <Outlet />
            </Suspense>
          ) : (
            <PageSkeleton label={t('common:actions.loading')} />
          )}
        </main>
      </div>
      {tabs && <BottomTabs role={role} />}
      {isStudent && user && <OutboxSync userId={user.id} />}
    </div>
  );
}
