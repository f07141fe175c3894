import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * One voice per audience (web/locales/GLOSSARY.md, "Anrede / hitap"): students are addressed with
 * "du" / "sen", adults (teachers, parents, administrators) with "Sie" / "siz", and texts that both
 * see use neither. A key's audience comes from AUDIENCE below: the namespace (file) gives the default,
 * a longer `namespace:key.prefix` entry overrides it. A new namespace must be added here.
 */
type Audience = 'student' | 'adult' | 'both';

export const AUDIENCE: Record<string, Audience> = {
  assignments: 'adult',
  auth: 'both',
  calendar: 'both',
  'calendar:subscription.hint.student': 'student',
  'calendar:subscription.hint.teacher': 'adult',
  common: 'both',
  'common:errors.validation': 'adult', // the teacher's forms (SPEC.md section 8)
  'common:inviteLink': 'adult', // teachers and administrators invite
  courses: 'adult',
  dashboard: 'adult',
  exercises: 'adult',
  guardians: 'adult',
  layout: 'both',
  listening: 'both',
  'listening:take': 'student',
  'listening:report': 'adult',
  media: 'both',
  messages: 'both',
  'messages:student': 'student',
  'messages:adult': 'adult',
  offline: 'both',
  password: 'both',
  practice: 'student',
  'practice:historyTitle': 'adult',
  'practice:historyEmpty': 'adult',
  progress: 'both',
  'progress:dashboard': 'student',
  'progress:home': 'student',
  'progress:upcoming': 'student',
  'progress:chart.emptyStudent': 'student',
  'progress:chart.emptyTeacher': 'adult',
  'progress:detail': 'adult',
  'progress:recent': 'adult',
  'progress:review': 'adult',
  'progress:report': 'adult',
  recordings: 'both',
  reminders: 'student',
  'reminders:weekly': 'adult',
  'reminders:unsubscribeWeekly': 'adult',
  'reminders:digestParent': 'adult',
  'reminders:pushParent': 'adult',
  'reminders:settingsParent': 'adult',
  'reminders:unsubscribeDigest': 'both',
  'recordings:recorder': 'student',
  'recordings:permission': 'student',
  'recordings:send': 'student',
  'recordings:pending': 'student',
  'recordings:storage': 'student',
  'offline:storageErrors': 'student',
  'recordings:feedback': 'student',
  'recordings:player.keysTeacher': 'adult',
  'recordings:comments': 'adult',
  'recordings:answer': 'adult',
  'recordings:inbox': 'adult',
  'recordings:keys': 'adult',
  'recordings:quick': 'adult',
  'recordings:voice': 'adult',
  'recordings:latest': 'student',
  'recordings:run': 'student',
  school: 'adult',
  students: 'adult',
  tasks: 'student',
  'tasks:detail.students': 'adult',
  'tasks:detail.backToDashboard': 'adult',
  'tasks:detail.notFoundText': 'both',
  'tasks:detail.teacherView': 'adult',
  'tasks:detail.student': 'adult',
  'tasks:remove': 'adult',
  tools: 'both',
};

/**
 * German texts that SPEC.md fixes verbatim although they address a student with "Sie" (section 8:
 * the task's errors). They stay as SPEC.md has them; their Turkish follows the audience.
 */
export const SPEC_FIXED_DE: Record<string, string> = {
  'tasks:complete.forbidden': 'Sie haben keine Berechtigung, diese Aufgabe zu bearbeiten.',
  'tasks:detail.loadForbidden': 'Sie haben keine Berechtigung, diese Aufgabe anzusehen.',
};

export function audienceOf(id: string): Audience {
  let best = '';
  for (const prefix of Object.keys(AUDIENCE)) {
    const [ns, key = ''] = prefix.split(':') as [string, string?];
    const matches = key === '' ? id.startsWith(`${ns}:`) : id === prefix || id.startsWith(`${prefix}.`) || id.startsWith(`${prefix}_`);
    if (matches && prefix.length > best.length) best = prefix;
  }
  if (!best) throw new Error(`${id}: no audience – add its namespace to AUDIENCE in web/locales/voice.test.ts`);
  return AUDIENCE[best]!;
}

const L = '\\p{L}';
/** A sentence's start: the text's start, or after . ! ? : ; – and spaces (also after an opening quote). */
const START = `(?:^|[.!?:;–]\\s+)[„“"]?`;

/** German "Sie" forms. A "Sie" opening a sentence counts when its verb is plural ("Sie haben", not "Sie bleibt"). */
const DE_FORMAL: RegExp[] = [
  new RegExp(`(?<!${START})(?<!${L})(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)(?!${L})`, 'u'),
  new RegExp(`${START}Sie\\s+(${L}*(en|rn|ln)|sind)(?!${L})`, 'u'),
  new RegExp(`${START}(Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)(?!${L})`, 'u'),
];
/** German "du" forms, and the common imperatives of "du" opening a sentence. */
const DE_INFORMAL: RegExp[] = [
  new RegExp(`(?<!${L})(du|dich|dir|dein|deine|deinen|deinem|deiner|deines)(?!${L})`, 'iu'),
  new RegExp(`${START}(Starte|Stoppe|Lösche|Sende|Frag|Sag|Wähle|Prüfe|Gib|Öffne|Tippe|Spiel|Spiele|Nimm|Markiere|Übe|Erlaube|Lade|Melde)(?!${L})`, 'u'),
];
/**
 * Turkish "siz" forms: the 2nd person plural endings (-ınız, yetkiniz, misiniz), siz/size/sizin, and
 * imperatives in -ın/-in/-un/-ün ending a clause after another word ("Lütfen onaylayın.", not the
 * possessive "Kaydın" alone) or after a vowel with y ("deneyin").
 */
const TR_FORMAL: RegExp[] = [
  /(ınız|iniz|unuz|ünüz)/u,
  new RegExp(`(?<!${L})(siz|size|sizi|sizin|sizden|sizde)(?!${L})`, 'iu'),
  new RegExp(`(?<=\\s)(?!(bugün|dokun|olsun)(?!${L}))${L}{3,}(ın|in|un|ün)(?=\\s*([.!?;]|$))`, 'iu'),
  new RegExp(`${L}{2,}y(ın|in|un|ün)(?!${L})`, 'u'),
];
/** Turkish "sen" forms: sen/sana/senin and the 2nd person singular verb endings ("yapabilirsin", "ediyorsun", "çalışmalısın"). */
const TR_INFORMAL: RegExp[] = [
  new RegExp(`(?<!${L})(sen|seni|sana|senin|sende|senden)(?!${L})`, 'iu'),
  new RegExp(`${L}+(yor|ır|ir|ur|ür|ar|er|malı|meli|acak|ecek)s(ın|in|un|ün)(?!${L})`, 'u'),
];

/** Placeholders ({{name}}) are not words of the text. */
const bare = (text: string) => text.replace(/\{\{[^}]*\}\}/g, 'X');

export function voiceProblems(language: 'de' | 'tr', audience: Audience, text: string): string[] {
  const t = bare(text);
  const formal = language === 'de' ? DE_FORMAL : TR_FORMAL;
  const informal = language === 'de' ? DE_INFORMAL : TR_INFORMAL;
  const out: string[] = [];
  if (audience !== 'adult') for (const r of formal) if (r.test(t)) out.push(`${language === 'de' ? 'Sie' : 'siz'} form (${r.exec(t)?.[0]}) in a ${audience} text`);
  if (audience !== 'student') for (const r of informal) if (r.test(t)) out.push(`${language === 'de' ? 'du' : 'sen'} form (${r.exec(t)?.[0]}) in a ${audience} text`);
  return out;
}

const root = dirname(fileURLToPath(import.meta.url));

function strings(value: unknown, path: string[] = []): Array<{ key: string; text: string }> {
  if (typeof value === 'string') return [{ key: path.join('.'), text: value }];
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, [...path, k]));
  return [];
}

function texts(language: 'de' | 'tr'): Array<{ id: string; text: string }> {
  const dir = join(root, language);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .flatMap((f) => strings(JSON.parse(readFileSync(join(dir, f), 'utf8'))).map(({ key, text }) => ({ id: `${f.slice(0, -5)}:${key}`, text })));
}

/**
 * The server's and the contract's own texts ({ de, tr } pairs in the .ts files of server/ and contract/),
 * by file; `file#name` overrides one message (the property that holds the pair).
 */
export const SERVER_AUDIENCE: Record<string, Audience> = {
  'server/app.ts': 'both',
  'server/errors.ts': 'both',
  'server/lib/idempotency.ts': 'both',
  'server/lib/media-guard.ts': 'both',
  'server/lib/upload.ts': 'both',
  'server/modules/assignments/assignments.service.ts': 'adult',
  'server/modules/auth/password-reset.ts': 'both',
  'server/modules/calendar-feed/calendar-feed.service.ts': 'both',
  'server/modules/calendar/calendar.service.ts': 'both',
  'server/modules/exercises/exercises.service.ts': 'adult',
  'server/modules/exercises/exercises.upload.ts': 'adult',
  'server/modules/guardians/guardians.service.ts': 'adult',
  'server/modules/media/media.routes.ts': 'both',
  'server/modules/practice/practice.service.ts': 'student',
  'server/modules/recordings/analysis.service.ts': 'both',
  'server/modules/recordings/recordings.routes.ts': 'student',
  'server/modules/recordings/recordings.service.ts': 'both',
  'server/modules/recordings/recordings.upload.ts': 'student',
  'server/modules/school/invites.ts': 'adult',
  'server/modules/school/school.service.ts': 'adult',
  'server/modules/storage/storage.service.ts': 'adult',
  'server/modules/students/students.service.ts': 'adult',
  'server/modules/submissions/submissions.service.ts': 'both',
  'server/modules/submissions/submissions.service.ts#reviewed': 'student',
  'server/modules/submissions/submissions.service.ts#studentOnly': 'adult',
  'server/modules/quick-replies/quick-replies.routes.ts': 'adult',
  'server/modules/reminders/reminders.service.ts': 'student',
  'server/modules/messages/messages.service.ts': 'both',
  'contract/messages.ts': 'both',
  'server/modules/recordings/voice-comment.upload.ts': 'adult',
  'contract/common.ts': 'both',
  'contract/exercise-settings.ts': 'adult',
  'contract/recordings.ts': 'student',
  'contract/storage-limits.ts': 'both',
  'contract/storage-limits.ts#studentQuota': 'student',
  'contract/students.ts': 'adult',
};

/** SPEC.md section 8's generic validation message, which the server sends to everyone as SPEC.md has it. */
const SPEC_FIXED_SERVER_DE = new Set(['Bitte überprüfen Sie Ihre Eingaben']);

const repo = join(root, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(repo, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'test' || e.name === 'node_modules' ? [] : sourceFiles(rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [rel] : [];
  });
}

/** Every `de: '…'` / `tr: '…'` literal of the server and the contract, with the name of the property holding the pair. */
function serverTexts(): Array<{ file: string; name: string | undefined; language: 'de' | 'tr'; text: string }> {
  const pair = /(?<![\w.])(de|tr):\s*(['`"])((?:\\.|(?!\2)[\s\S])*?)\2/g;
  return [...sourceFiles('server'), ...sourceFiles('contract')].flatMap((file) => {
    const source = readFileSync(join(repo, file), 'utf8');
    return [...source.matchAll(pair)].map((m) => ({
      file,
      name: /(\w+):\s*\{[^{}]*$/.exec(source.slice(Math.max(0, m.index - 300), m.index))?.[1],
      language: m[1] as 'de' | 'tr',
      text: m[3]!.replace(/\$\{[^}]*\}/g, 'X'),
    }));
  });
}

describe('one voice per audience', () => {
  it('the server and the contract: every message file has an audience, and each text its form', () => {
    const all = serverTexts();
    expect(all.length).toBeGreaterThan(100);
    const problems = all.flatMap(({ file, name, language, text }) => {
      const audience = SERVER_AUDIENCE[`${file}#${name}`] ?? SERVER_AUDIENCE[file];
      if (!audience) return [`${file}: no audience – add it to SERVER_AUDIENCE in web/locales/voice.test.ts`];
      if (language === 'de' && SPEC_FIXED_SERVER_DE.has(text)) return [];
      return voiceProblems(language, audience, text).map((p) => `${file}#${name ?? '?'}: ${p}: "${text}"`);
    });
    expect(problems.join('\n')).toBe('');
  });

  for (const language of ['de', 'tr'] as const) {
    it(`${language}: every key has an audience, and its text the audience's form`, () => {
      const all = texts(language);
      expect(all.length).toBeGreaterThan(500);
      const problems = all.flatMap(({ id, text }) => {
        if (language === 'de' && id in SPEC_FIXED_DE) return text === SPEC_FIXED_DE[id] ? [] : [`${id}: SPEC.md fixes "${SPEC_FIXED_DE[id]}"`];
        return voiceProblems(language, audienceOf(id), text).map((p) => `${id}: ${p}: "${text}"`);
      });
      expect(problems.join('\n')).toBe('');
    });
  }

  it('knows the audiences of the examples', () => {
    expect(audienceOf('tasks:list.title')).toBe('student');
    expect(audienceOf('tasks:remove.confirmOne')).toBe('adult');
    expect(audienceOf('progress:home.summary')).toBe('student');
    expect(audienceOf('progress:stats.weekly')).toBe('both');
    expect(audienceOf('recordings:inbox.count_one')).toBe('adult');
    expect(() => audienceOf('unknownns:key')).toThrow(/no audience/);
  });

  it('fails on a planted mixed form (the check itself works)', () => {
    // German: the measured mix on one student's screens, and its counterparts.
    expect(voiceProblems('de', 'student', 'Starten Sie den Timer, wenn Sie beginnen.')).not.toEqual([]);
    expect(voiceProblems('de', 'student', 'Sie haben keine offenen Aufgaben.')).not.toEqual([]);
    expect(voiceProblems('de', 'student', 'Ihr Browser kann das nicht.')).not.toEqual([]);
    expect(voiceProblems('de', 'adult', 'Dein Überblick über die Schüler')).not.toEqual([]);
    expect(voiceProblems('de', 'adult', 'Starte den Timer.')).not.toEqual([]);
    expect(voiceProblems('de', 'both', 'Bitte prüfen Sie Ihre Verbindung.')).not.toEqual([]);
    expect(voiceProblems('de', 'both', 'Prüfe deine Verbindung.')).not.toEqual([]);
    // Turkish: siz in a student text, sen in an adult text.
    expect(voiceProblems('tr', 'student', 'Zamanlayıcıyı başlatın.')).not.toEqual([]);
    expect(voiceProblems('tr', 'student', 'Lütfen tekrar deneyin')).not.toEqual([]);
    expect(voiceProblems('tr', 'student', 'Açık ödeviniz yok.')).not.toEqual([]);
    expect(voiceProblems('tr', 'adult', 'Ödevi yine de çalışabilirsin.')).not.toEqual([]);
    expect(voiceProblems('tr', 'adult', 'Burada acele ediyorsun')).not.toEqual([]);
    expect(voiceProblems('tr', 'both', 'Sana bir bağlantı gönderildi.')).not.toEqual([]);
    // The right forms pass, and a "Sie" that means "she/it" is not an address.
    expect(voiceProblems('de', 'student', 'Starte den Timer, wenn du beginnst. Sie bleibt auf diesem Gerät gespeichert.')).toEqual([]);
    expect(voiceProblems('de', 'adult', 'Starten Sie den Timer. Ihre Schüler sehen es.')).toEqual([]);
    expect(voiceProblems('de', 'both', 'Die Aufnahme ist gespeichert. Sie wird gesendet, sobald das Netz zurück ist.')).toEqual([]);
    expect(voiceProblems('tr', 'student', 'Zamanlayıcıyı başlat; ödevin tamamlandı olarak işaretlenir.')).toEqual([]);
    expect(voiceProblems('tr', 'adult', 'Zamanlayıcıyı başlatın ve öğrencinin kaydını dinleyin.')).toEqual([]);
    expect(voiceProblems('tr', 'both', 'Bağlantı yok. Değişiklikler bu cihazda kayıtlı.')).toEqual([]);
  });
});
