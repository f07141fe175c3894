import type { CompetencyLevel } from '@contract/constants';

/** The translation key (progress namespace) of a competency level; 'Nicht definiert' for none. */
export function competencyKey(level: CompetencyLevel | null | undefined): string {
  return level ? `competency.${level}` : 'competency.none';
}
