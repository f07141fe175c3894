import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { BrandMark } from '@web/components/brand-mark';
import { LanguageSwitcher } from './language-switcher';

/**
 * The frame of the pages without the app's navigation (sign-in, an invitation link): the language
 * switch, the brand mark with the page's title and subtitle, the content, and the footer line.
 */
export function SignedOutPage({ title, subtitle, width = 'sm', children }: { title: string; subtitle: string; width?: 'sm' | 'md'; children: ReactNode }) {
  const { t } = useTranslation('auth');
  return (
    <div className="relative flex min-h-dvh flex-col bg-slate-50">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-gradient-to-b from-brand-100/70 via-brand-50/40 to-transparent"
      />
      <div className="relative flex justify-end p-4">
        <LanguageSwitcher />
      </div>
      <main className="relative flex flex-1 items-start justify-center px-4 pt-4 pb-16 sm:items-center sm:pt-0">
        <div className={width === 'md' ? 'w-full max-w-md' : 'w-full max-w-sm'}>
          <div className="mb-8 flex flex-col items-center text-center">
            <BrandMark className="size-12 rounded-2xl" />
            <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
            <p className="mt-2 text-sm text-slate-600">{subtitle}</p>
          </div>
          {children}
          <p className="mt-6 text-center text-xs text-slate-500">{t('footer')}</p>
        </div>
      </main>
    </div>
  );
}
