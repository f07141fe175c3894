/**
 * The Turkish texts as one chunk (web/lib/i18n.ts loads it when Turkish is chosen or stored): every
 * web/locales/tr/<namespace>.json but the lazily registered namespaces (LAZY_NAMESPACES).
 */
const files = import.meta.glob<Record<string, unknown>>(['../locales/tr/*.json', '!../locales/tr/school.json', '!../locales/tr/guardians.json', '!../locales/tr/exercises.json', '!../locales/tr/listening.json', '!../locales/tr/password.json', '!../locales/tr/reminders.json', '!../locales/tr/assignments.json', '!../locales/tr/messages.json', '!../locales/tr/recordings.json'], {
  eager: true,
  import: 'default',
});

const texts: Record<string, Record<string, unknown>> = {};
for (const [path, content] of Object.entries(files)) {
  const ns = /\/([^/]+)\.json$/.exec(path)?.[1];
  if (ns) texts[ns] = content;
}

export default texts;
