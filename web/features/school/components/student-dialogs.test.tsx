import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SchoolStudent, SchoolTeacher, StudentErased } from '@contract/school';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import { EraseStudentDialog } from './erase-student-dialog';
import { MoveStudentDialog } from './move-student-dialog';

vi.setConfig({ testTimeout: 20_000 });

const student: SchoolStudent = {
  id: 3,
  name: 'Ayşe Demir',
  email: 'ayse@example.com',
  teacher: { id: 1, name: 'Mehmet Yılmaz', active: true },
  guardian_count: 1,
  created_at: '2026-09-01T08:00:00.000Z',
};
const teacher = (id: number, name: string, active = true, student_count = 0): SchoolTeacher => ({
  id,
  name,
  email: `${id}@example.com`,
  active,
  deactivated_at: active ? null : '2026-11-01T08:00:00.000Z',
  student_count,
  created_at: '2026-09-01T08:00:00.000Z',
});
const erased: StudentErased = {
  erased: { tasks: 12, practice_sessions: 30, recordings: 2, files: 2, guardian_accounts: 1 },
  backups_note: 'Sicherungen, die vor dem Löschen erstellt wurden, enthalten die Daten noch, bis sie gelöscht werden.',
};

beforeEach(async () => {
  await i18n.changeLanguage('de');
});

describe('EraseStudentDialog', () => {
  function setup(onErase = vi.fn(async () => erased)) {
    const user = userEvent.setup();
    render(<EraseStudentDialog student={student} onClose={vi.fn()} onErase={onErase} />);
    return { user, onErase, input: screen.getByLabelText('Geben Sie zur Bestätigung den Namen ein: Ayşe Demir') };
  }

  it('explains that it cannot be undone and lists what goes', () => {
    setup();
    const dialog = screen.getByRole('dialog', { name: 'Daten von Ayşe Demir löschen' });
    expect(dialog).toHaveTextContent('Das Löschen kann nicht rückgängig gemacht werden.');
    for (const item of ['das Schülerkonto und seine Anmeldung', 'alle Aufgaben und Bewertungen', 'alle Übungssitzungen und Übungszeiten', 'alle Aufnahmen mit ihren Dateien und Rückmeldungen'])
      expect(within(dialog).getByText(item)).toBeInTheDocument();
  });

  it('refuses an empty or a wrong name and sends nothing', async () => {
    const { user, onErase, input } = setup();
    await user.click(screen.getByRole('button', { name: 'Endgültig löschen' }));
    expect(await screen.findByText('Bitte geben Sie den Namen des Schülers ein.')).toBeInTheDocument();
    await user.type(input, 'Ayse Demir');
    await user.click(screen.getByRole('button', { name: 'Endgültig löschen' }));
    expect(await screen.findByText('Der Name stimmt nicht überein. Geben Sie genau „Ayşe Demir“ ein.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveFocus();
    expect(onErase).not.toHaveBeenCalled();
  });

  it('erases with the exact name and shows the counts and the backups note', async () => {
    const { user, onErase, input } = setup();
    await user.type(input, ' Ayşe Demir ');
    await user.click(screen.getByRole('button', { name: 'Endgültig löschen' }));
    expect(onErase).toHaveBeenCalledWith('Ayşe Demir');
    const done = await screen.findByRole('dialog', { name: 'Daten gelöscht' });
    expect(done).toHaveTextContent('Alle Daten von Ayşe Demir wurden gelöscht.');
    expect(within(done).getByTestId('erased-tasks')).toHaveTextContent('12');
    expect(within(done).getByTestId('erased-practice_sessions')).toHaveTextContent('30');
    expect(within(done).getByTestId('erased-files')).toHaveTextContent('2');
    expect(within(done).getByTestId('erased-guardian_accounts')).toHaveTextContent('1');
    expect(within(done).getByTestId('erase-backups')).toHaveTextContent(erased.backups_note);
  });

  it("shows the server's refusal under the field", async () => {
    const onErase = vi.fn(async () => {
      throw new ApiError(422, 'invalid', { confirm_name: ['Der Name stimmt nicht.'] });
    });
    const { user, input } = setup(onErase);
    await user.type(input, 'Ayşe Demir');
    await user.click(screen.getByRole('button', { name: 'Endgültig löschen' }));
    await waitFor(() => expect(input).toHaveAccessibleDescription('Der Name stimmt nicht.'));
  });
});

describe('MoveStudentDialog', () => {
  const teachers = [teacher(1, 'Mehmet Yılmaz', true, 6), teacher(2, 'Anna Roth', true, 3), teacher(3, 'Peter Alt', false, 2)];

  it('offers only the other active teachers, asks for one and says the history moves', async () => {
    const onMove = vi.fn(async () => undefined);
    const user = userEvent.setup();
    render(<MoveStudentDialog student={student} teachers={teachers} onClose={vi.fn()} onMove={onMove} />);
    const dialog = screen.getByRole('dialog', { name: 'Lehrkraft wechseln: Ayşe Demir' });
    expect(within(dialog).getByTestId('move-history')).toHaveTextContent('Alles wechselt mit: alle Aufgaben, Übungssitzungen, Aufnahmen und Rückmeldungen.');
    const select = within(dialog).getByLabelText('Neue Lehrkraft', { exact: false });
    expect([...(select as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Bitte Lehrkraft auswählen...', 'Anna Roth (3 Schüler)']);
    await user.click(within(dialog).getByRole('button', { name: 'Lehrkraft wechseln' }));
    expect(await within(dialog).findByText('Bitte wählen Sie eine Lehrkraft aus.')).toBeInTheDocument();
    expect(onMove).not.toHaveBeenCalled();
    await user.selectOptions(select, 'Anna Roth (3 Schüler)');
    await user.click(within(dialog).getByRole('button', { name: 'Lehrkraft wechseln' }));
    expect(onMove).toHaveBeenCalledWith(2);
  });

  it('says when there is no other active teacher', () => {
    render(<MoveStudentDialog student={student} teachers={[teachers[0]!, teachers[2]!]} onClose={vi.fn()} onMove={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Es gibt keine andere aktive Lehrkraft.');
    expect(screen.getByRole('button', { name: 'Lehrkraft wechseln' })).toBeDisabled();
  });
});
