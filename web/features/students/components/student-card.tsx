import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CalendarDays, LayoutDashboard, Mail, Phone } from 'lucide-react';
import type { Student } from '@contract/students';
import { EditDeleteButtons } from '@web/components/ui/edit-delete-buttons';
import { Badge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { formatDate } from '@web/lib/format';
import { avatarInitials } from '../lib/avatar-initials';

export function StudentCard({ student, onEdit, onDelete }: { student: Student; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation(['students', 'common']);
  const avatar = avatarInitials(student.name);
  return (
    <Card className="flex w-full flex-col p-5" data-testid="student-card">
      <div className="flex items-start gap-3">
        <span
          aria-hidden="true"
          className={`flex size-11 shrink-0 items-center justify-center rounded-full bg-brand-100 font-semibold text-brand-800 ${avatar.length > 2 ? 'text-xs' : 'text-sm'}`}
        >
          {avatar}
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-base font-semibold text-slate-900" title={student.name}>
            {student.name}
          </h2>
          <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
            <Mail aria-hidden="true" className="size-3.5 shrink-0 text-slate-400" />
            <span className="sr-only">{t('students:card.email')}: </span>
            <a href={`mailto:${student.email}`} className="truncate hover:text-brand-700 hover:underline">
              {student.email}
            </a>
          </p>
          <p className="mt-0.5 flex items-center gap-1.5 text-sm text-slate-600">
            <Phone aria-hidden="true" className="size-3.5 shrink-0 text-slate-400" />
            <span className="sr-only">{t('students:card.phone')}: </span>
            {student.phone ? (
              <a href={`tel:${student.phone.replace(/[^\d+]/g, '')}`} className="truncate hover:text-brand-700 hover:underline">
                {student.phone}
              </a>
            ) : (
              <span className="text-slate-500">{t('students:card.noPhone')}</span>
            )}
          </p>
        </div>
      </div>

      <div className="mt-4 mb-4">
        {student.courses.length ? (
          <ul className="flex flex-wrap gap-1.5" aria-label={t('students:card.courses')}>
            {student.courses.map((c) => (
              <li key={c.id}>
                <Badge tone="brand">{c.name}</Badge>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500 italic">{t('students:card.noCourses')}</p>
        )}
      </div>

      <div className="mt-auto flex flex-wrap items-center justify-between gap-x-3 gap-y-2 border-t border-slate-100 pt-3">
        <p className="inline-flex items-center gap-1.5 text-xs text-slate-500">
          <CalendarDays aria-hidden="true" className="size-3.5" />
          {t('students:card.registered', { date: formatDate(student.created_at) })}
        </p>
        <div className="-mr-2 flex items-center">
          <Link
            to={`/students/${student.id}`}
            aria-label={t('students:card.dashboardLabel', { name: student.name })}
            className="inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-medium text-brand-700 hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
          >
            <LayoutDashboard aria-hidden="true" className="size-4" />
            {t('students:card.dashboard')}
          </Link>
          <EditDeleteButtons
            onEdit={onEdit}
            onDelete={onDelete}
            editLabel={t('students:card.editLabel', { name: student.name })}
            deleteLabel={t('students:card.deleteLabel', { name: student.name })}
            compact
          />
        </div>
      </div>
    </Card>
  );
}
