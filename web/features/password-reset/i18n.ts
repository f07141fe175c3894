import de from '@web/locales/de/password.json';
import tr from '@web/locales/tr/password.json';
import { registerNamespace } from '@web/lib/i18n';

// The "Passwort vergessen?" pages' texts come with their chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('password', { de, tr });
