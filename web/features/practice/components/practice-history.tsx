import { useTranslation } from 'react-i18next';
import { Card } from '@web/components/ui/card';
import { useSessions } from '../api/practice-sessions';
import { SessionList } from './session-list';

/** Read-only practice sessions of a task (the teacher's view of a student's task). */
export function PracticeHistory({ submissionId }: { submissionId: number }) {
  const { t } = useTranslation('practice');
  const sessions = useSessions(submissionId);
  return (
    <Card className="px-5 py-4" aria-label={t('historyTitle')}>
      <SessionList sessions={sessions.data} loading={sessions.isPending} failed={sessions.isError} emptyText={t('historyEmpty')} headingLevel={2} />
    </Card>
  );
}
