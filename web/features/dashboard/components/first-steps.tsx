import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Check } from 'lucide-react';
import type { TeacherAttention } from '@contract/dashboard';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';

type Step = 'course' | 'student' | 'exercise' | 'assignment';
const STEPS: Step[] = ['course', 'student', 'exercise', 'assignment'];
/** Where each step is done: the list with its form open (`?new=1`); the task is assigned right here. */
const TO: Record<Exclude<Step, 'assignment'>, string> = { course: '/courses?new=1', student: '/students?new=1', exercise: '/exercises?new=1' };

const action = 'inline-flex h-11 items-center justify-center rounded-lg px-3 text-sm font-medium sm:h-9';
const primary = 'bg-brand-600 text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';
const secondary = 'bg-white text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600';

/**
 * A new teacher's first steps, in order: a course, a student, an exercise, the first task. Each is
 * a way to the action and is ticked off when done; the next open step is the prominent one. Shown
 * until the first task is assigned (docs/decisions/teacher-day-actions.md).
 */
export function FirstSteps({ steps, onAssign }: { steps: TeacherAttention['first_steps']; onAssign: () => void }) {
  const { t } = useTranslation('dashboard');
  const next = STEPS.find((s) => !steps[s]);
  const done = STEPS.filter((s) => steps[s]).length;
  return (
    <Card data-testid="first-steps">
      <CardHeader title={t('firstSteps.title')} description={t('firstSteps.subtitle', { done, total: STEPS.length })} />
      <ol className="grid divide-y divide-slate-100 xl:grid-cols-4 xl:divide-x xl:divide-y-0">
        {STEPS.map((s, i) => {
          const isDone = steps[s];
          const label = t(`firstSteps.${s}.action`);
          const cls = cn(action, s === next ? primary : secondary);
          return (
            <li key={s} className="flex min-w-0 items-start gap-3 px-5 py-4" data-testid={`first-step-${s}`} data-done={isDone}>
              <span
                aria-hidden="true"
                className={cn(
                  'flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold',
                  isDone ? 'bg-emerald-600 text-white' : s === next ? 'bg-brand-100 text-brand-800' : 'bg-slate-100 text-slate-600',
                )}
              >
                {isDone ? <Check className="size-4" /> : i + 1}
              </span>
              <div className="min-w-0 flex-1">
                <h3 className={cn('text-sm font-semibold', isDone ? 'text-slate-500 line-through' : 'text-slate-900')}>
                  {t(`firstSteps.${s}.title`)}
                  <span className="sr-only">{isDone ? ` – ${t('firstSteps.done')}` : ` – ${t('firstSteps.open')}`}</span>
                </h3>
                <p className="mt-0.5 text-sm text-slate-600">{t(`firstSteps.${s}.text`)}</p>
                {!isDone && (
                  <div className="mt-3">
                    {s === 'assignment' ? (
                      <Button size="sm" variant={s === next ? 'primary' : 'secondary'} onClick={onAssign} className="h-11 sm:h-9" data-testid="first-step-assign">
                        {label}
                      </Button>
                    ) : (
                      <Link to={TO[s]} className={cls}>
                        {label}
                      </Link>
                    )}
                  </div>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </Card>
  );
}
