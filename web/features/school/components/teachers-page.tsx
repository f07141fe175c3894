import '@web/features/school/i18n';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Ban, GraduationCap, MailPlus, RotateCcw, UserPlus } from 'lucide-react';
import type { Invite, SchoolTeacher } from '@contract/school';
import { Badge, type BadgeTone } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { EmptyState } from '@web/components/ui/empty-state';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { formatDate } from '@web/lib/format';
import { useInvites, useSchoolTeachers, useTeacherMutations } from '../api/teachers';
import { errorText } from '../lib/school';
import { InviteTeacherDialog } from './invite-teacher-dialog';
import { LoadError } from './load-error';

const cellCard = 'max-md:flex max-md:justify-between max-md:gap-3 max-md:px-0 max-md:py-1';

function RowsSkeleton({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <div role="status" aria-label={label} className="divide-y divide-slate-100">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="flex items-center gap-4 px-5 py-4">
          <div className="flex-1 space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-3.5 w-56" />
          </div>
          <Skeleton className="h-5 w-16 rounded-full" />
          <Skeleton className="h-8 w-28" />
        </div>
      ))}
    </div>
  );
}

function TeachersTable({ teachers, busyId, onToggle }: { teachers: SchoolTeacher[]; busyId: number | null; onToggle: (t: SchoolTeacher) => void }) {
  const { t } = useTranslation('school');
  return (
    <table className="w-full text-left text-sm max-md:block" data-testid="teachers-table">
      <caption className="sr-only">{t('teachers.caption')}</caption>
      <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase max-md:hidden">
        <tr>
          <th scope="col" className="py-2.5 pr-3 pl-5 font-semibold">
            {t('teachers.name')}
          </th>
          <th scope="col" className="px-3 py-2.5 font-semibold">
            {t('teachers.email')}
          </th>
          <th scope="col" className="px-3 py-2.5 text-right font-semibold">
            {t('teachers.students')}
          </th>
          <th scope="col" className="px-3 py-2.5 font-semibold">
            {t('teachers.state')}
          </th>
          <th scope="col" className="py-2.5 pr-5 pl-3 text-right font-semibold">
            {t('teachers.actions')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 max-md:block">
        {teachers.map((teacher) => (
          <tr
            key={teacher.id}
            className="hover:bg-slate-50/60 max-md:block max-md:px-4 max-md:py-3"
            data-testid="teacher-row"
            data-teacher-id={teacher.id}
          >
            <th scope="row" className="py-3 pr-3 pl-5 text-left font-semibold text-slate-900 max-md:block max-md:p-0 max-md:pb-1">
              {teacher.name}
              <span className="block text-xs font-normal text-slate-500">{t('teachers.since', { date: formatDate(teacher.created_at) })}</span>
            </th>
            <td className={`px-3 py-3 text-slate-700 ${cellCard}`}>
              <span className="text-slate-500 md:hidden">{t('teachers.email')}</span>
              <a href={`mailto:${teacher.email}`} className="min-w-0 truncate hover:text-brand-700 hover:underline" title={teacher.email}>
                {teacher.email}
              </a>
            </td>
            <td className={`px-3 py-3 text-right text-slate-900 tabular-nums ${cellCard}`}>
              <span className="text-slate-500 md:hidden">{t('teachers.students')}</span>
              {teacher.student_count.toLocaleString('de-DE')}
            </td>
            <td className={`px-3 py-3 ${cellCard}`}>
              <span className="text-slate-500 md:hidden">{t('teachers.state')}</span>
              <span data-testid="teacher-state">
                {teacher.active ? (
                  <Badge tone="green">{t('teachers.active')}</Badge>
                ) : (
                  <Badge tone="neutral">{t('teachers.deactivated')}</Badge>
                )}
              </span>
            </td>
            <td className="py-2 pr-5 pl-3 text-right max-md:mt-2 max-md:block max-md:border-t max-md:border-slate-100 max-md:p-0 max-md:pt-2">
              <Button
                variant="ghost"
                size="sm"
                className={teacher.active ? 'text-red-700 hover:bg-red-50' : 'text-brand-700 hover:bg-brand-50'}
                icon={teacher.active ? <Ban aria-hidden="true" className="size-4" /> : <RotateCcw aria-hidden="true" className="size-4" />}
                loading={busyId === teacher.id}
                onClick={() => onToggle(teacher)}
                aria-label={teacher.active ? t('teachers.deactivateLabel', { name: teacher.name }) : t('teachers.reactivateLabel', { name: teacher.name })}
              >
                {teacher.active ? t('teachers.deactivate') : t('teachers.reactivate')}
              </Button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

const STATE_TONE: Record<Invite['state'], BadgeTone> = { open: 'amber', accepted: 'green', expired: 'neutral', revoked: 'red' };

function InvitesTable({ invites, busyId, onRevoke }: { invites: Invite[]; busyId: number | null; onRevoke: (i: Invite) => void }) {
  const { t } = useTranslation('school');
  return (
    <table className="w-full text-left text-sm max-md:block" data-testid="invites-table">
      <caption className="sr-only">{t('invites.caption')}</caption>
      <thead className="border-b border-slate-200 bg-slate-50 text-xs tracking-wide text-slate-600 uppercase max-md:hidden">
        <tr>
          <th scope="col" className="py-2.5 pr-3 pl-5 font-semibold">
            {t('invites.who')}
          </th>
          <th scope="col" className="px-3 py-2.5 font-semibold">
            {t('invites.kind')}
          </th>
          <th scope="col" className="px-3 py-2.5 font-semibold">
            {t('invites.state')}
          </th>
          <th scope="col" className="px-3 py-2.5 font-semibold">
            {t('invites.created')}
          </th>
          <th scope="col" className="py-2.5 pr-5 pl-3 text-right font-semibold">
            {t('teachers.actions')}
          </th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100 max-md:block">
        {invites.map((invite) => (
          <tr
            key={invite.id}
            className="max-md:block max-md:px-4 max-md:py-3"
            data-testid="invite-row"
            data-invite-id={invite.id}
          >
            <th scope="row" className="py-3 pr-3 pl-5 text-left font-semibold text-slate-900 max-md:block max-md:p-0 max-md:pb-1">
              {invite.name}
              <span className="block truncate text-xs font-normal text-slate-600" title={invite.email}>
                {invite.email}
              </span>
            </th>
            <td className={`px-3 py-3 text-slate-700 ${cellCard}`}>
              <span className="text-slate-500 md:hidden">{t('invites.kind')}</span>
              <span>
                {invite.kind === 'teacher' ? t('roles.teacher') : t('invites.guardianOf', { names: invite.students.map((s) => s.name).join(', ') || '–' })}
              </span>
            </td>
            <td className={`px-3 py-3 ${cellCard}`}>
              <span className="text-slate-500 md:hidden">{t('invites.state')}</span>
              <span data-testid="invite-state">
                <Badge tone={STATE_TONE[invite.state]}>{t(`invites.states.${invite.state}`)}</Badge>
              </span>
            </td>
            <td className={`px-3 py-3 whitespace-nowrap text-slate-700 ${cellCard}`}>
              <span className="text-slate-500 md:hidden">{t('invites.created')}</span>
              <span>
                {formatDate(invite.created_at)}
                {invite.state === 'open' && <span className="block text-xs text-slate-500">{t('invites.validUntil', { date: formatDate(invite.expires_at) })}</span>}
              </span>
            </td>
            <td className="py-2 pr-5 pl-3 text-right max-md:mt-2 max-md:block max-md:border-t max-md:border-slate-100 max-md:p-0 max-md:pt-2 max-md:empty:hidden">
              {invite.state === 'open' && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-red-700 hover:bg-red-50"
                  loading={busyId === invite.id}
                  onClick={() => onRevoke(invite)}
                  aria-label={t('invites.revokeLabel', { name: invite.name })}
                >
                  {t('invites.revoke')}
                </Button>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * /school/teachers: the school's teachers (name, e-mail, students, state) with deactivate and
 * reactivate after a confirmation that says what happens, 'Lehrkraft einladen' (the one-time link
 * to hand over) and the invitations with their state and 'Widerrufen'.
 */
export function TeachersPage() {
  const { t } = useTranslation(['school', 'common']);
  const toast = useToast();
  const confirm = useConfirm();
  const teachers = useSchoolTeachers();
  const invites = useInvites();
  const { invite, revoke, setActive } = useTeacherMutations();
  const [inviting, setInviting] = useState(false);
  const [busyTeacher, setBusyTeacher] = useState<number | null>(null);
  const [busyInvite, setBusyInvite] = useState<number | null>(null);

  async function toggle(teacher: SchoolTeacher) {
    const deactivating = teacher.active;
    const ok = await confirm(
      deactivating
        ? {
            title: t('school:teachers.deactivateTitle', { name: teacher.name }),
            message: t('school:teachers.deactivateText', { name: teacher.name, count: teacher.student_count }),
            confirmLabel: t('school:teachers.deactivate'),
            danger: true,
          }
        : {
            title: t('school:teachers.reactivateTitle', { name: teacher.name }),
            message: t('school:teachers.reactivateText', { name: teacher.name }),
            confirmLabel: t('school:teachers.reactivate'),
            danger: false,
          },
    );
    if (!ok) return;
    setBusyTeacher(teacher.id);
    try {
      await setActive.mutateAsync({ id: teacher.id, active: !deactivating });
      toast.success(deactivating ? t('school:teachers.deactivatedToast', { name: teacher.name }) : t('school:teachers.reactivatedToast', { name: teacher.name }));
    } catch (err) {
      toast.error(errorText(err, t('school:teachers.toggleError')));
    } finally {
      setBusyTeacher(null);
    }
  }

  async function askRevoke(i: Invite) {
    const ok = await confirm({
      title: t('school:invites.revokeTitle'),
      message: t('school:invites.revokeText', { name: i.name }),
      confirmLabel: t('school:invites.revoke'),
    });
    if (!ok) return;
    setBusyInvite(i.id);
    try {
      await revoke.mutateAsync(i.id);
      toast.success(t('school:invites.revoked', { name: i.name }));
    } catch (err) {
      toast.error(errorText(err, t('school:invites.revokeError')));
    } finally {
      setBusyInvite(null);
    }
  }

  const inviteButton = (
    <Button icon={<UserPlus aria-hidden="true" className="size-4" />} onClick={() => setInviting(true)}>
      {t('school:teachers.invite')}
    </Button>
  );

  let teacherBody;
  if (teachers.isPending) teacherBody = <RowsSkeleton label={t('common:actions.loading')} />;
  else if (teachers.isError && !teachers.data)
    teacherBody = <LoadError className="p-4" title={t('school:teachers.error')} retrying={teachers.isFetching} onRetry={() => void teachers.refetch()} />;
  else if (teachers.data.length === 0)
    teacherBody = <EmptyState className="m-4" icon={GraduationCap} title={t('school:teachers.emptyTitle')} text={t('school:teachers.emptyText')} action={inviteButton} />;
  else teacherBody = <TeachersTable teachers={teachers.data} busyId={busyTeacher} onToggle={(x) => void toggle(x)} />;

  let inviteBody;
  if (invites.isPending) inviteBody = <RowsSkeleton label={t('common:actions.loading')} rows={2} />;
  else if (invites.isError && !invites.data)
    inviteBody = <LoadError className="p-4" title={t('school:invites.error')} retrying={invites.isFetching} onRetry={() => void invites.refetch()} />;
  else if (invites.data.length === 0) inviteBody = <EmptyState className="m-4" icon={MailPlus} title={t('school:invites.emptyTitle')} text={t('school:invites.emptyText')} />;
  else inviteBody = <InvitesTable invites={invites.data} busyId={busyInvite} onRevoke={(x) => void askRevoke(x)} />;

  const counts = teachers.data
    ? t('school:teachers.counts', { active: teachers.data.filter((x) => x.active).length, deactivated: teachers.data.filter((x) => !x.active).length })
    : undefined;

  return (
    <>
      <PageHeader title={t('school:teachers.title')} subtitle={t('school:teachers.subtitle')} actions={inviteButton} />
      <div className="space-y-6">
        <Card className="overflow-hidden">
          <CardHeader title={t('school:teachers.listTitle')} description={counts} />
          <div aria-busy={teachers.isFetching || undefined}>{teacherBody}</div>
        </Card>
        <Card className="overflow-hidden">
          <CardHeader title={t('school:invites.title')} description={t('school:invites.subtitle')} />
          <div aria-busy={invites.isFetching || undefined}>{inviteBody}</div>
        </Card>
      </div>
      <InviteTeacherDialog open={inviting} onClose={() => setInviting(false)} onInvite={(body) => invite.mutateAsync(body)} />
    </>
  );
}
