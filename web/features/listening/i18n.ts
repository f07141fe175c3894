import de from '@web/locales/de/listening.json';
import tr from '@web/locales/tr/listening.json';
import { registerNamespace } from '@web/lib/i18n';

// The listening reports' texts come with their chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('listening', { de, tr });
