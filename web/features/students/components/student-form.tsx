import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { NOTES_MAX, PASSWORD_MAX, PHONE_MAX } from '@contract/students-limits';
import type { Student } from '@contract/students';
import { FormFooter } from '@web/components/ui/form-footer';
import { PersonEmailField, PersonNameField } from '@web/components/person-fields';
import { TextArea, TextField } from '@web/components/ui/fields';
import { CourseChoice } from '@web/components/course-choice';
import { Modal } from '@web/components/ui/modal';
import { isApiError } from '@web/lib/api';
import { useOpening } from '@web/lib/use-opening';

type Field = 'name' | 'email' | 'password' | 'phone' | 'notes' | 'course_ids';
type Errors = Partial<Record<Field, string>>;

/** What the form sends: the password only when creating or when a new one was typed. */
export type StudentFormValues = {
  name: string;
  email: string;
  password?: string;
  phone: string | null;
  notes: string | null;
  course_ids: number[];
};

export type StudentFormProps = {
  open: boolean;
  /** The student to edit; null or undefined to create one. */
  student?: Student | null;
  /** The teacher's courses to choose from. */
  courses: ReadonlyArray<{ id: number; name: string }>;
  /** Courses ticked for a new student (e.g. the selected course). */
  defaultCourseIds?: number[];
  onClose: () => void;
  /** Saves; a thrown 422 ApiError shows errors.password[0] and the other field errors under their fields. */
  onSubmit: (values: StudentFormValues) => Promise<void>;
};

// The browser's idea of an e-mail address (input type=email), also checked by the server.
const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** Add / edit a student (SPEC.md section 5, student form). */
export function StudentForm({ open, student, courses, defaultCourseIds, onClose, onSubmit }: StudentFormProps) {
  const { t } = useTranslation(['students', 'common']);
  const formId = useId();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [phone, setPhone] = useState('');
  const [notes, setNotes] = useState('');
  const [courseIds, setCourseIds] = useState<number[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const editing = Boolean(student);

  // Each opening starts from the student's values (defaultCourseIds as they are when it opens, not
  // followed afterwards), without the last opening's password and errors.
  const opening = useOpening(open, student);
  if (opening) {
    setName(student?.name ?? '');
    setEmail(student?.email ?? '');
    setPassword('');
    setPhone(student?.phone ?? '');
    setNotes(student?.notes ?? '');
    setCourseIds(student ? student.courses.map((c) => c.id) : (defaultCourseIds ?? []));
    setErrors({});
    setBusy(false);
  }

  function validate(): Errors {
    const e: Errors = {};
    if (!name.trim()) e.name = t('students:form.errors.nameRequired');
    if (!email.trim()) e.email = t('students:form.errors.emailRequired');
    else if (!EMAIL_RE.test(email.trim())) e.email = t('students:form.errors.emailInvalid');
    if (!editing && password.trim() === '') e.password = t('students:form.errors.passwordRequired');
    else if (password.trim() !== '' && password.length < PASSWORD_MIN_LENGTH)
      e.password = t('students:form.errors.passwordShort', { count: PASSWORD_MIN_LENGTH });
    return e;
  }

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length) {
      const first = (['name', 'email', 'password'] as const).find((f) => found[f]);
      if (first) document.getElementById(`${formId}-${first}`)?.focus();
      return;
    }
    const values: StudentFormValues = {
      name: name.trim(),
      email: email.trim(),
      phone: phone.trim() || null,
      notes: notes.trim() || null,
      course_ids: courseIds,
    };
    // Blank on edit: unchanged, and not sent.
    if (password.trim() !== '') values.password = password;
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (err) {
      if (isApiError(err, 422) && err.errors) {
        setErrors({
          name: err.fieldError('name'),
          email: err.fieldError('email'),
          password: err.fieldError('password'),
          phone: err.fieldError('phone'),
          notes: err.fieldError('notes'),
          course_ids: err.fieldError('course_ids'),
        });
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open={open}
      onClose={busy ? () => undefined : onClose}
      size="xl"
      title={editing ? t('students:form.editTitle') : t('students:form.createTitle')}
      footer={<FormFooter formId={formId} busy={busy} onCancel={onClose} submitLabel={busy ? t('students:form.saving') : editing ? t('common:actions.save') : t('students:form.create')} />}
    >
      <form id={formId} noValidate onSubmit={submit} className="grid gap-4 sm:grid-cols-2">
        <PersonNameField id={`${formId}-name`} wrapperClassName="sm:col-span-2" label={t('students:form.name')} value={name} onValue={setName} error={errors.name} />
        <PersonEmailField id={`${formId}-email`} label={t('students:form.email')} value={email} onValue={setEmail} error={errors.email} />
        <TextField
          id={`${formId}-password`}
          label={t('students:form.password')}
          name="password"
          type="password"
          required={!editing}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={editing ? t('students:form.passwordHintEdit', { count: PASSWORD_MIN_LENGTH }) : t('students:form.passwordHint', { count: PASSWORD_MIN_LENGTH })}
          error={errors.password}
        />
        <TextField
          id={`${formId}-phone`}
          label={t('students:form.phone')}
          name="phone"
          type="tel"
          autoComplete="off"
          maxLength={PHONE_MAX}
          value={phone}
          onChange={(e) => setPhone(e.target.value)}
          hint={t('students:form.phoneHint')}
          error={errors.phone}
        />
        <CourseChoice
          className="sm:row-span-2"
          listClassName="space-y-2"
          idPrefix={formId}
          legend={t('students:form.courses')}
          empty={t('students:form.noCourses')}
          courses={courses}
          selected={courseIds}
          onChange={setCourseIds}
          error={errors.course_ids}
        />
        <TextArea
          id={`${formId}-notes`}
          label={t('students:form.notes')}
          name="notes"
          rows={3}
          maxLength={NOTES_MAX}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
          error={errors.notes}
        />
      </form>
    </Modal>
  );
}
