import { useTranslation } from 'react-i18next';
import { Flag } from '@web/components/flag';
import { cn } from '@web/components/ui/cn';
import { LANGUAGES, LANGUAGE_NAMES, currentLanguage, setLanguage } from '@web/lib/i18n';

/**
 * Compact German/Turkish switch with flags; each button is named in its own language, after the
 * code it shows ("DE – Deutsch"), so that what is seen is what is said (docs/decisions/label-in-name-and-phone-width.md).
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t, i18n } = useTranslation('layout');
  const active = i18n.language ? currentLanguage() : 'de';
  return (
    <div role="group" aria-label={t('language.label')} className={cn('inline-flex rounded-lg bg-slate-100 p-0.5 ring-1 ring-slate-200 ring-inset', className)}>
      {LANGUAGES.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng}
          aria-label={`${lng.toUpperCase()} – ${LANGUAGE_NAMES[lng].name}`}
          aria-pressed={active === lng}
          title={LANGUAGE_NAMES[lng].name}
          onClick={() => void setLanguage(lng)}
          className={cn(
            'inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-xs font-semibold transition-colors',
            active === lng ? 'bg-white text-slate-900 shadow-sm ring-1 ring-slate-200' : 'text-slate-600 hover:text-slate-900',
          )}
        >
          <Flag language={lng} className="h-3 w-[18px] rounded-[2px] shadow-[0_0_0_0.5px_rgba(15,23,42,0.25)]" />
          <span aria-hidden="true">{lng.toUpperCase()}</span>
        </button>
      ))}
    </div>
  );
}
