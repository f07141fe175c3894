import '@web/features/recordings/i18n';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MessageSquare, Mic, Pencil, Play, Trash2 } from 'lucide-react';
import { formatMoment, RECORDING_LIMITS } from '@contract/recordings-limits';
import type { CommentAudio, RecordingComment } from '@contract/recordings';
import { Button } from '@web/components/ui/button';
import { TextArea } from '@web/components/ui/fields';
import { useRecordingUrl } from '../api/recordings';
import { byIso } from '@web/lib/order';

/** A spoken comment's clip, through its signed link (the student, their teacher and their parents). */
function CommentClip({ audio, label }: { audio: CommentAudio; label: string }) {
  const { t } = useTranslation('recordings');
  const url = useRecordingUrl(audio.path);
  const name = t('voice.label', { length: formatMoment(audio.duration_ms) });
  return (
    <div className="mt-1.5 flex flex-wrap items-center gap-2" data-testid="comment-audio">
      <span className="inline-flex items-center gap-1 text-xs font-medium text-slate-700">
        <Mic aria-hidden="true" className="size-3.5" />
        {name}
      </span>
      {url.isError ? (
        <span className="text-xs text-red-700">{t('voice.loadError')}</span>
      ) : (
        // the native controls: keyboard reachable and labelled in every browser
        <audio controls preload="metadata" src={url.data} aria-label={`${t('voice.play')}: ${label}`} className="h-10 w-full max-w-xs" />
      )}
    </div>
  );
}

/** By moment, general remarks (no moment) first, then by creation: the server's order, kept on the client. */
export function sortComments(comments: readonly RecordingComment[]): RecordingComment[] {
  return [...comments].sort((a, b) => {
    if (a.at_ms === null || b.at_ms === null) {
      if (a.at_ms !== b.at_ms) return a.at_ms === null ? -1 : 1;
    } else if (a.at_ms !== b.at_ms) return a.at_ms - b.at_ms;
    return byIso(a.created_at, b.created_at) || a.id - b.id;
  });
}

/**
 * The comments of a recording, listed by time ('Kommentar bei 0:42'); each with a moment plays
 * the recording from there. The teacher who wrote one may edit or delete it.
 */
export function CommentList({
  comments,
  onPlay,
  canEdit,
  onEdit,
  onDelete,
  highlightId,
}: {
  comments: readonly RecordingComment[];
  /** The comment a "Neues Feedback" link landed on: marked, and reachable as #comment-{id}. */
  highlightId?: number | null;
  onPlay: (ms: number) => void;
  canEdit?: (c: RecordingComment) => boolean;
  onEdit?: (c: RecordingComment, text: string) => Promise<void>;
  onDelete?: (c: RecordingComment) => void;
}) {
  const { t } = useTranslation(['recordings', 'common']);
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState('');
  const [saving, setSaving] = useState(false);
  const sorted = sortComments(comments);
  if (sorted.length === 0) return <p className="text-sm text-slate-500">{t('comments.none')}</p>;
  return (
    <ol className="divide-y divide-slate-100" data-testid="comment-list">
      {sorted.map((c) => {
        const label = c.at_ms === null ? t('comments.general') : t('comments.at', { time: formatMoment(c.at_ms) });
        return (
          <li
            key={c.id}
            id={`comment-${c.id}`}
            aria-current={highlightId === c.id ? 'true' : undefined}
            className={highlightId === c.id ? '-mx-2 scroll-mt-24 rounded-lg bg-amber-50 px-2 py-3 ring-2 ring-amber-300' : 'scroll-mt-24 py-3'}
            data-testid="comment"
          >
            <div className="flex flex-wrap items-start gap-x-3 gap-y-1">
              {c.at_ms === null ? (
                <span className="mt-0.5 inline-flex h-8 shrink-0 items-center gap-1.5 rounded-md bg-slate-100 px-2 text-xs font-medium text-slate-700">
                  <MessageSquare aria-hidden="true" className="size-3.5" />
                  {label}
                </span>
              ) : (
                <button
                  type="button"
                  onClick={() => onPlay(c.at_ms ?? 0)}
                  className="inline-flex h-11 shrink-0 items-center gap-1.5 rounded-md bg-brand-50 px-2.5 text-xs font-semibold text-brand-800 tabular-nums ring-1 ring-brand-200 ring-inset hover:bg-brand-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 sm:h-8"
                  data-testid="comment-play"
                  data-at-ms={c.at_ms}
                >
                  <Play aria-hidden="true" className="size-3.5 fill-current" />
                  {label}
                </button>
              )}
              <div className="min-w-0 flex-1 basis-48">
                {editing === c.id ? (
                  <form
                    className="space-y-2"
                    onSubmit={(e) => {
                      e.preventDefault();
                      if (!onEdit || !draft.trim()) return;
                      setSaving(true);
                      onEdit(c, draft.trim())
                        .then(() => setEditing(null))
                        .catch(() => undefined)
                        .finally(() => setSaving(false));
                    }}
                  >
                    <TextArea label={t('comments.text')} hideLabel rows={2} maxLength={RECORDING_LIMITS.commentMax} value={draft} onChange={(e) => setDraft(e.target.value)} required />
                    <div className="flex gap-2">
                      <Button type="submit" size="sm" loading={saving}>
                        {t('common:actions.save')}
                      </Button>
                      <Button variant="ghost" size="sm" onClick={() => setEditing(null)}>
                        {t('common:actions.cancel')}
                      </Button>
                    </div>
                  </form>
                ) : (
                  <>
                    {c.text && <p className="text-sm whitespace-pre-line wrap-anywhere text-slate-800">{c.text}</p>}
                    {c.audio && <CommentClip audio={c.audio} label={label} />}
                    <p className="mt-0.5 text-xs text-slate-500">{c.teacher.name}</p>
                  </>
                )}
              </div>
              {canEdit?.(c) && editing !== c.id && (
                <div className="flex shrink-0 gap-1">
                  <button
                    type="button"
                    aria-label={`${t('common:actions.edit')}: ${label}`}
                    title={t('common:actions.edit')}
                    onClick={() => {
                      setDraft(c.text);
                      setEditing(c.id);
                    }}
                    className="inline-flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-800 focus-visible:outline-2 focus-visible:outline-slate-900 sm:size-8"
                  >
                    <Pencil aria-hidden="true" className="size-4" />
                  </button>
                  <button
                    type="button"
                    aria-label={`${t('common:actions.delete')}: ${label}`}
                    title={t('common:actions.delete')}
                    onClick={() => onDelete?.(c)}
                    className="inline-flex size-11 items-center justify-center rounded-md text-slate-500 hover:bg-red-50 hover:text-red-700 focus-visible:outline-2 focus-visible:outline-slate-900 sm:size-8"
                  >
                    <Trash2 aria-hidden="true" className="size-4" />
                  </button>
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}
