import de from '@web/locales/de/guardians.json';
import tr from '@web/locales/tr/guardians.json';
import { registerNamespace } from '@web/lib/i18n';

// The parents' texts come with their screens' chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('guardians', { de, tr });
