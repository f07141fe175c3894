import '@web/features/exercises/i18n';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { FileText, Film, Image as ImageIcon, Paperclip, RotateCcw, X } from 'lucide-react';
import type { MediaFile } from '@contract/submissions';
import { cn } from '@web/components/ui/cn';
import { formatFileSize } from '@web/lib/format';
import { ACCEPT_ATTRIBUTE, fileType } from '../lib/exercise-form';

function KindIcon({ type }: { type: string }) {
  const cls = 'size-4 shrink-0 text-slate-400';
  if (type.startsWith('image/') || type === 'image') return <ImageIcon aria-hidden="true" className={cls} />;
  if (type.startsWith('video/') || type === 'video') return <Film aria-hidden="true" className={cls} />;
  return <FileText aria-hidden="true" className={cls} />;
}

export type FilePickerProps = {
  chosen: File[];
  existing: MediaFile[];
  removed: number[];
  problems: string[];
  disabled?: boolean;
  onPick: (files: File[]) => void;
  onRemoveChosen: (index: number) => void;
  onToggleExisting: (id: number) => void;
};

/** Choose files (checked on the client by SPEC.md section 5), list new and existing files with their sizes. */
export function FilePicker({ chosen, existing, removed, problems, disabled, onPick, onRemoveChosen, onToggleExisting }: FilePickerProps) {
  const { t } = useTranslation('exercises');
  const language = useLanguage();
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  return (
    <fieldset className="space-y-3" aria-describedby={`${id}-hint${problems.length ? ` ${id}-problems` : ''}`}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700">{t('form.files')}</legend>
      <div className="flex flex-col gap-2 rounded-lg border border-dashed border-slate-300 bg-slate-50/60 px-4 py-4 sm:flex-row sm:items-center">
        <input
          ref={inputRef}
          id={`${id}-input`}
          type="file"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          className="sr-only"
          disabled={disabled}
          data-testid="exercise-file-input"
          onChange={(e) => {
            const list = e.target.files ? [...e.target.files] : [];
            e.target.value = '';
            if (list.length) onPick(list);
          }}
        />
        <label
          htmlFor={`${id}-input`}
          className={cn(
            'inline-flex h-10 shrink-0 cursor-pointer items-center justify-center gap-2 rounded-lg bg-white px-4 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
            'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-600',
            disabled && 'pointer-events-none opacity-60',
          )}
        >
          <Paperclip aria-hidden="true" className="size-4" />
          {t('form.chooseFiles')}
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {t('form.filesHint')}
        </p>
      </div>
      {problems.length > 0 && (
        <ul id={`${id}-problems`} role="alert" className="space-y-1 rounded-lg bg-red-50 px-3 py-2 text-xs font-medium text-red-800 ring-1 ring-red-200 ring-inset">
          {problems.map((p, i) => (
            <li key={`${i}-${p}`}>{p}</li>
          ))}
        </ul>
      )}
      {chosen.length > 0 && (
        <div>
          <p className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">{t('form.chosenFiles')}</p>
          <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 ring-inset" data-testid="chosen-files">
            {chosen.map((f, i) => (
              <li key={`${f.name}-${f.size}`} className="flex items-center gap-2 px-3 py-2 text-sm">
                <KindIcon type={fileType(f)} />
                <span className="min-w-0 flex-1 truncate text-slate-800" title={f.name}>
                  {f.name}
                </span>
                <span className="shrink-0 text-xs text-slate-500 tabular-nums">{formatFileSize(f.size, language)}</span>
                <button
                  type="button"
                  disabled={disabled}
                  onClick={() => onRemoveChosen(i)}
                  aria-label={t('form.removeFile', { name: f.name })}
                  className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-red-700"
                >
                  <X aria-hidden="true" className="size-4" />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {existing.length > 0 && (
        <div>
          <p className="mb-1 text-xs font-medium tracking-wide text-slate-500 uppercase">{t('form.existingFiles')}</p>
          <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 ring-inset" data-testid="existing-files">
            {existing.map((m) => {
              const gone = removed.includes(m.id);
              return (
                <li key={m.id} className={cn('flex items-center gap-2 px-3 py-2 text-sm', gone && 'bg-slate-50')}>
                  <KindIcon type={m.type} />
                  <span className={cn('min-w-0 flex-1 truncate', gone ? 'text-slate-400 line-through' : 'text-slate-800')} title={m.filename}>
                    {m.filename}
                  </span>
                  {gone && <span className="shrink-0 text-xs font-medium text-red-700">{t('form.willBeRemoved')}</span>}
                  <span className="shrink-0 text-xs text-slate-500 tabular-nums">{formatFileSize(m.size, language)}</span>
                  <button
                    type="button"
                    disabled={disabled}
                    onClick={() => onToggleExisting(m.id)}
                    aria-label={gone ? t('form.undoRemove', { name: m.filename }) : t('form.removeFile', { name: m.filename })}
                    className="inline-flex size-8 shrink-0 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-red-700"
                  >
                    {gone ? <RotateCcw aria-hidden="true" className="size-4" /> : <X aria-hidden="true" className="size-4" />}
                  </button>
                </li>
              );
            })}
          </ul>
        </div>
      )}
    </fieldset>
  );
}
