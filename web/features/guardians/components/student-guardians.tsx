import '@web/features/guardians/i18n';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckCircle2, RotateCcw, Trash2, UserPlus, Users } from 'lucide-react';
import type { Guardian, GuardianAddResponse } from '@contract/guardians';
import type { Invite } from '@contract/school';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { FormFooter } from '@web/components/ui/form-footer';
import { PersonEmailField, PersonNameField } from '@web/components/person-fields';
import { Modal } from '@web/components/ui/modal';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatDate, initials } from '@web/lib/format';
import { useGuardianMutations, useStudentGuardians } from '../api/guardians';
import { InviteLink } from '@web/components/invite-link';

// The browser's idea of an e-mail address (input type=email), also checked by the server.
const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/**
 * A student's parents (docs/decisions/schools-and-roles.md), for the student's teacher and the administrator: the linked
 * guardians (name, e-mail, since) and the open invitations; "Elternteil hinzufügen" links an existing
 * guardian account at once or makes a one-time invitation link to copy; "Entfernen" ends a
 * guardian's access to this student at once (after a confirmation).
 */
export function StudentGuardians({ studentId }: { studentId: number }) {
  const { t } = useTranslation(['guardians', 'common']);
  const headingId = useId();
  const query = useStudentGuardians(studentId);
  const { remove } = useGuardianMutations(studentId);
  const confirm = useConfirm();
  const toast = useToast();
  const [adding, setAdding] = useState(false);
  // Every opening mounts a fresh dialog (empty fields, no earlier result); the closing one keeps its content while it fades.
  const [addKey, setAddKey] = useState(0);
  const [removingId, setRemovingId] = useState<number | null>(null);

  const onRemove = async (g: Guardian) => {
    const ok = await confirm({
      title: t('section.removeTitle'),
      message: t('section.removeConfirm', { name: g.name }),
      confirmLabel: t('section.remove'),
    });
    if (!ok) return;
    setRemovingId(g.id);
    try {
      await remove.mutateAsync(g.id);
      toast.success(t('section.removed', { name: g.name }));
    } catch (err) {
      toast.error(isApiError(err) && err.status > 0 && err.status < 500 && !/^HTTP /.test(err.message) ? err.message : t('section.removeError'));
    } finally {
      setRemovingId(null);
    }
  };

  const guardians = query.data?.guardians ?? [];
  const invites = (query.data?.invites ?? []).filter((i) => i.state === 'open');

  return (
    <section aria-labelledby={headingId} data-testid="student-guardians">
      <Card>
        <CardHeader
          title={<span id={headingId}>{t('section.title')}</span>}
          description={t('section.subtitle')}
          actions={
            <Button
              size="sm"
              icon={<UserPlus aria-hidden="true" className="size-4" />}
              onClick={() => {
                setAddKey((k) => k + 1);
                setAdding(true);
              }}
              disabled={query.isPending}
              data-testid="guardian-add"
            >
              {t('section.add')}
            </Button>
          }
          className="max-sm:flex-col max-sm:items-stretch"
        />
        {query.isPending ? (
          <div aria-busy="true" className="divide-y divide-slate-100" data-testid="guardians-loading">
            <span className="sr-only" role="status">
              {t('section.loading')}
            </span>
            {Array.from({ length: 2 }, (_, i) => (
              <div key={i} aria-hidden="true" className="flex items-center gap-3 px-5 py-4">
                <Skeleton className="size-10 rounded-full" />
                <div className="flex-1 space-y-2">
                  <Skeleton className="h-4 w-40" />
                  <Skeleton className="h-3.5 w-56" />
                </div>
              </div>
            ))}
          </div>
        ) : query.isError ? (
          <div className="flex flex-col items-start gap-3 px-5 py-4 sm:flex-row sm:items-center sm:justify-between">
            <p role="alert" className="text-sm font-medium text-red-800">
              {t('section.error')}
            </p>
            <Button variant="secondary" size="sm" icon={<RotateCcw aria-hidden="true" className="size-4" />} onClick={() => void query.refetch()} loading={query.isFetching}>
              {t('common:actions.retry')}
            </Button>
          </div>
        ) : guardians.length === 0 && invites.length === 0 ? (
          <div className="flex flex-col items-center px-5 py-8 text-center" data-testid="guardians-empty">
            <div className="mb-3 flex size-10 items-center justify-center rounded-full bg-slate-100">
              <Users aria-hidden="true" className="size-5 text-slate-500" />
            </div>
            <p className="text-sm font-medium text-slate-800">{t('section.empty')}</p>
            <p className="mt-1 max-w-md text-sm text-slate-600">{t('section.emptyText')}</p>
          </div>
        ) : (
          <>
            {guardians.length > 0 && (
              <ul className="divide-y divide-slate-100" data-testid="guardian-list">
                {guardians.map((g) => (
                  <li key={g.id} className="flex flex-wrap items-center gap-x-3 gap-y-2 px-5 py-3" data-testid="guardian">
                    <span aria-hidden="true" className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-sm font-semibold text-brand-700">
                      {initials(g.name)}
                    </span>
                    <div className="min-w-0 flex-1 basis-40">
                      <p className="truncate text-sm font-semibold text-slate-900" title={g.name}>
                        {g.name}
                      </p>
                      <p className="truncate text-sm text-slate-600" title={g.email}>
                        {g.email}
                      </p>
                      <p className="text-xs text-slate-500 tabular-nums">{t('section.since', { date: formatDate(g.created_at) })}</p>
                    </div>
                    <Button
                      variant="ghost"
                      size="sm"
                      className="ml-auto text-red-700 hover:bg-red-50"
                      icon={<Trash2 aria-hidden="true" className="size-4" />}
                      onClick={() => void onRemove(g)}
                      loading={removingId === g.id}
                      aria-label={t('section.removeLabel', { name: g.name })}
                    >
                      {t('section.remove')}
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            {invites.length > 0 && (
              <div className="border-t border-slate-100 px-5 py-3">
                <h3 className="text-xs font-semibold tracking-wide text-slate-600 uppercase">{t('section.invitesTitle')}</h3>
                <ul className="mt-1 divide-y divide-slate-100" data-testid="guardian-invites">
                  {invites.map((i) => (
                    <InviteRow key={i.id} invite={i} />
                  ))}
                </ul>
              </div>
            )}
          </>
        )}
      </Card>
      <AddGuardianDialog key={addKey} studentId={studentId} open={adding} onClose={() => setAdding(false)} />
    </section>
  );
}

function InviteRow({ invite }: { invite: Invite }) {
  const { t } = useTranslation('guardians');
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5" data-testid="guardian-invite">
      <div className="min-w-0 flex-1 basis-40">
        <p className="truncate text-sm font-medium text-slate-900" title={invite.name}>
          {invite.name}
        </p>
        <p className="truncate text-sm text-slate-600" title={invite.email}>
          {invite.email}
        </p>
      </div>
      <div className="flex flex-col items-start gap-0.5 sm:items-end">
        <Badge tone="amber">{t('section.inviteOpen')}</Badge>
        <span className="text-xs text-slate-500 tabular-nums">
          {t('section.inviteValid', { date: formatDate(invite.expires_at) })}
          {invite.created_by ? ` · ${t('section.inviteBy', { name: invite.created_by })}` : ''}
        </span>
      </div>
    </li>
  );
}

type Errors = { name?: string; email?: string; form?: string };

/** The add dialog: the form, then what came of it (linked, or the invitation link to copy). */
function AddGuardianDialog({ studentId, open, onClose }: { studentId: number; open: boolean; onClose: () => void }) {
  const { t } = useTranslation(['guardians', 'common']);
  const formId = useId();
  const { add } = useGuardianMutations(studentId);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [result, setResult] = useState<GuardianAddResponse | null>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const busy = add.isPending;

  // A fresh form each time: the section mounts a new dialog (a new key) for every opening.
  const close = () => {
    if (!busy) onClose();
  };

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found: Errors = {};
    if (!name.trim()) found.name = t('form.errors.nameRequired');
    if (!email.trim()) found.email = t('form.errors.emailRequired');
    else if (!EMAIL_RE.test(email.trim())) found.email = t('form.errors.emailInvalid');
    setErrors(found);
    if (found.name || found.email) {
      (found.name ? nameRef : emailRef).current?.focus();
      return;
    }
    try {
      setResult(await add.mutateAsync({ name: name.trim(), email: email.trim() }));
    } catch (err) {
      const next = errorsOf(err, t('form.errors.generic'));
      setErrors(next);
      if (next.name) nameRef.current?.focus();
      else if (next.email) emailRef.current?.focus();
    }
  }

  if (result) {
    return (
      <Modal
        open={open}
        onClose={close}
        size="lg"
        title={result.invite ? t('result.inviteTitle') : t('result.linkedTitle')}
        footer={<Button onClick={close}>{t('result.done')}</Button>}
      >
        {result.invite ? <InviteResult invite={result.invite} /> : <Linked name={result.guardian?.name ?? name.trim()} />}
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      onClose={close}
      size="lg"
      title={t('form.title')}
      description={t('form.intro')}
      footer={
        <FormFooter formId={formId} busy={busy} onCancel={close} submitIcon={<UserPlus aria-hidden="true" className="size-4" />} submitLabel={busy ? t('form.saving') : t('form.submit')} />
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4" data-testid="guardian-form">
        <PersonNameField ref={nameRef} label={t('form.name')} value={name} onValue={setName} error={errors.name} />
        <PersonEmailField ref={emailRef} label={t('form.email')} inputMode="email" value={email} onValue={setEmail} error={errors.email} />
        {errors.form && (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
            {errors.form}
          </p>
        )}
      </form>
    </Modal>
  );
}

/**
 * The server's answer as messages at the fields: a 409 (the e-mail belongs to another kind of
 * account) at the e-mail; a 422 at its fields; anything else above the buttons.
 */
function errorsOf(err: unknown, generic: string): Errors {
  if (!isApiError(err)) return { form: generic };
  const serverText = err.message && !/^HTTP /.test(err.message) ? err.message : undefined;
  if (err.status === 409) return { email: err.fieldError('email') ?? serverText ?? generic };
  if (err.status === 422) {
    const e: Errors = { name: err.fieldError('name'), email: err.fieldError('email') };
    if (!e.name && !e.email) e.form = serverText ?? generic;
    return e;
  }
  return { form: err.status === 0 ? err.message : (serverText ?? generic) };
}

function Linked({ name }: { name: string }) {
  const { t } = useTranslation('guardians');
  return (
    <div className="flex gap-3" data-testid="guardian-linked">
      <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-emerald-50">
        <CheckCircle2 aria-hidden="true" className="size-5 text-emerald-600" />
      </div>
      <p role="status" className="pt-2 text-sm text-slate-700">
        {t('result.linked', { name })}
      </p>
    </div>
  );
}

function InviteResult({ invite }: { invite: NonNullable<GuardianAddResponse['invite']> }) {
  const { t } = useTranslation('guardians');
  return (
    <div className="space-y-4" data-testid="guardian-invite-result">
      <p className="text-sm text-slate-700">{t('result.inviteText', { name: invite.name })}</p>
      <InviteLink invite={invite} />
    </div>
  );
}
