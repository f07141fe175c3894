import '@web/features/school/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useOpening } from '@web/lib/use-opening';
import { HardDrive, Settings2 } from 'lucide-react';
import { STORAGE_QUOTA_LIMITS } from '@contract/storage-limits';
import type { SchoolStorage } from '@contract/storage';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { TextField } from '@web/components/ui/fields';
import { Modal } from '@web/components/ui/modal';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatFileSize, formatPercent } from '@web/lib/format';
import { useSchoolStorage, useUpdateSchoolStorage } from '../api/school';
import { errorText } from '../lib/school';
import { Bar } from '@web/components/ui/bar';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/**
 * The school's storage on the administrator's dashboard (docs/decisions/storage-quota.md): the
 * total of recordings and exercise media against the school's quota, the per-student quota, the
 * students whose recordings take the most, and the dialog to change both quotas.
 */
export function SchoolStorageCard() {
  const { t, i18n } = useTranslation(['school', 'common']);
  const storage = useSchoolStorage();
  const [editing, setEditing] = useState(false);
  const s = storage.data;
  const lang = i18n.language;
  const size = (b: number) => formatFileSize(b, lang);
  const share = s ? Math.min(1, s.used_bytes / s.quota_bytes) : 0;
  const percent = Math.round(share * 100);
  const tone = share >= 0.95 ? 'bg-red-600' : share >= STORAGE_QUOTA_LIMITS.warnShare ? 'bg-amber-500' : 'bg-brand-600';

  return (
    <Card className="min-w-0" data-testid="school-storage">
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <HardDrive aria-hidden="true" className="size-4.5 shrink-0 text-brand-600" />
            {t('school:storage.title')}
          </span>
        }
        description={t('school:storage.subtitle')}
        actions={
          s && (
            <Button
              variant="secondary"
              size="sm"
              icon={<Settings2 aria-hidden="true" className="size-4" />}
              onClick={() => setEditing(true)}
              aria-label={t('school:storage.edit')}
              title={t('school:storage.edit')}
              data-testid="storage-edit"
            >
              {/* a phone shows the icon alone: the title keeps its room */}
              <span className="hidden sm:inline">{t('school:storage.edit')}</span>
            </Button>
          )
        }
      />
      <CardBody className="space-y-5">
        {storage.isError && !s ? (
          <p role="alert" className="text-sm text-red-700">
            {t('school:storage.error')}
          </p>
        ) : !s ? (
          <Skeleton className="h-40 w-full" />
        ) : (
          <>
            <div>
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p className="text-lg font-semibold text-slate-900 tabular-nums" data-testid="storage-total">
                  {t('school:storage.used', { used: size(s.used_bytes), quota: size(s.quota_bytes) })}
                </p>
                <p className="text-sm text-slate-600 tabular-nums">{formatPercent(percent, lang)}</p>
              </div>
              <Bar
                role="meter"
                label={t('school:storage.title')}
                percent={percent}
                className="mt-2 h-2.5 bg-slate-200"
                fillClassName={tone}
                floor={s.used_bytes > 0 ? 1 : 0}
              />
              <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-3">
                <div className="flex justify-between gap-2 sm:block">
                  <dt className="text-slate-600">{t('school:storage.recordings')}</dt>
                  <dd className="font-medium text-slate-900 tabular-nums">{size(s.recordings_bytes)}</dd>
                </div>
                <div className="flex justify-between gap-2 sm:block">
                  <dt className="text-slate-600">{t('school:storage.media')}</dt>
                  <dd className="font-medium text-slate-900 tabular-nums">{size(s.media_bytes)}</dd>
                </div>
                <div className="flex justify-between gap-2 sm:block">
                  <dt className="text-slate-600">{t('school:storage.perStudent')}</dt>
                  <dd className="font-medium text-slate-900 tabular-nums" data-testid="storage-student-quota">
                    {size(s.student_quota_bytes)}
                    {!s.custom.student_quota && <span className="font-normal text-slate-500"> {t('school:storage.default')}</span>}
                  </dd>
                </div>
              </dl>
              {share >= STORAGE_QUOTA_LIMITS.warnShare && (
                <p role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="storage-school-warn">
                  {share >= 1 ? t('school:storage.full') : t('school:storage.nearlyFull')}
                </p>
              )}
            </div>
            <TopStudents storage={s} />
          </>
        )}
      </CardBody>
      {s && <StorageQuotaDialog open={editing} storage={s} onClose={() => setEditing(false)} />}
    </Card>
  );
}

function TopStudents({ storage }: { storage: SchoolStorage }) {
  const { t, i18n } = useTranslation('school');
  const lang = i18n.language;
  if (storage.top_students.length === 0) return <p className="text-sm text-slate-500">{t('storage.noRecordings')}</p>;
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">{t('storage.topTitle')}</h3>
      <table className="mt-2 w-full text-left text-sm" data-testid="storage-top">
        <caption className="sr-only">{t('storage.topTitle')}</caption>
        <thead className="border-b border-slate-200 text-xs tracking-wide text-slate-600 uppercase">
          <tr>
            <th scope="col" className="py-2 pr-3 font-semibold">
              {t('storage.student')}
            </th>
            <th scope="col" className="hidden px-3 py-2 font-semibold sm:table-cell">
              {t('storage.teacher')}
            </th>
            <th scope="col" className="py-2 pl-3 text-right font-semibold">
              {t('storage.usedColumn')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {storage.top_students.map((s) => {
            const share = s.used_bytes / storage.student_quota_bytes;
            return (
              <tr key={s.id}>
                <th scope="row" className="py-2 pr-3 font-medium text-slate-800">
                  <span className="block">{s.name}</span>
                  <span className="block text-xs font-normal text-slate-500 sm:hidden">{s.teacher.name}</span>
                </th>
                <td className="hidden px-3 py-2 text-slate-700 sm:table-cell">{s.teacher.name}</td>
                <td className={`py-2 pl-3 text-right whitespace-nowrap tabular-nums ${share >= 1 ? 'font-semibold text-red-700' : share >= STORAGE_QUOTA_LIMITS.warnShare ? 'font-semibold text-amber-800' : 'text-slate-700'}`}>
                  {t('storage.ofQuota', { used: formatFileSize(s.used_bytes, lang), quota: formatFileSize(storage.student_quota_bytes, lang) })}
                  <span className="block text-xs font-normal text-slate-500">{t('storage.recordingsCount', { count: s.recordings })}</span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** Whole gigabytes (school) and megabytes (student) as typed; '' is the default. */
const parseWhole = (v: string): number | null | 'invalid' => {
  const s = v.trim();
  if (!s) return null;
  return /^\d{1,9}$/.test(s) ? Number(s) : 'invalid';
};

function StorageQuotaDialog({ open, storage, onClose }: { open: boolean; storage: SchoolStorage; onClose: () => void }) {
  const { t, i18n } = useTranslation(['school', 'common']);
  const lang = i18n.language;
  const toast = useToast();
  const update = useUpdateSchoolStorage();
  const formId = useId();
  const [school, setSchool] = useState('');
  const [student, setStudent] = useState('');
  const [errors, setErrors] = useState<{ school?: string; student?: string }>({});

  // The fields start from the saved quotas at each opening (docs/decisions/compiler-ready-components.md).
  if (useOpening(open, storage)) {
    setSchool(storage.custom.quota ? String(Math.round(storage.quota_bytes / GiB)) : '');
    setStudent(storage.custom.student_quota ? String(Math.round(storage.student_quota_bytes / MiB)) : '');
    setErrors({});
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (update.isPending) return;
    const gb = parseWhole(school);
    const mb = parseWhole(student);
    const next: typeof errors = {};
    const schoolMinGb = STORAGE_QUOTA_LIMITS.schoolMin / GiB;
    const schoolMaxGb = STORAGE_QUOTA_LIMITS.schoolMax / GiB;
    const studentMinMb = STORAGE_QUOTA_LIMITS.studentMin / MiB;
    const studentMaxMb = STORAGE_QUOTA_LIMITS.studentMax / MiB;
    if (gb === 'invalid' || (gb !== null && (gb < schoolMinGb || gb > schoolMaxGb))) next.school = t('school:storage.dialog.schoolRange', { min: schoolMinGb, max: schoolMaxGb });
    if (mb === 'invalid' || (mb !== null && (mb < studentMinMb || mb > studentMaxMb))) next.student = t('school:storage.dialog.studentRange', { min: studentMinMb, max: studentMaxMb });
    setErrors(next);
    if (next.school || next.student || gb === 'invalid' || mb === 'invalid') return;
    try {
      await update.mutateAsync({ quota_bytes: gb === null ? null : gb * GiB, student_quota_bytes: mb === null ? null : mb * MiB });
      toast.success(t('school:storage.dialog.done'));
      onClose();
    } catch (err) {
      const fields = isApiError(err, 422) ? { school: err.fieldError('quota_bytes'), student: err.fieldError('student_quota_bytes') } : {};
      if (fields.school || fields.student) setErrors(fields);
      else toast.error(errorText(err, t('school:storage.dialog.failed')));
    }
  }

  return (
    <Modal
      open={open}
      onClose={update.isPending ? () => undefined : onClose}
      size="md"
      title={t('school:storage.dialog.title')}
      footer={
        <>
          <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
            {t('common:actions.cancel')}
          </Button>
          <Button type="submit" form={formId} loading={update.isPending}>
            {t('common:actions.save')}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={submit} className="space-y-4">
        <p className="text-sm text-slate-600">{t('school:storage.dialog.intro')}</p>
        <TextField
          id={`${formId}-school`}
          label={t('school:storage.dialog.school')}
          hint={t('school:storage.dialog.defaultHint', { value: formatFileSize(storage.defaults.quota_bytes, lang) })}
          inputMode="numeric"
          placeholder={String(Math.round(storage.defaults.quota_bytes / GiB))}
          value={school}
          onChange={(e) => setSchool(e.target.value)}
          error={errors.school}
          data-testid="storage-school-input"
        />
        <TextField
          id={`${formId}-student`}
          label={t('school:storage.dialog.student')}
          hint={t('school:storage.dialog.defaultHint', { value: formatFileSize(storage.defaults.student_quota_bytes, lang) })}
          inputMode="numeric"
          placeholder={String(Math.round(storage.defaults.student_quota_bytes / MiB))}
          value={student}
          onChange={(e) => setStudent(e.target.value)}
          error={errors.student}
          data-testid="storage-student-input"
        />
      </form>
    </Modal>
  );
}
