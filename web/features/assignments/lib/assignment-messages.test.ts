import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import { errorMessage, recurrenceSummary, successMessage } from './assignment-messages';

const t = i18n.t.bind(i18n);

describe('assignment dialog messages (SPEC.md section 8)', () => {
  beforeEach(async () => {
    await i18n.changeLanguage('de');
  });

  it('success: repeating tasks count per student, single tasks count in total', () => {
    expect(successMessage(t, 16, 2, true)).toBe('Aufgabe erfolgreich erstellt (wiederholend)! 8 Aufgabe(n) für 2 Schüler erstellt.');
    expect(successMessage(t, 60, 2, true)).toBe('Aufgabe erfolgreich erstellt (wiederholend)! 30 Aufgabe(n) für 2 Schüler erstellt.');
    expect(successMessage(t, 3, 3, false)).toBe('Aufgabe erfolgreich erstellt! 3 Aufgabe(n) für 3 Schüler zugewiesen.');
    expect(successMessage(t, 1, 1, false)).toBe('Aufgabe erfolgreich erstellt! 1 Aufgabe(n) für 1 Schüler zugewiesen.');
  });

  it('errors by status, else the server message or "Unbekannter Fehler"', () => {
    expect(errorMessage(t, new ApiError(401, 'x'))).toBe('Sie müssen eingeloggt sein.');
    expect(errorMessage(t, new ApiError(403, 'x'))).toBe('Sie haben keine Berechtigung, diese Übung zuzuweisen.');
    expect(errorMessage(t, new ApiError(404, 'x'))).toBe('Übung nicht gefunden.');
    expect(errorMessage(t, new ApiError(422, 'Bitte überprüfen Sie Ihre Eingaben'))).toBe(
      'Fehler beim Erstellen der Aufgabe: Bitte überprüfen Sie Ihre Eingaben',
    );
    expect(errorMessage(t, new ApiError(500, 'HTTP 500'))).toBe('Fehler beim Erstellen der Aufgabe: Unbekannter Fehler');
    expect(errorMessage(t, new ApiError(0, 'Keine Verbindung zum Server.'))).toBe('Fehler beim Erstellen der Aufgabe: Keine Verbindung zum Server.');
    expect(errorMessage(t, 'kaputt')).toBe('Fehler beim Erstellen der Aufgabe: Unbekannter Fehler');
  });

  it('summary with the chosen end or the default end', () => {
    expect(recurrenceSummary(t, '2026-11-22', 'none', '')).toBeNull();
    expect(recurrenceSummary(t, '2026-11-22', 'daily', '')).toBe('Wiederholt sich täglich bis 21.12.2026');
    expect(recurrenceSummary(t, '2026-11-22', 'every_2_days', '')).toBe('Wiederholt sich alle 2 Tage bis 19.01.2027');
    expect(recurrenceSummary(t, '2026-11-22', 'weekly', '')).toBe('Wiederholt sich wöchentlich bis 10.01.2027');
    expect(recurrenceSummary(t, '2026-01-31', 'monthly', '')).toBe('Wiederholt sich monatlich bis 28.02.2026');
    expect(recurrenceSummary(t, '2026-11-22', 'weekly', '2026-12-24')).toBe('Wiederholt sich wöchentlich bis 24.12.2026');
  });

  it('speaks Turkish too', async () => {
    await i18n.changeLanguage('tr');
    expect(successMessage(t, 16, 2, true)).toBe('Ödev başarıyla oluşturuldu (tekrarlanan)! 2 öğrenci için 8 ödev oluşturuldu.');
    expect(recurrenceSummary(t, '2026-11-22', 'weekly', '')).toBe('10.01.2027 tarihine kadar her hafta tekrarlanır');
  });
});
