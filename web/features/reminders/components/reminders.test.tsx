import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { NotificationSettings } from '@contract/notifications';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp, stubFetch } from '@web/test/render';
import { ReminderSettings } from './reminder-settings';
import { UnsubscribeCard } from './unsubscribe-card';
import { WeeklyNoteSettings } from './weekly-note-settings';
import { FeedbackDigestSettings } from './feedback-digest-settings';

vi.setConfig({ testTimeout: 20_000 });

const base: NotificationSettings = {
  reminder_time: null,
  email: 'emma@example.com',
  mail_available: true,
  quiet_hours: { from: '21:00', to: '07:00' },
  time_zone: 'Europe/Berlin',
};

const server = stubFetch;

const timeField = () => screen.getByLabelText(/^Uhrzeit\W*$/, { selector: 'select' });

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('ReminderSettings', () => {
  it('speaks to a parent about their children (Sie) and saves the parent’s time', async () => {
    let stored: NotificationSettings = { ...base, email: 'vera@example.com' };
    const calls = server((c) => {
      if (c.method === 'PUT') stored = { ...stored, reminder_time: (c.body as { reminder_time: string | null }).reminder_time };
      return jsonResponse(200, stored);
    });
    const u = userEvent.setup();
    renderWithApp(<ReminderSettings audience="guardian" />);
    expect(await screen.findByText('Übungserinnerung für Ihre Kinder')).toBeInTheDocument();
    expect(screen.getByText(/Wir schicken Ihnen eine E-Mail an vera@example.com, wenn bei einem Ihrer Kinder/)).toBeInTheDocument();
    await u.click(screen.getByLabelText('Erinnerung per E-Mail'));
    await u.selectOptions(timeField(), '18:00');
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Gespeichert: Erinnerung täglich um 18:00 Uhr.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ reminder_time: '18:00' });
  });

  it('turns the reminder on at a chosen time (none offered in the night), and turns it off again', async () => {
    let stored: NotificationSettings = base;
    const calls = server((c) => {
      if (c.method === 'PUT') stored = { ...stored, reminder_time: (c.body as { reminder_time: string | null }).reminder_time };
      return jsonResponse(200, stored);
    });
    const u = userEvent.setup();
    renderWithApp(<ReminderSettings />);
    expect(await screen.findByTestId('reminder-status')).toHaveTextContent('Aus');
    expect(screen.getByText(/E-Mail an emma@example.com/)).toBeInTheDocument();
    expect(timeField()).toBeDisabled();
    expect(timeField()).toHaveAccessibleDescription(/Zwischen 21:00 und 07:00 Uhr schicken wir nichts/);

    await u.click(screen.getByLabelText('Erinnerung per E-Mail'));
    expect(timeField()).toBeEnabled();
    // every quarter hour from 07:00 to 20:45, nothing in the night
    const options = [...(timeField() as unknown as HTMLSelectElement).options].map((o) => o.value);
    expect(options[0]).toBe('07:00');
    expect(options.at(-1)).toBe('20:45');
    expect(options).toHaveLength(56);
    await u.selectOptions(timeField(), '16:30');
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Gespeichert: Erinnerung täglich um 16:30 Uhr.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('reminder-status')).toHaveTextContent('Aktiv: täglich um 16:30 Uhr'));
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    expect(calls.find((c) => c.method === 'PUT')).toEqual({ url: '/api/notification-settings', method: 'PUT', body: { reminder_time: '16:30' } });

    await u.click(screen.getByLabelText('Erinnerung per E-Mail'));
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Gespeichert: keine Erinnerungen.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').at(-1)!.body).toEqual({ reminder_time: null });
  });

  it('shows the server’s field message, refuses a saved time that now lies in the night, and offers a retry when loading fails', async () => {
    let fail = true;
    server((c) => {
      if (c.method === 'PUT') return jsonResponse(422, { message: 'x', errors: { reminder_time: ['Vom Server abgelehnt.'] } });
      if (fail) return jsonResponse(500, { message: 'kaputt' });
      return jsonResponse(200, { ...base, reminder_time: '17:00' });
    });
    const u = userEvent.setup();
    renderWithApp(<ReminderSettings />);
    expect(await screen.findByText('Die Einstellungen konnten nicht geladen werden.')).toBeInTheDocument();
    fail = false;
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByTestId('reminder-status')).toHaveTextContent('Aktiv: täglich um 17:00 Uhr');
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Vom Server abgelehnt.')).toBeInTheDocument();
  });

  it('keeps a saved time off the quarter hours, and refuses one that the quiet hours now cover', async () => {
    const calls = server(() => jsonResponse(200, { ...base, reminder_time: '06:50' }));
    const u = userEvent.setup();
    renderWithApp(<ReminderSettings />);
    expect(await screen.findByTestId('reminder-status')).toHaveTextContent('06:50');
    expect(timeField()).toHaveValue('06:50');
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Zwischen 21:00 und 07:00 Uhr ist Nachtruhe. Bitte wähle eine andere Uhrzeit.')).toBeInTheDocument();
    expect(timeField()).toHaveFocus();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it('is off and says why when the school sends no e-mails; Turkish', async () => {
    await i18n.changeLanguage('tr');
    server(() => jsonResponse(200, { ...base, mail_available: false }));
    renderWithApp(<ReminderSettings />);
    expect(await screen.findByTestId('reminder-no-mail')).toHaveTextContent('Okulun e-posta göndermiyor.');
    expect(screen.getByLabelText('E-posta ile hatırlatma')).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Kaydet' })).toBeDisabled();
  });
});

describe('UnsubscribeCard', () => {
  it('asks first, then stops the reminders with one POST', async () => {
    const calls = server((c) => jsonResponse(200, { kind: 'practice', name: 'Tom', subscribed: c.method === 'GET' }));
    const u = userEvent.setup();
    renderWithApp(<UnsubscribeCard token="5.practice.abc" />);
    expect(await screen.findByRole('heading', { name: 'Keine Übungserinnerungen mehr für Tom?' })).toBeInTheDocument();
    expect(calls.map((c) => c.method)).toEqual(['GET']);
    await u.click(screen.getByRole('button', { name: 'Erinnerungen abbestellen' }));
    expect(await screen.findByText('Tom bekommt keine Übungserinnerungen mehr.')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET /api/unsubscribe/5.practice.abc', 'POST /api/unsubscribe/5.practice.abc']);
  });

  it('says when they are already off, and when the link is not valid', async () => {
    server(() => jsonResponse(200, { kind: 'practice', name: 'Tom', subscribed: false }));
    renderWithApp(<UnsubscribeCard token="5.practice.abc" />);
    expect(await screen.findByText('Für Tom sind die Übungserinnerungen bereits aus.')).toBeInTheDocument();
    vi.unstubAllGlobals();
    server(() => jsonResponse(404, { message: 'Dieser Abmeldelink ist ungültig.' }));
    renderWithApp(<UnsubscribeCard token="kaputt" />);
    expect(await screen.findByRole('heading', { name: 'Link ungültig' })).toBeInTheDocument();
  });
});

describe('WeeklyNoteSettings', () => {
  const weekly = { weekly_note: false, email: 'petra@example.com', mail_available: true, sent_at: { weekday: 7, time: '17:00' }, time_zone: 'Europe/Berlin' };

  it('says what the note holds and when it comes, and turns it on and off', async () => {
    let stored = weekly;
    const calls = server((c) => {
      if (c.method === 'PUT') stored = { ...stored, weekly_note: (c.body as { weekly_note: boolean }).weekly_note };
      return jsonResponse(200, stored);
    });
    const u = userEvent.setup();
    renderWithApp(<WeeklyNoteSettings />);
    expect(await screen.findByTestId('weekly-note-status')).toHaveTextContent('Aus');
    expect(screen.getByText(/Jeden Sonntag um 17:00 Uhr eine E-Mail an petra@example.com/)).toBeInTheDocument();
    await u.click(screen.getByLabelText('Wochenbericht per E-Mail erhalten'));
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Gespeichert: Der Wochenbericht kommt jeden Sonntag.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('weekly-note-status')).toHaveTextContent('Aktiv: sonntags um 17:00 Uhr'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ weekly_note: true }]);
  });

  it('is off and says why when the school sends no e-mails', async () => {
    server(() => jsonResponse(200, { ...weekly, mail_available: false }));
    renderWithApp(<WeeklyNoteSettings />);
    expect(await screen.findByTestId('weekly-note-no-mail')).toHaveTextContent('Ihre Schule verschickt keine E-Mails.');
    expect(screen.getByLabelText('Wochenbericht per E-Mail erhalten')).toBeDisabled();
  });

  it('the unsubscribe page of a weekly note speaks to the parent', async () => {
    server((c) => jsonResponse(200, { kind: 'weekly', name: 'Petra', subscribed: c.method === 'GET' }));
    const u = userEvent.setup();
    renderWithApp(<UnsubscribeCard token="9.weekly.abc" />);
    expect(await screen.findByRole('heading', { name: 'Keinen Wochenbericht mehr an Petra?' })).toBeInTheDocument();
    await u.click(screen.getByRole('button', { name: 'Wochenbericht abbestellen' }));
    expect(await screen.findByText('Petra bekommt keinen Wochenbericht mehr.')).toBeInTheDocument();
  });
});

describe('FeedbackDigestSettings', () => {
  const digest = { feedback_digest: false, email: 'mila@example.com', mail_available: true, time: '18:00', time_zone: 'Europe/Berlin' };

  it('speaks to a student, turns the digest on; a failed save says so', async () => {
    let fail = false;
    const calls = server((c) => (c.method === 'PUT' && fail ? jsonResponse(503, { message: 'Wartung: bitte später.' }) : jsonResponse(200, c.method === 'PUT' ? { ...digest, feedback_digest: true } : digest)));
    const u = userEvent.setup();
    renderWithApp(<FeedbackDigestSettings audience="student" />);
    expect(await screen.findByText(/deine Lehrkraft auf deine Aufnahmen geantwortet oder dir geschrieben hat, kommt um 18:00 Uhr eine E-Mail an mila@example.com/)).toBeInTheDocument();
    await u.click(screen.getByLabelText('Feedback-Zusammenfassung per E-Mail'));
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Gespeichert: Neues Feedback kommt als Zusammenfassung.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('feedback-digest-status')).toHaveTextContent('Aktiv: täglich um 18:00 Uhr'));
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ feedback_digest: true }]);
    fail = true;
    await u.click(screen.getByLabelText('Feedback-Zusammenfassung per E-Mail'));
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Wartung: bitte später.')).toBeInTheDocument();
  });

  it('speaks to a parent', async () => {
    server(() => jsonResponse(200, digest));
    renderWithApp(<FeedbackDigestSettings audience="guardian" />);
    expect(await screen.findByText(/auf Aufnahmen Ihres Kindes geantwortet hat/)).toBeInTheDocument();
  });
});
