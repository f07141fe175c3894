import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from './cn';

type FieldChrome = {
  /** Visible label (required). */
  label: ReactNode;
  /** Help text under the field. */
  hint?: ReactNode;
  /** Error text under the field; marks the field invalid. */
  error?: ReactNode;
  /** Class of the wrapping element. */
  wrapperClassName?: string;
  /** Hides the label visually (it stays for screen readers). */
  hideLabel?: boolean;
};

const control =
  'block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-xs ring-1 ring-inset placeholder:text-slate-400 ' +
  'focus:ring-2 focus:ring-inset focus:outline-none disabled:cursor-not-allowed disabled:bg-slate-50 disabled:text-slate-500';
const ringOk = 'ring-slate-300 focus:ring-brand-600';
const ringBad = 'ring-red-400 focus:ring-red-600';

function useFieldIds(id: string | undefined, hint: ReactNode, error: ReactNode, describedBy?: string) {
  const auto = useId();
  const fieldId = id ?? auto;
  const hintId = hint ? `${fieldId}-hint` : undefined;
  const errorId = error ? `${fieldId}-error` : undefined;
  const described = [describedBy, hintId, errorId].filter(Boolean).join(' ') || undefined;
  return { fieldId, hintId, errorId, described };
}

function Label({ htmlFor, children, required, hidden }: { htmlFor: string; children: ReactNode; required?: boolean; hidden?: boolean }) {
  return (
    <div className={cn('mb-1.5 flex items-baseline gap-0.5', hidden && 'sr-only')}>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-700">
        {children}
      </label>
      {required && (
        <span aria-hidden="true" className="text-sm text-red-600">
          *
        </span>
      )}
    </div>
  );
}

function Below({ hintId, hint, errorId, error }: { hintId?: string; hint: ReactNode; errorId?: string; error: ReactNode }) {
  return (
    <>
      {hint && (
        <p id={hintId} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </>
  );
}

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & FieldChrome;

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(function TextField(
  { label, hint, error, wrapperClassName, hideLabel, id, className, required, 'aria-describedby': db, ...rest },
  ref,
) {
  const { fieldId, hintId, errorId, described } = useFieldIds(id, hint, error, db);
  return (
    <div className={wrapperClassName}>
      <Label htmlFor={fieldId} required={required} hidden={hideLabel}>
        {label}
      </Label>
      <input
        ref={ref}
        id={fieldId}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={cn(control, 'h-10', error ? ringBad : ringOk, className)}
        {...rest}
      />
      <Below hintId={hintId} hint={hint} errorId={errorId} error={error} />
    </div>
  );
});

export type TextAreaProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldChrome;

export const TextArea = forwardRef<HTMLTextAreaElement, TextAreaProps>(function TextArea(
  { label, hint, error, wrapperClassName, hideLabel, id, className, required, rows = 4, 'aria-describedby': db, ...rest },
  ref,
) {
  const { fieldId, hintId, errorId, described } = useFieldIds(id, hint, error, db);
  return (
    <div className={wrapperClassName}>
      <Label htmlFor={fieldId} required={required} hidden={hideLabel}>
        {label}
      </Label>
      <textarea
        ref={ref}
        id={fieldId}
        rows={rows}
        required={required}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={cn(control, error ? ringBad : ringOk, className)}
        {...rest}
      />
      <Below hintId={hintId} hint={hint} errorId={errorId} error={error} />
    </div>
  );
});

export type SelectProps = SelectHTMLAttributes<HTMLSelectElement> & FieldChrome;

/** A native select (best on phones), styled like the other fields. Pass <option>s as children. */
export const Select = forwardRef<HTMLSelectElement, SelectProps>(function Select(
  { label, hint, error, wrapperClassName, hideLabel, id, className, required, children, 'aria-describedby': db, ...rest },
  ref,
) {
  const { fieldId, hintId, errorId, described } = useFieldIds(id, hint, error, db);
  return (
    <div className={wrapperClassName}>
      <Label htmlFor={fieldId} required={required} hidden={hideLabel}>
        {label}
      </Label>
      <div className="relative">
        <select
          ref={ref}
          id={fieldId}
          required={required}
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={cn(control, 'h-11 appearance-none pr-9 sm:h-10', error ? ringBad : ringOk, className)}
          {...rest}
        >
          {children}
        </select>
        <ChevronDown aria-hidden="true" className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-500" />
      </div>
      <Below hintId={hintId} hint={hint} errorId={errorId} error={error} />
    </div>
  );
});

export type CheckboxProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'type'> & Omit<FieldChrome, 'hideLabel'>;

/** A checkbox with its label on the right. */
export const Checkbox = forwardRef<HTMLInputElement, CheckboxProps>(function Checkbox(
  { label, hint, error, wrapperClassName, id, className, 'aria-describedby': db, ...rest },
  ref,
) {
  const { fieldId, hintId, errorId, described } = useFieldIds(id, hint, error, db);
  return (
    <div className={wrapperClassName}>
      <div className="flex items-start gap-2.5">
        <input
          ref={ref}
          id={fieldId}
          type="checkbox"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          className={cn('mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-brand-600', className)}
          {...rest}
        />
        <label htmlFor={fieldId} className="min-w-0 text-sm text-slate-700">
          {label}
        </label>
      </div>
      <div className="pl-6.5">
        <Below hintId={hintId} hint={hint} errorId={errorId} error={error} />
      </div>
    </div>
  );
});
