import type { ReactNode } from 'react';
import { Checkbox } from '@web/components/ui/fields';
import { cn } from '@web/components/ui/cn';

export type CourseChoiceProps = {
  /** The fieldset's legend ('Kurse'). */
  legend: ReactNode;
  /** What stands instead of the list when the teacher has no course. */
  empty: ReactNode;
  courses: ReadonlyArray<{ id: number; name: string }>;
  /** The ticked courses. */
  selected: readonly number[];
  onChange: (ids: number[]) => void;
  /** The server's message under the list; its id is `${idPrefix}-courses-error`. */
  error?: ReactNode;
  idPrefix: string;
  /** Class of the fieldset (its place in the form's grid). */
  className?: string;
  /** Class of the list: one column, or a grid. */
  listClassName?: string;
};

/** The courses a student or an exercise belongs to, as ticks (the student and exercise forms). */
export function CourseChoice({ legend, empty, courses, selected, onChange, error, idPrefix, className, listClassName }: CourseChoiceProps) {
  const errorId = `${idPrefix}-courses-error`;
  const toggle = (id: number, on: boolean) => onChange(on ? [...new Set([...selected, id])] : selected.filter((x) => x !== id));
  return (
    <fieldset className={className} aria-describedby={error ? errorId : undefined}>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700">
        {legend}
      </legend>
      {courses.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 px-3 py-2.5 text-sm text-slate-500">{empty}</p>
      ) : (
        <div className={cn('max-h-32 overflow-y-auto rounded-lg px-3 py-2.5 ring-1 ring-slate-300 ring-inset', listClassName)}>
          {courses.map((c) => (
            <Checkbox key={c.id} name="course_ids" value={c.id} label={c.name} checked={selected.includes(c.id)} onChange={(e) => toggle(c.id, e.target.checked)} />
          ))}
        </div>
      )}
      {error && (
        <p id={errorId} className="mt-1.5 text-xs font-medium text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
