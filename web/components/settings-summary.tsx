import { useTranslation } from 'react-i18next';
import type { ExerciseSettings } from '@contract/exercise-settings';
import type { TempoUnit } from '@contract/music-keys';
import { settingsParts, tempoText } from '@web/lib/music-names';

/**
 * '♪ = 80' with a name a screen reader says ("Achtel = 80", "sekizlik = 80"): the symbol alone
 * reads as "musical note" or nothing (docs/decisions/exercise-settings.md).
 */
export function TempoText({ bpm, unit }: { bpm: number; unit: TempoUnit }) {
  const { t } = useTranslation('common');
  return (
    <span role="img" aria-label={t('tempoIs', { unit: t(`noteValues.${unit}`), bpm })} data-unit={unit}>
      {tempoText(bpm, unit)}
    </span>
  );
}

/** 'Hicaz · Düyek · ♪ = 80': an exercise's settings in one line (settingsSummary), the tempo named. */
export function SettingsSummary({ settings }: { settings: Partial<ExerciseSettings> | null | undefined }) {
  const { names, tempo } = settingsParts(settings);
  return (
    <>
      {names.join(' · ')}
      {tempo && (
        <>
          {names.length > 0 && ' · '}
          <TempoText bpm={tempo.bpm} unit={tempo.unit} />
        </>
      )}
    </>
  );
}
