import { forwardRef } from 'react';
import { EMAIL_MAX, STUDENT_NAME_MAX } from '@contract/students-limits';
import { TextField, type TextFieldProps } from '@web/components/ui/fields';

/** What a form still says of a person's field: label, id, hint, error, ref, input mode, its value. */
export type PersonFieldProps = Omit<TextFieldProps, 'name' | 'type' | 'required' | 'autoComplete' | 'maxLength' | 'value' | 'onChange'> & {
  value: string;
  onValue: (value: string) => void;
};

/**
 * A person's name as the student, teacher-invitation and guardian forms ask for it: required, at
 * most STUDENT_NAME_MAX characters, no autofill (it is someone else's name, not the user's).
 */
export const PersonNameField = forwardRef<HTMLInputElement, PersonFieldProps>(function PersonNameField({ onValue, ...rest }, ref) {
  return <TextField ref={ref} name="name" required autoComplete="off" maxLength={STUDENT_NAME_MAX} onChange={(e) => onValue(e.target.value)} {...rest} />;
});

/** A person's e-mail address in the same forms: required, type email, at most EMAIL_MAX characters, no autofill. */
export const PersonEmailField = forwardRef<HTMLInputElement, PersonFieldProps>(function PersonEmailField({ onValue, ...rest }, ref) {
  return <TextField ref={ref} name="email" type="email" required autoComplete="off" maxLength={EMAIL_MAX} onChange={(e) => onValue(e.target.value)} {...rest} />;
});
