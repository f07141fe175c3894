import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import type { ReviewBody } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { ReviewDialog, validateReview } from './review-dialog';

const task = {
  id: 41,
  exercise: null,
  exercise_title: 'Makam Hicaz – Seyir',
  accuracy_score: null,
  competency_level: null,
  teacher_feedback: null,
} as unknown as Submission;

const messages = { accuracy: 'A', level: 'L', feedback: 'F' };

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(cleanup);

describe('validateReview', () => {
  it('accepts 0, 100, decimals with a comma, and trims feedback (empty becomes null)', () => {
    expect(validateReview({ accuracy: '0', level: 'beginner', feedback: '  ' }, messages)).toEqual({
      body: { accuracy_score: 0, competency_level: 'beginner', teacher_feedback: null },
    });
    expect(validateReview({ accuracy: ' 87,5 ', level: 'expert', feedback: ' Gut ' }, messages)).toEqual({
      body: { accuracy_score: 87.5, competency_level: 'expert', teacher_feedback: 'Gut' },
    });
    expect(validateReview({ accuracy: '100', level: 'advanced', feedback: '' }, messages)).toMatchObject({ body: { accuracy_score: 100 } });
  });

  it('takes the level alone: an empty accuracy is sent as null (no figure), not 0', () => {
    expect(validateReview({ accuracy: '  ', level: 'intermediate', feedback: '' }, messages)).toEqual({
      body: { accuracy_score: null, competency_level: 'intermediate', teacher_feedback: null },
    });
    // without a level there is no review, accuracy or not
    expect(validateReview({ accuracy: '', level: '', feedback: '' }, messages)).toEqual({ errors: { competency_level: 'L' } });
  });

  it('rejects 101, -1, non-numbers, an unknown level and too long feedback', () => {
    for (const accuracy of ['101', '-1', 'abc', '100.01']) {
      expect(validateReview({ accuracy, level: 'beginner', feedback: '' }, messages)).toEqual({ errors: { accuracy_score: 'A' } });
    }
    expect(validateReview({ accuracy: '50', level: 'master', feedback: '' }, messages)).toEqual({ errors: { competency_level: 'L' } });
    expect(validateReview({ accuracy: '50', level: '', feedback: 'x'.repeat(2001) }, messages)).toEqual({
      errors: { competency_level: 'L', teacher_feedback: 'F' },
    });
  });
});

describe('ReviewDialog', () => {
  it('shows errors without saving, then saves a valid review', async () => {
    const onSave = vi.fn<(b: ReviewBody) => Promise<void>>(async () => {});
    render(<ReviewDialog submission={task} onClose={() => {}} onSave={onSave} saving={false} />);
    const user = userEvent.setup();
    expect(screen.getByRole('dialog', { name: 'Aufgabe bewerten' })).toBeInTheDocument();
    // the level is a required field (the browser asks for it); the range is checked by the form
    await user.selectOptions(screen.getByLabelText(/Kompetenzniveau/), 'Experte');
    await user.type(screen.getByLabelText(/Genauigkeit \(%\)/), '101');
    await user.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
    expect(await screen.findByText('Bitte eine Zahl von 0 bis 100 eingeben.')).toBeInTheDocument();
    expect(screen.getByLabelText(/Genauigkeit \(%\)/)).toHaveAttribute('aria-invalid', 'true');
    expect(onSave).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText(/Genauigkeit \(%\)/));
    await user.type(screen.getByLabelText(/Genauigkeit \(%\)/), '92');
    // the error goes as soon as the value changes
    expect(screen.queryByText('Bitte eine Zahl von 0 bis 100 eingeben.')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Rückmeldung an den Schüler'), 'Schöner Ton');
    await user.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ accuracy_score: 92, competency_level: 'advanced', teacher_feedback: 'Schöner Ton' }));
  });

  it('saves a review with only the level: the accuracy field is not required', async () => {
    const onSave = vi.fn<(b: ReviewBody) => Promise<void>>(async () => {});
    render(<ReviewDialog submission={task} onClose={() => {}} onSave={onSave} saving={false} />);
    const user = userEvent.setup();
    expect(screen.getByLabelText(/Genauigkeit \(%\)/)).not.toBeRequired();
    expect(screen.getByLabelText(/Kompetenzniveau/)).toBeRequired();
    await user.selectOptions(screen.getByLabelText(/Kompetenzniveau/), 'Fortgeschritten');
    await user.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ accuracy_score: null, competency_level: 'intermediate', teacher_feedback: null }));
  });

  it("shows the server's field errors of a 422", async () => {
    const onSave = vi.fn(async () => {
      throw new ApiError(422, 'Bitte überprüfen Sie Ihre Eingaben', { accuracy_score: ['Zu groß.'] });
    });
    render(<ReviewDialog submission={{ ...task, accuracy_score: 80, competency_level: 'beginner' }} onClose={() => {}} onSave={onSave} saving={false} />);
    const user = userEvent.setup();
    expect(screen.getByLabelText(/Genauigkeit \(%\)/)).toHaveValue(80);
    await user.click(screen.getByRole('button', { name: 'Bewertung speichern' }));
    expect(await screen.findByText('Zu groß.')).toBeInTheDocument();
  });
});
