import de from '@web/locales/de/messages.json';
import tr from '@web/locales/tr/messages.json';
import { registerNamespace } from '@web/lib/i18n';

// The messages' texts come with their screens' chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('messages', { de, tr });
