import type { MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { MessageSquarePlus } from 'lucide-react';
import type { Recording } from '@contract/recordings';
import { composeHref } from '@web/features/messages/lib/links';

const linkClass =
  'inline-flex h-11 items-center gap-1.5 rounded-lg text-sm font-medium text-brand-700 underline-offset-2 hover:text-brand-800 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 sm:h-9';

/**
 * 'Nachricht zu dieser Stelle' on a take the teacher reviews (docs/decisions/messages.md): opens the
 * student's conversation with the take linked at the player's current moment (read at the click;
 * the address itself links the take's beginning, for a new tab).
 */
export function MessageAboutTake({ recording, currentMs }: { recording: Recording; currentMs: () => number }) {
  const { t } = useTranslation('layout');
  const navigate = useNavigate();
  const base = { task_id: recording.submission_id, recording_id: recording.id };
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    void navigate(composeHref(recording.student.id, { ...base, at_ms: currentMs() }));
  };
  return (
    <Link to={composeHref(recording.student.id, { ...base, at_ms: 0 })} onClick={onClick} className={linkClass} data-testid="message-about-take">
      <MessageSquarePlus aria-hidden="true" className="size-4" />
      {t('messageLinks.aboutTake')}
    </Link>
  );
}

/** 'Nachricht an die Lehrkraft' on the student's task: their own conversation with the task linked. */
export function MessageTeacherLink({ studentId, taskId }: { studentId: number; taskId: number }) {
  const { t } = useTranslation('layout');
  return (
    <Link to={composeHref(studentId, { task_id: taskId })} className={linkClass} data-testid="message-teacher">
      <MessageSquarePlus aria-hidden="true" className="size-4" />
      {t('messageLinks.toTeacher')}
    </Link>
  );
}
