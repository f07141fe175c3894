import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { History } from 'lucide-react';
import type { PracticeSession } from '@contract/practice';
import { TIMER_SESSIONS_SHOWN } from '@contract/constants';
import { formatDateTime, formatDuration } from '@web/lib/format';
import { Skeleton } from '@web/components/ui/skeleton';
import { Badge } from '@web/components/ui/badge';

/** The last sessions of a task (newest first, at most 5); under a minute shown in seconds; the tempo reached when kept. */
export function SessionList({
  sessions,
  loading,
  failed,
  emptyText,
  headingLevel = 3,
}: {
  sessions: PracticeSession[] | undefined;
  loading: boolean;
  failed: boolean;
  emptyText?: string;
  headingLevel?: 2 | 3 | 4;
}) {
  const { t } = useTranslation('practice');
  const language = useLanguage();
  const Heading = headingLevel === 2 ? 'h2' : headingLevel === 4 ? 'h4' : 'h3';
  const shown = (sessions ?? []).slice(0, TIMER_SESSIONS_SHOWN);
  // docs/decisions/offline-practice.md: which minutes the server timed and which the device recorded offline (all sessions of the task).
  const finished = (sessions ?? []).filter((s) => s.ended_at !== null);
  const offlineMinutes = finished.filter((s) => s.recorded_offline).reduce((sum, s) => sum + (s.duration_minutes ?? 0), 0);
  const serverMinutes = finished.filter((s) => !s.recorded_offline).reduce((sum, s) => sum + (s.duration_minutes ?? 0), 0);
  return (
    <section aria-labelledby="practice-recent-heading">
      <Heading id="practice-recent-heading" className="mb-2 flex items-center gap-2 text-sm font-semibold text-slate-700">
        <History aria-hidden="true" className="size-4 text-slate-400" />
        {t('recent')}
      </Heading>
      {loading ? (
        <div className="space-y-2" aria-busy="true">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-9 w-full" />
          ))}
        </div>
      ) : failed ? (
        <p className="text-sm text-red-700">{t('recentError')}</p>
      ) : shown.length === 0 ? (
        <p className="text-sm text-slate-500">{emptyText ?? t('recentEmpty')}</p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" data-testid="practice-sessions">
          {shown.map((s) => (
            <li key={s.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
              <span className="flex min-w-0 flex-wrap items-center gap-x-2 gap-y-1">
                <span className="text-slate-600">{t('sessionAt', { date: formatDateTime(s.started_at) })}</span>
                {s.id < 0 ? (
                  <Badge tone="amber">{t('pendingBadge')}</Badge>
                ) : (
                  s.recorded_offline && (
                    <span title={t('offlineBadgeLabel')} data-testid="session-offline">
                      <Badge tone="neutral">{t('offlineBadge')}</Badge>
                      <span className="sr-only">{t('offlineBadgeLabel')}</span>
                    </span>
                  )
                )}
              </span>
              {s.ended_at === null ? (
                <Badge tone="brand">{t('inProgress')}</Badge>
              ) : (
                <span className="flex shrink-0 items-center gap-3">
                  {s.tempo_bpm !== null && (
                    <span className="text-xs text-slate-500 tabular-nums" data-testid="session-tempo">
                      <span aria-hidden="true">{t('tempoReached', { bpm: s.tempo_bpm })}</span>
                      <span className="sr-only">{t('tempoReachedLabel', { bpm: s.tempo_bpm })}</span>
                    </span>
                  )}
                  <span className="font-medium whitespace-nowrap text-slate-900 tabular-nums">{formatDuration(s.duration_minutes, language)}</span>
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {offlineMinutes > 0 && (
        <p className="mt-2 text-xs text-slate-500 tabular-nums" data-testid="timed-summary">
          {t('timedSummary', { server: formatDuration(serverMinutes, language), offline: formatDuration(offlineMinutes, language) })}
        </p>
      )}
    </section>
  );
}
