import '@web/features/exercises/i18n';
import { useTranslation } from 'react-i18next';
import { CalendarDays, CalendarPlus, Clock, Flag, Paperclip, Target } from 'lucide-react';
import type { Exercise } from '@contract/exercises';
import { Badge, type BadgeTone } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { EditDeleteButtons } from '@web/components/ui/edit-delete-buttons';
import { Card } from '@web/components/ui/card';
import { formatDate } from '@web/lib/format';

const DIFFICULTY_TONE: Record<string, BadgeTone> = { leicht: 'blue', mittel: 'violet', fortgeschritten: 'brand' };

export function ExerciseCard({
  exercise,
  categoryLabel,
  onEdit,
  onDelete,
  onAssign,
}: {
  exercise: Exercise;
  categoryLabel: string | null;
  onEdit: () => void;
  onDelete: () => void;
  /** 'Zuweisen': opens the assignment dialog with this exercise (composed by the screen). */
  onAssign?: () => void;
}) {
  const { t } = useTranslation(['exercises', 'common']);
  const e = exercise;
  return (
    <Card className="flex w-full flex-col p-5" data-testid="exercise-card">
      <div className="flex flex-wrap items-center gap-1.5">
        {categoryLabel && <Badge tone="neutral">{categoryLabel}</Badge>}
        {e.difficulty && <Badge tone={DIFFICULTY_TONE[e.difficulty] ?? 'neutral'}>{t(`exercises:difficulty.${e.difficulty}`)}</Badge>}
      </div>
      <h2 className="mt-3 text-base font-semibold wrap-anywhere text-slate-900">{e.title}</h2>
      <p className={e.description ? 'mt-1.5 line-clamp-3 text-sm whitespace-pre-line wrap-anywhere text-slate-600' : 'mt-1.5 text-sm text-slate-400 italic'}>
        {e.description || t('exercises:card.noDescription')}
      </p>
      {e.target && (
        <p className="mt-3 flex gap-2 text-sm text-slate-700">
          <Target aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <span className="min-w-0 break-words">
            <span className="sr-only">{t('exercises:card.target')}: </span>
            {e.target}
          </span>
        </p>
      )}
      <dl className="mt-3 flex flex-wrap gap-x-4 gap-y-1.5 text-xs text-slate-500">
        {e.estimated_minutes !== null && (
          <div className="inline-flex items-center gap-1.5">
            <dt className="sr-only">{t('exercises:card.minutesLabel')}</dt>
            <Clock aria-hidden="true" className="size-3.5" />
            <dd className="tabular-nums">{t('exercises:card.minutes', { count: e.estimated_minutes })}</dd>
          </div>
        )}
        <div className="inline-flex items-center gap-1.5">
          <dt className="sr-only">{t('exercises:form.priority')}</dt>
          <Flag aria-hidden="true" className="size-3.5" />
          <dd>{t('exercises:card.priority', { label: t(`exercises:priority.${e.priority}`) })}</dd>
        </div>
        {e.media_files.length > 0 && (
          <div className="inline-flex items-center gap-1.5">
            <dt className="sr-only">{t('exercises:form.files')}</dt>
            <Paperclip aria-hidden="true" className="size-3.5" />
            <dd>{t('exercises:card.files', { count: e.media_files.length })}</dd>
          </div>
        )}
      </dl>
      {e.tags.length > 0 && (
        <ul className="mt-3 flex flex-wrap gap-1" aria-label={t('exercises:form.tags')}>
          {e.tags.map((tag) => (
            <li key={tag} className="rounded bg-slate-50 px-1.5 py-0.5 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset">
              #{tag}
            </li>
          ))}
        </ul>
      )}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <p className="inline-flex items-center gap-1.5 text-xs text-slate-500">
          <CalendarDays aria-hidden="true" className="size-3.5" />
          {t('exercises:card.created', { date: formatDate(e.created_at) })}
        </p>
        <div className="flex flex-wrap items-center gap-1">
          {onAssign && (
            <Button
              size="sm"
              variant="secondary"
              icon={<CalendarPlus aria-hidden="true" className="size-4" />}
              onClick={onAssign}
              aria-label={t('exercises:card.assignLabel', { title: e.title })}
              className="h-11 sm:h-8"
              data-testid="exercise-assign"
            >
              {t('exercises:card.assign')}
            </Button>
          )}
          <EditDeleteButtons
            onEdit={onEdit}
            onDelete={onDelete}
            editLabel={t('exercises:card.editLabel', { title: e.title })}
            deleteLabel={t('exercises:card.deleteLabel', { title: e.title })}
          />
        </div>
      </div>
    </Card>
  );
}
