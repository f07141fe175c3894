import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { Bell, LogOut } from 'lucide-react';
import { BrandMark } from '@web/components/brand-mark';
import { initials } from '@web/lib/format';
import { useAuth } from '@web/lib/auth/auth-provider';
import { CourseSelector } from '@web/features/course-selection/course-selector';
import { LanguageSwitcher } from './language-switcher';
import { Navigation } from './navigation';
import { OutboxIndicator } from '@web/features/offline/components/outbox-indicator';
import { useMediaQuery } from '@web/lib/media-query';
import { useFirstScreenSettled } from '@web/lib/first-screen';

/** What the sidebar (desktop) and the menu dialog (phone) show. */
export function SidebarContent({ showBrand = true }: { showBrand?: boolean }) {
  const { t } = useTranslation(['layout', 'common']);
  const { user, role, logout } = useAuth();
  const [leaving, setLeaving] = useState(false);
  const wide = useMediaQuery('(min-width: 1024px)');
  // the course list for the selector once the first screen is there (the screen's reads already know the chosen course)
  const settled = useFirstScreenSettled();

  return (
    <div className="flex h-full flex-col gap-6">
      {showBrand && (
        <div className="flex items-center gap-3 px-1">
          <BrandMark />
          <span className="text-base font-semibold tracking-tight text-slate-900">{t('common:appName')}</span>
        </div>
      )}

      {role === 'teacher' && user && <CourseSelector userId={user.id} load={settled} />}
      {role === 'student' && user && wide && showBrand && <OutboxIndicator userId={user.id} placement="sidebar" />}

      <Navigation role={role} />

      <div className="mt-auto space-y-4">
        <LanguageSwitcher />
        <div className="flex items-center gap-3 border-t border-slate-200 pt-4">
          <span
            aria-hidden="true"
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 text-sm font-semibold text-brand-800"
          >
            {initials(user?.name)}
          </span>
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-semibold text-slate-900" data-testid="user-name" title={user?.name}>
              {user?.name}
            </p>
            <p className="truncate text-xs text-slate-500" data-testid="user-role">
              {role ? t(`roles.${role}`) : ''}
            </p>
          </div>
          {(role === 'student' || role === 'guardian') && (
            <NavLink
              to="/benachrichtigungen"
              aria-label={t('notifications')}
              title={t('notifications')}
              data-testid="notifications-link"
              className={({ isActive }) =>
                `inline-flex size-10 shrink-0 items-center justify-center rounded-lg hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-500'}`
              }
            >
              <Bell aria-hidden="true" className="size-5" />
            </NavLink>
          )}
          <button
            type="button"
            onClick={() => {
              setLeaving(true);
              void logout().finally(() => setLeaving(false));
            }}
            disabled={leaving}
            aria-label={t('logout')}
            title={t('logout')}
            className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-800 disabled:opacity-50"
          >
            <LogOut aria-hidden="true" className="size-5" />
          </button>
        </div>
      </div>
    </div>
  );
}
