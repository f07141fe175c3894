import '@web/features/school/i18n';
import { useEffect, useEffectEvent, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ArrowRightLeft, Download, HeartHandshake, Search, SearchX, Trash2, Users, X } from 'lucide-react';
import type { SchoolStudent } from '@contract/school';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card } from '@web/components/ui/card';
import { Select } from '@web/components/ui/fields';
import { EmptyState } from '@web/components/ui/empty-state';
import { Modal } from '@web/components/ui/modal';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { formatFileSize, formatPercent } from '@web/lib/format';
import { SCHOOL_KEY } from '../api/school';
import { downloadStudentExport, useSchoolStudentMutations, useSchoolStudents, type DownloadProgress } from '../api/students';
import { useSchoolTeachers } from '../api/teachers';
import { errorText } from '../lib/school';
import { EraseStudentDialog } from './erase-student-dialog';
import { LoadError } from './load-error';
import { MoveStudentDialog } from './move-student-dialog';

const SEARCH_DELAY_MS = 300;

type ExportState = { progress: DownloadProgress | null } | { error: string };

/** The student's data as a zip, one click per row: progress while it downloads, the error in the row. */
function useExports() {
  const { t } = useTranslation('school');
  const toast = useToast();
  const [state, setState] = useState<Record<number, ExportState>>({});
  const run = async (s: SchoolStudent) => {
    if (state[s.id] && 'progress' in state[s.id]!) return;
    setState((m) => ({ ...m, [s.id]: { progress: null } }));
    try {
      const file = await downloadStudentExport(s.id, (p) => setState((m) => ({ ...m, [s.id]: { progress: p } })));
      setState((m) => {
        const next = { ...m };
        delete next[s.id];
        return next;
      });
      toast.success(t('export.done', { name: s.name, file }));
    } catch (err) {
      const message = errorText(err, t('export.failed'));
      setState((m) => ({ ...m, [s.id]: { error: message } }));
      toast.error(t('export.failedFor', { name: s.name, message }));
    }
  };
  return { state, run };
}

function progressText(p: DownloadProgress | null, t: (k: string, o?: Record<string, unknown>) => string, language: string): string {
  if (!p || p.loaded === 0) return t('export.preparing');
  if (p.total) return t('export.percent', { percent: formatPercent(Math.min(100, (p.loaded / p.total) * 100), language) });
  return t('export.loaded', { size: formatFileSize(p.loaded, language) });
}

function ListSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
      {Array.from({ length: 5 }, (_, i) => (
        <div key={i} className="flex flex-wrap items-center gap-4 px-5 py-4">
          <div className="min-w-40 flex-1 space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3.5 w-52" />
          </div>
          <Skeleton className="h-4 w-28" />
          <Skeleton className="h-4 w-8" />
          <Skeleton className="h-8 w-80 max-w-full" />
        </div>
      ))}
    </div>
  );
}

export type SchoolStudentsPageProps = {
  /** The parents of a student (the guardians feature's StudentGuardians), shown in the 'Eltern' dialog. */
  renderGuardians: (student: SchoolStudent) => ReactNode;
};

/**
 * /school/students: every student of the school, searchable (name or e-mail) and filtered by
 * teacher; per row 'Lehrkraft wechseln', 'Eltern', 'Daten exportieren' (one click: the zip
 * downloads) and 'Daten löschen' (after typing the name).
 */
export function SchoolStudentsPage({ renderGuardians }: SchoolStudentsPageProps) {
  const { t, i18n } = useTranslation(['school', 'common']);
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const toast = useToast();
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const teacherParam = params.get('teacher');
  const teacherId = teacherParam && /^\d{1,10}$/.test(teacherParam) ? Number(teacherParam) : null;
  const [search, setSearch] = useState(q);
  const list = useSchoolStudents({ q, teacherId });
  const teachers = useSchoolTeachers();
  const { move, erase } = useSchoolStudentMutations();
  const exports = useExports();
  const [moving, setMoving] = useState<SchoolStudent | null>(null);
  const [erasing, setErasing] = useState<SchoolStudent | null>(null);
  const [guardiansOf, setGuardiansOf] = useState<SchoolStudent | null>(null);
  const qc = useQueryClient();
  // Parents added or removed in the dialog change the counts of the list and the dashboard.
  const closeGuardians = () => {
    setGuardiansOf(null);
    void qc.invalidateQueries({ queryKey: SCHOOL_KEY });
  };

  const setParam = (key: string, value: string | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (value) next.set(key, value);
        else next.delete(key);
        return next;
      },
      { replace: true },
    );

  // The search goes to the server a moment after the last key stroke (the address is written
  // through an Effect Event: a new setParam does not restart the wait).
  const searchToAddress = useEffectEvent((value: string) => setParam('q', value || null));
  useEffect(() => {
    if (search.trim() === q) return;
    const timer = setTimeout(() => searchToAddress(search.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, q]);

  const teacherName = useMemo(() => teachers.data?.find((x) => x.id === teacherId)?.name, [teachers.data, teacherId]);
  const filtered = Boolean(q) || teacherId !== null;
  const rows = list.data ?? [];

  const clearFilters = () => {
    setSearch('');
    setParams(new URLSearchParams(), { replace: true });
  };

  let body;
  if (list.isPending) body = <ListSkeleton label={t('common:actions.loading')} />;
  else if (list.isError && !list.data) body = <LoadError title={t('school:students.error')} retrying={list.isFetching} onRetry={() => void list.refetch()} />;
  else if (rows.length === 0 && filtered)
    body = (
      <EmptyState
        icon={SearchX}
        title={t('school:students.noResultsTitle')}
        text={q ? t('school:students.noResultsText', { search: q }) : t('school:students.noResultsTeacher', { teacher: teacherName ?? '' })}
        action={
          <Button variant="secondary" onClick={clearFilters}>
            {t('school:students.resetFilters')}
          </Button>
        }
      />
    );
  else if (rows.length === 0) body = <EmptyState icon={Users} title={t('school:students.emptyTitle')} text={t('school:students.emptyText')} />;
  else
    body = (
      <Card className="overflow-hidden" aria-busy={list.isFetching || undefined}>
        <table className="w-full text-left text-sm max-xl:block" data-testid="school-students-table">
          <caption className="sr-only">{t('school:students.caption')}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase max-xl:hidden">
            <tr>
              <th scope="col" className="py-2.5 pr-3 pl-5 font-semibold">
                {t('school:students.name')}
              </th>
              <th scope="col" className="px-3 py-2.5 font-semibold">
                {t('school:students.teacher')}
              </th>
              <th scope="col" className="px-3 py-2.5 text-right font-semibold">
                {t('school:students.guardians')}
              </th>
              <th scope="col" className="py-2.5 pr-5 pl-3 text-right font-semibold">
                {t('school:students.actions')}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 max-xl:block">
            {rows.map((s) => {
              const ex = exports.state[s.id];
              const exporting = ex !== undefined && 'progress' in ex;
              return (
                <tr key={s.id} className="align-top hover:bg-slate-50/60 max-xl:block max-xl:px-4 max-xl:py-3" data-testid="school-student-row" data-student-id={s.id}>
                  <th scope="row" className="py-3 pr-3 pl-5 text-left font-semibold text-slate-900 max-xl:block max-xl:p-0 max-xl:pb-1">
                    {s.name}
                    <span className="block truncate text-xs font-normal text-slate-600" title={s.email}>
                      {s.email}
                    </span>
                  </th>
                  <td className="px-3 py-3 text-slate-700 max-xl:flex max-xl:justify-between max-xl:gap-3 max-xl:px-0 max-xl:py-1">
                    <span className="text-slate-500 xl:hidden">{t('school:students.teacher')}</span>
                    <span className="text-right xl:text-left">
                      {s.teacher.name}
                      {!s.teacher.active && (
                        <Badge tone="neutral" className="ml-1.5">
                          {t('school:teachers.deactivated')}
                        </Badge>
                      )}
                    </span>
                  </td>
                  <td className="px-3 py-3 text-right text-slate-900 tabular-nums max-xl:flex max-xl:justify-between max-xl:px-0 max-xl:py-1">
                    <span className="text-slate-500 xl:hidden">{t('school:students.guardians')}</span>
                    <span data-testid="guardian-count">{s.guardian_count}</span>
                  </td>
                  <td className="py-2 pr-4 pl-3 max-xl:mt-2 max-xl:block max-xl:border-t max-xl:border-slate-100 max-xl:p-0 max-xl:pt-2">
                    <div className="grid grid-cols-[auto_auto] justify-end justify-items-start gap-x-1 gap-y-0.5 max-xl:flex max-xl:flex-wrap max-xl:justify-start">
                      <Button
                        variant="ghost"
                        size="sm"
                        className="px-2.5"
                        icon={<ArrowRightLeft aria-hidden="true" className="size-4" />}
                        onClick={() => setMoving(s)}
                        aria-label={t('school:students.moveLabel', { name: s.name })}
                      >
                        {t('school:students.move')}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="px-2.5"
                        icon={<HeartHandshake aria-hidden="true" className="size-4" />}
                        onClick={() => setGuardiansOf(s)}
                        aria-label={t('school:students.guardiansLabel', { name: s.name })}
                      >
                        {t('school:students.guardiansButton')}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="px-2.5"
                        icon={<Download aria-hidden="true" className="size-4" />}
                        loading={exporting}
                        onClick={() => void exports.run(s)}
                        aria-label={t('school:students.exportLabel', { name: s.name })}
                        data-testid="export-student"
                      >
                        {exporting ? progressText(ex.progress, t, language) : t('school:students.export')}
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="px-2.5 text-red-700 hover:bg-red-50"
                        icon={<Trash2 aria-hidden="true" className="size-4" />}
                        onClick={() => setErasing(s)}
                        aria-label={t('school:students.eraseLabel', { name: s.name })}
                      >
                        {t('school:students.erase')}
                      </Button>
                    </div>
                    <p aria-live="polite" className="text-right text-xs max-xl:text-left" data-testid="export-status">
                      {exporting && <span className="sr-only">{progressText(ex.progress, t, language)}</span>}
                      {ex && 'error' in ex && <span className="font-medium text-red-700">{t('school:export.failedFor', { name: s.name, message: ex.error })}</span>}
                    </p>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Card>
    );

  return (
    <>
      <PageHeader title={t('school:students.title')} subtitle={t('school:students.subtitle')} />

      <div className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="relative w-full sm:max-w-sm">
          <label htmlFor={searchId} className="mb-1.5 block text-sm font-medium text-slate-700">
            {t('school:students.search')}
          </label>
          <div className="relative">
            <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-slate-400" />
            <input
              id={searchId}
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder={t('school:students.searchPlaceholder')}
              maxLength={120}
              className="block h-11 w-full rounded-lg border-0 bg-white pr-9 pl-9 text-sm text-slate-900 shadow-xs ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-brand-600 focus:outline-none sm:h-10 [&::-webkit-search-cancel-button]:hidden"
            />
            {search && (
              <button
                type="button"
                onClick={() => {
                  setSearch('');
                  setParam('q', null);
                }}
                aria-label={t('school:students.clearSearch')}
                className="absolute top-1/2 right-1.5 inline-flex size-8 -translate-y-1/2 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <X aria-hidden="true" className="size-4" />
              </button>
            )}
          </div>
        </div>
        <Select
          wrapperClassName="w-full sm:max-w-xs"
          label={t('school:students.teacherFilter')}
          value={teacherId === null ? '' : String(teacherId)}
          onChange={(e) => setParam('teacher', e.target.value || null)}
          disabled={!teachers.data}
        >
          <option value="">{t('school:students.allTeachers')}</option>
          {teachers.data?.map((x) => (
            <option key={x.id} value={x.id}>
              {x.active ? x.name : t('school:students.teacherDeactivated', { name: x.name })}
            </option>
          ))}
        </Select>
        <div className="text-sm text-slate-600 tabular-nums sm:ml-auto sm:pb-2.5" aria-live="polite" data-testid="school-students-count">
          {list.data ? t('school:students.count', { count: rows.length }) : <Skeleton className="h-5 w-24" />}
        </div>
      </div>

      {body}

      <MoveStudentDialog
        student={moving}
        teachers={teachers.data ?? []}
        onClose={() => setMoving(null)}
        onMove={async (id) => {
          const s = moving!;
          await move.mutateAsync({ id: s.id, teacherId: id });
          toast.success(t('school:move.done', { name: s.name, teacher: teachers.data?.find((x) => x.id === id)?.name ?? '' }));
          setMoving(null);
        }}
      />
      <EraseStudentDialog
        student={erasing}
        onClose={() => setErasing(null)}
        onErase={(confirmName) => {
          // Checked, not asserted (erasing!.id): the compiled page would read erasing.id while
          // rendering, with no student chosen (docs/decisions/compiler-ready-components.md).
          if (!erasing) return Promise.reject(new Error('No student to erase'));
          return erase.mutateAsync({ id: erasing.id, confirmName });
        }}
      />
      <Modal open={guardiansOf !== null} onClose={closeGuardians} size="2xl" title={guardiansOf ? t('school:students.guardiansTitle', { name: guardiansOf.name }) : ''}>
        {guardiansOf && renderGuardians(guardiansOf)}
      </Modal>
    </>
  );
}
