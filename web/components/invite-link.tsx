import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Check, Copy, Mail, MailX } from 'lucide-react';
import type { InviteCreated } from '@contract/school';
import { Button } from '@web/components/ui/button';
import { copyText } from '@web/lib/copy-text';
import { formatDate } from '@web/lib/format';

/**
 * The one-time link of a new invitation (a teacher's or a parent's), shown once: a read-only field,
 * 'Link kopieren' (the clipboard, or the link selected with a message to copy it by hand where the
 * browser refuses) and whether it was e-mailed.
 */
export function InviteLink({ invite }: { invite: InviteCreated }) {
  const { t } = useTranslation('common');
  const fieldId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');

  async function copyLink() {
    setCopy((await copyText(invite.url, input.current)) ? 'copied' : 'failed');
  }

  return (
    <div className="space-y-4" data-testid="invite-link">
      <div>
        <label htmlFor={fieldId} className="mb-1.5 block text-sm font-medium text-slate-700">
          {t('inviteLink.linkLabel')}
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            ref={input}
            id={fieldId}
            type="text"
            readOnly
            value={invite.url}
            onFocus={(e) => e.currentTarget.select()}
            aria-describedby={`${fieldId}-hint`}
            className="block h-11 w-full min-w-0 rounded-lg border-0 bg-slate-50 px-3 font-mono text-xs text-slate-900 ring-1 ring-slate-300 ring-inset focus:ring-2 focus:ring-brand-600 focus:outline-none sm:h-10"
            data-testid="invite-url"
          />
          <Button
            variant={copy === 'copied' ? 'secondary' : 'primary'}
            icon={copy === 'copied' ? <Check aria-hidden="true" className="size-4 text-emerald-600" /> : <Copy aria-hidden="true" className="size-4" />}
            onClick={() => void copyLink()}
          >
            {copy === 'copied' ? t('inviteLink.copied') : t('inviteLink.copy')}
          </Button>
        </div>
        <p id={`${fieldId}-hint`} className="mt-1.5 text-xs text-slate-500">
          {t('inviteLink.linkHint', { date: formatDate(invite.expires_at) })}
        </p>
        <p aria-live="polite" className="mt-1.5 text-sm" data-testid="copy-status">
          {copy === 'copied' && <span className="font-medium text-emerald-700">{t('inviteLink.copiedText')}</span>}
          {copy === 'failed' && <span className="font-medium text-amber-800">{t('inviteLink.copyFailed')}</span>}
        </p>
      </div>
      <p className="flex items-start gap-2 rounded-lg bg-slate-50 px-3 py-2.5 text-sm text-slate-700 ring-1 ring-slate-200" data-testid="invite-emailed">
        {invite.emailed ? (
          <>
            <Mail aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-emerald-600" />
            {t('inviteLink.emailed', { email: invite.email })}
          </>
        ) : (
          <>
            <MailX aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
            {t('inviteLink.notEmailed', { email: invite.email })}
          </>
        )}
      </p>
    </div>
  );
}
