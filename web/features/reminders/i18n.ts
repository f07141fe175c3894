import de from '@web/locales/de/reminders.json';
import tr from '@web/locales/tr/reminders.json';
import { registerNamespace } from '@web/lib/i18n';

// The reminders' texts come with their screens' chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('reminders', { de, tr });
