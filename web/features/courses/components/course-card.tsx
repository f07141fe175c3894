import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CalendarDays, Download, Users } from 'lucide-react';
import type { Course } from '@contract/courses';
import { EditDeleteButtons } from '@web/components/ui/edit-delete-buttons';
import { Card } from '@web/components/ui/card';
import { Button } from '@web/components/ui/button';
import { useToast } from '@web/components/ui/toast';
import { formatDate } from '@web/lib/format';
import { downloadCourseProgressCsv } from '../api/courses';

/** 'CSV' on a course card: the course's progress as a spreadsheet file (one row per student). */
function ProgressCsvButton({ course }: { course: Course }) {
  const { t } = useTranslation('courses');
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  async function download() {
    setBusy(true);
    try {
      await downloadCourseProgressCsv(course.id);
    } catch {
      toast.error(t('csv.error'));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button
      variant="ghost"
      size="sm"
      loading={busy}
      icon={<Download aria-hidden="true" className="size-4" />}
      aria-label={t('csv.label', { name: course.name })}
      title={t('csv.hint')}
      onClick={() => void download()}
      data-testid="course-progress-csv"
    >
      {t('csv.button')}
    </Button>
  );
}

export function CourseCard({ course, onEdit, onDelete }: { course: Course; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation(['courses', 'common']);
  return (
    <Card className="flex w-full flex-col p-5" data-testid="course-card">
      <div className="flex items-start justify-between gap-3">
        <h2 className="min-w-0 text-base font-semibold break-words text-slate-900">{course.name}</h2>
        <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-medium text-brand-700 ring-1 ring-brand-200 ring-inset">
          <Users aria-hidden="true" className="size-3.5" />
          {t('courses:card.students', { count: course.students_count })}
        </span>
      </div>
      <p className={course.description ? 'mt-2 text-sm whitespace-pre-line wrap-anywhere text-slate-600' : 'mt-2 text-sm text-slate-500 italic'}>
        {course.description || t('courses:card.noDescription')}
      </p>
      <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-4">
        <p className="inline-flex items-center gap-1.5 text-xs text-slate-500">
          <CalendarDays aria-hidden="true" className="size-3.5" />
          {t('courses:card.created', { date: formatDate(course.created_at) })}
        </p>
        <div className="flex items-center gap-1">
          <ProgressCsvButton course={course} />
          <EditDeleteButtons
            onEdit={onEdit}
            onDelete={onDelete}
            editLabel={t('courses:card.editLabel', { name: course.name })}
            deleteLabel={t('courses:card.deleteLabel', { name: course.name })}
          />
        </div>
      </div>
    </Card>
  );
}
