import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { COMPETENCY_LEVELS, type CompetencyLevel } from '@contract/constants';
import { ACCURACY_RANGE, TEACHER_FEEDBACK_MAX } from '@contract/metrics-limits';
import type { ReviewBody } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { Select, TextArea, TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';
import { competencyKey } from '@web/lib/competency';

type Errors = Partial<Record<'accuracy_score' | 'competency_level' | 'teacher_feedback', string>>;

/**
 * Checks the form like the server does; returns the body or the field errors. The level is the
 * review; the accuracy figure is optional (empty sends null: docs/decisions/metrics-definitions.md).
 */
export function validateReview(
  values: { accuracy: string; level: string; feedback: string },
  messages: { accuracy: string; level: string; feedback: string },
): { body: ReviewBody } | { errors: Errors } {
  const errors: Errors = {};
  const trimmed = values.accuracy.trim().replace(',', '.');
  const accuracy = trimmed === '' ? null : Number(trimmed);
  if (accuracy !== null && (!Number.isFinite(accuracy) || accuracy < ACCURACY_RANGE.min || accuracy > ACCURACY_RANGE.max)) errors.accuracy_score = messages.accuracy;
  if (!(COMPETENCY_LEVELS as readonly string[]).includes(values.level)) errors.competency_level = messages.level;
  if (values.feedback.trim().length > TEACHER_FEEDBACK_MAX) errors.teacher_feedback = messages.feedback;
  if (Object.keys(errors).length) return { errors };
  return { body: { accuracy_score: accuracy, competency_level: values.level as CompetencyLevel, teacher_feedback: values.feedback.trim() || null } };
}

type ReviewState = ReturnType<typeof useReviewState>;

/** The form's values, their reset when the task changes, and the submit that checks like the server. */
function useReviewState(submission: Submission | null, onSave: (body: ReviewBody) => Promise<void>) {
  const { t } = useTranslation(['progress', 'common']);
  const [accuracy, setAccuracy] = useState('');
  const [level, setLevel] = useState('');
  const [feedback, setFeedback] = useState('');
  const [errors, setErrors] = useState<Errors>({});

  // Another task (or the same one reloaded after a save): its values, no errors.
  const opening = useOpening(submission !== null, submission);
  if (opening && submission) {
    setAccuracy(submission.accuracy_score === null ? '' : String(submission.accuracy_score));
    setLevel(submission.competency_level ?? '');
    setFeedback(submission.teacher_feedback ?? '');
    setErrors({});
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const result = validateReview(
      { accuracy, level, feedback },
      { accuracy: t('review.accuracyError'), level: t('review.levelError'), feedback: t('review.feedbackHint') },
    );
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    try {
      await onSave(result.body);
    } catch (err) {
      if (isApiError(err, 422) && err.errors) {
        setErrors({
          accuracy_score: err.fieldError('accuracy_score'),
          competency_level: err.fieldError('competency_level'),
          teacher_feedback: err.fieldError('teacher_feedback'),
        });
      }
    }
  }

  return { accuracy, setAccuracy, level, setLevel, feedback, setFeedback, errors, setErrors, submit };
}

function ReviewFields({ state, compact = false }: { state: ReviewState; compact?: boolean }) {
  const { t } = useTranslation(['progress', 'common']);
  const { accuracy, setAccuracy, level, setLevel, feedback, setFeedback, errors, setErrors } = state;
  return (
    <div className="space-y-4">
      <div className={compact ? 'grid gap-4 sm:grid-cols-2' : 'space-y-4'}>
        <TextField
          label={t('review.accuracy')}
          name="accuracy_score"
          type="number"
          inputMode="decimal"
          step="any"
          value={accuracy}
          onChange={(e) => {
            setAccuracy(e.target.value);
            setErrors((x) => ({ ...x, accuracy_score: undefined }));
          }}
          hint={t('review.accuracyHint')}
          error={errors.accuracy_score}
        />
        <Select
          label={t('review.level')}
          name="competency_level"
          required
          value={level}
          onChange={(e) => {
            setLevel(e.target.value);
            setErrors((x) => ({ ...x, competency_level: undefined }));
          }}
          error={errors.competency_level}
        >
          <option value="">{t('review.levelPlaceholder')}</option>
          {COMPETENCY_LEVELS.map((l) => (
            <option key={l} value={l}>
              {t(competencyKey(l))}
            </option>
          ))}
        </Select>
      </div>
      <TextArea
        label={t('review.feedback')}
        name="teacher_feedback"
        rows={compact ? 3 : 4}
        maxLength={TEACHER_FEEDBACK_MAX}
        value={feedback}
        onChange={(e) => {
          setFeedback(e.target.value);
          setErrors((x) => ({ ...x, teacher_feedback: undefined }));
        }}
        hint={t('review.feedbackHint')}
        error={errors.teacher_feedback}
      />
    </div>
  );
}

/**
 * The review form inline (the teacher's task panel and task view): the same fields, checks and
 * server errors as the dialog, with its own submit button.
 */
export function ReviewForm({
  submission,
  onSave,
  saving,
  className,
}: {
  submission: Submission;
  onSave: (body: ReviewBody) => Promise<void>;
  saving: boolean;
  className?: string;
}) {
  const { t } = useTranslation(['progress', 'common']);
  const state = useReviewState(submission, onSave);
  return (
    <form onSubmit={(e) => void state.submit(e)} noValidate className={className} data-testid="review-form">
      <ReviewFields state={state} compact />
      <div className="mt-4 flex justify-end">
        <Button type="submit" loading={saving}>
          {saving ? t('review.saving') : t('review.submit')}
        </Button>
      </div>
    </form>
  );
}

/** The teacher's review of a task: competency level, optionally accuracy 0–100 and written feedback. */
export function ReviewDialog({
  submission,
  onClose,
  onSave,
  saving,
}: {
  submission: Submission | null;
  onClose: () => void;
  onSave: (body: ReviewBody) => Promise<void>;
  saving: boolean;
}) {
  const { t } = useTranslation(['progress', 'common']);
  const state = useReviewState(submission, onSave);

  return (
    <Modal
      open={submission !== null}
      onClose={onClose}
      title={t('review.title')}
      description={submission?.exercise?.title ?? submission?.exercise_title}
      onSubmit={(e) => void state.submit(e)}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" loading={saving}>
            {saving ? t('review.saving') : t('review.submit')}
          </Button>
        </>
      }
    >
      <ReviewFields state={state} />
    </Modal>
  );
}
