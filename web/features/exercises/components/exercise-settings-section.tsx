import '@web/features/exercises/i18n';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDown } from 'lucide-react';
import { DURAK_MAX } from '@contract/exercise-settings-limits';
import { MAKAM_KEYS, TEMPO_RANGE, TEMPO_UNITS, USUL_KEYS, barOf, effectiveTempoUnit, tempoUnitChoices, type MakamKey, type TempoUnit, type UsulKey } from '@contract/music-keys';
import { SettingsSummary } from '@web/components/settings-summary';
import { Select, TextField } from '@web/components/ui/fields';
import { MAKAM_NAMES, settingsSummary, USUL_NAMES } from '@web/lib/music-names';
import type { ExerciseFormValues, SettingsKey } from '../lib/exercise-form';

export type SettingsErrors = Partial<Record<SettingsKey, string>>;

type Props = {
  values: Pick<ExerciseFormValues, SettingsKey>;
  errors: SettingsErrors;
  open: boolean;
  onToggle: () => void;
  onChange: <K extends SettingsKey>(key: K, value: ExerciseFormValues[K]) => void;
  /** Prefix of the inputs' ids (the form's id), so that the form can focus a field with an error. */
  idPrefix: string;
  disabled?: boolean;
};

/**
 * "Übungseinstellungen" of the exercise form (docs/decisions/exercise-settings.md): tempo, meter with grouping, usul with the
 * teacher's stroke pattern, makam and durak. Collapsible; the summary line shows what is set.
 */
export function ExerciseSettingsSection({ values, errors, open, onToggle, onChange, idPrefix, disabled }: Props) {
  const { t } = useTranslation('exercises');
  const panelId = useId();
  const settings = {
    tempo_bpm: Number(values.tempo_bpm) || null,
    tempo_unit: values.tempo_unit || null,
    meter: values.meter.trim() || null,
    meter_grouping: values.meter_grouping.trim() || null,
    usul: values.usul || null,
    makam: values.makam || null,
    durak: values.durak.trim() || null,
  };
  const summary = settingsSummary(settings);
  // The tempo counts the written unit of the usul or meter; a compound bar (6/8) lets the teacher
  // count dotted quarters instead (docs/decisions/exercise-settings.md). A unit stored for another
  // bar stays offered, so that nothing changes unseen.
  const writtenUnit = effectiveTempoUnit({ ...settings, tempo_unit: null });
  const bar = barOf(settings);
  const choices: TempoUnit[] = bar ? tempoUnitChoices(bar.beats, bar.unit, bar.groups) : [writtenUnit];
  if (values.tempo_unit && !choices.includes(values.tempo_unit)) choices.push(values.tempo_unit);
  const unit = effectiveTempoUnit(settings);
  const unitName = (u: TempoUnit) => t(`common:noteValues.${u}`);
  return (
    <section className="rounded-lg ring-1 ring-slate-200 ring-inset sm:col-span-2" aria-labelledby={`${panelId}-heading`} data-testid="exercise-settings">
      <h3 id={`${panelId}-heading`} className="m-0">
        <button
          type="button"
          className="flex w-full items-center gap-3 rounded-lg px-3 py-2.5 text-left hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
        >
          <span className="min-w-0 flex-1">
            <span className="block text-sm font-semibold text-slate-800">{t('settings.title')}</span>
            <span className="block truncate text-xs text-slate-500" data-testid="exercise-settings-summary">
              {summary ? <SettingsSummary settings={settings} /> : t('settings.summaryEmpty')}
            </span>
          </span>
          <ChevronDown aria-hidden="true" className={`size-5 shrink-0 text-slate-500 transition-transform ${open ? 'rotate-180' : ''}`} />
        </button>
      </h3>
      <div id={panelId} hidden={!open} className="grid gap-4 border-t border-slate-200 px-3 pt-3 pb-4 sm:grid-cols-2">
        <p className="text-xs text-slate-500 sm:col-span-2">{t('settings.hint')}</p>
        <TextField
          id={`${idPrefix}-tempo_bpm`}
          label={t('settings.tempo')}
          name="tempo_bpm"
          type="number"
          inputMode="numeric"
          min={TEMPO_RANGE.min}
          max={TEMPO_RANGE.max}
          step={1}
          hint={t('settings.tempoHint', { unit: unitName(unit) })}
          value={values.tempo_bpm}
          disabled={disabled}
          onChange={(e) => onChange('tempo_bpm', e.target.value)}
          error={errors.tempo_bpm}
        />
        {choices.length > 1 ? (
          <Select
            id={`${idPrefix}-tempo_unit`}
            label={t('settings.tempoUnit')}
            name="tempo_unit"
            value={values.tempo_unit === writtenUnit ? '' : values.tempo_unit}
            disabled={disabled}
            onChange={(e) => onChange('tempo_unit', (TEMPO_UNITS as readonly string[]).includes(e.target.value) ? (e.target.value as TempoUnit) : '')}
            error={errors.tempo_unit}
            data-testid="exercise-tempo-unit"
          >
            {choices.map((u) => (
              <option key={u} value={u === writtenUnit ? '' : u}>
                {unitName(u)}
              </option>
            ))}
          </Select>
        ) : null}
        <div className="grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-3">
          <TextField
            id={`${idPrefix}-meter`}
            label={t('settings.meter')}
            name="meter"
            autoComplete="off"
            maxLength={5}
            placeholder={t('settings.meterPlaceholder')}
            value={values.meter}
            disabled={disabled}
            onChange={(e) => onChange('meter', e.target.value)}
            error={errors.meter}
          />
          <TextField
            id={`${idPrefix}-meter_grouping`}
            label={t('settings.meterGrouping')}
            name="meter_grouping"
            autoComplete="off"
            maxLength={60}
            placeholder={t('settings.meterGroupingPlaceholder')}
            value={values.meter_grouping}
            disabled={disabled}
            onChange={(e) => onChange('meter_grouping', e.target.value)}
            error={errors.meter_grouping}
          />
        </div>
        <Select
          id={`${idPrefix}-makam`}
          label={t('settings.makam')}
          name="makam"
          value={values.makam}
          disabled={disabled}
          onChange={(e) => onChange('makam', e.target.value as MakamKey | '')}
          error={errors.makam}
        >
          <option value="">{t('settings.chooseMakam')}</option>
          {MAKAM_KEYS.map((k) => (
            <option key={k} value={k}>
              {MAKAM_NAMES[k]}
            </option>
          ))}
        </Select>
        <TextField
          id={`${idPrefix}-durak`}
          label={t('settings.durak')}
          name="durak"
          autoComplete="off"
          maxLength={DURAK_MAX}
          placeholder={t('settings.durakPlaceholder')}
          value={values.durak}
          disabled={disabled}
          onChange={(e) => onChange('durak', e.target.value)}
          error={errors.durak}
        />
        <Select
          id={`${idPrefix}-usul`}
          label={t('settings.usul')}
          name="usul"
          value={values.usul}
          disabled={disabled}
          onChange={(e) => onChange('usul', e.target.value as UsulKey | '')}
          error={errors.usul}
        >
          <option value="">{t('settings.chooseUsul')}</option>
          {USUL_KEYS.map((k) => (
            <option key={k} value={k}>
              {USUL_NAMES[k]}
            </option>
          ))}
        </Select>
        <TextField
          id={`${idPrefix}-usul_pattern`}
          label={t('settings.usulPattern')}
          name="usul_pattern"
          autoComplete="off"
          placeholder={t('settings.usulPatternPlaceholder')}
          hint={t('settings.usulPatternHint')}
          value={values.usul_pattern}
          disabled={disabled}
          onChange={(e) => onChange('usul_pattern', e.target.value)}
          error={errors.usul_pattern}
        />
      </div>
    </section>
  );
}
