import { createRef } from 'react';
import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import i18n from '@web/lib/i18n';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { EMAIL_MAX, STUDENT_NAME_MAX } from '@contract/students-limits';
import { PersonEmailField, PersonNameField } from './person-fields';
import { FormFooter } from './ui/form-footer';

// The student, teacher-invitation and guardian forms ask for a person's name and e-mail the same
// way: these fields carry what each form wrote out before (name, type, required, no autofill, the
// length limits), and the form still says the label, id, hint and error.
describe('PersonNameField and PersonEmailField', () => {
  it('render the inputs the forms had, with the form’s label, id, hint and error', async () => {
    const onName = vi.fn();
    const ref = createRef<HTMLInputElement>();
    render(
      <form>
        <PersonNameField id="f-name" label="Name" value="" onValue={onName} error="Bitte einen Namen eingeben." />
        <PersonEmailField ref={ref} id="f-email" label="E-Mail" inputMode="email" value="a@b.de" onValue={() => undefined} hint="Für die Anmeldung" />
      </form>,
    );
    const name = screen.getByLabelText('Name');
    expect(name).toHaveAttribute('id', 'f-name');
    expect(name).toHaveAttribute('name', 'name');
    expect(name).toBeRequired();
    expect(name).toHaveAttribute('autocomplete', 'off');
    expect(name).toHaveAttribute('maxlength', String(STUDENT_NAME_MAX));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Bitte einen Namen eingeben.');
    await userEvent.type(name, 'A');
    expect(onName).toHaveBeenCalledWith('A');
    const email = screen.getByLabelText('E-Mail');
    expect(email).toBe(ref.current);
    expect(email).toHaveAttribute('id', 'f-email');
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('name', 'email');
    expect(email).toHaveAttribute('inputmode', 'email');
    expect(email).toHaveAttribute('autocomplete', 'off');
    expect(email).toHaveAttribute('maxlength', String(EMAIL_MAX));
    expect(email).toBeRequired();
    expect(email).toHaveValue('a@b.de');
    expect(email).toHaveAccessibleDescription('Für die Anmeldung');
  });
});

describe('FormFooter', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('de');
  });

  it('cancels, and submits the form it names; both wait while busy', async () => {
    const onCancel = vi.fn();
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    const { rerender } = render(
      <I18nextProvider i18n={i18n}>
        <form id="f" onSubmit={onSubmit} />
        <FormFooter formId="f" busy={false} onCancel={onCancel} submitLabel="Speichern" />
      </I18nextProvider>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    expect(onCancel).toHaveBeenCalledTimes(1);
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    rerender(
      <I18nextProvider i18n={i18n}>
        <form id="f" onSubmit={onSubmit} />
        <FormFooter formId="f" busy onCancel={onCancel} submitLabel="Speichern …" />
      </I18nextProvider>,
    );
    expect(screen.getByRole('button', { name: 'Abbrechen' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Speichern …/ })).toHaveAttribute('aria-busy', 'true');
  });
});
