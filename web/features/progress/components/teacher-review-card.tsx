import { MessageSquareText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { ReviewBody } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useReviewSubmission } from '../api/progress';
import { ReviewForm } from './review-dialog';

/**
 * What the teacher's task view leads with: the review (accuracy, competency level, feedback for
 * the student), the same form as in the dashboard's task panel.
 */
export function TeacherReviewCard({ task }: { task: Submission }) {
  const { t } = useTranslation(['dashboard', 'progress']);
  const toast = useToast();
  const review = useReviewSubmission(task.student.id);
  async function save(body: ReviewBody) {
    try {
      await review.mutateAsync({ id: task.id, body });
      toast.success(t('progress:review.success'));
    } catch (err) {
      if (!isApiError(err, 422)) toast.error(t('progress:review.error'));
      throw err;
    }
  }
  return (
    <Card data-testid="teacher-review">
      <CardHeader
        title={
          <span className="inline-flex items-center gap-2">
            <MessageSquareText aria-hidden="true" className="size-4 text-brand-700" />
            {t('dashboard:panel.review')}
          </span>
        }
        description={t('dashboard:panel.reviewHint')}
      />
      <CardBody>
        <ReviewForm submission={task} onSave={save} saving={review.isPending} />
      </CardBody>
    </Card>
  );
}
