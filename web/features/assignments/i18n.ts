import de from '@web/locales/de/assignments.json';
import tr from '@web/locales/tr/assignments.json';
import { registerNamespace } from '@web/lib/i18n';

// The assignment dialog's texts come with its chunk, not with the first load (web/lib/i18n.ts;
// DESIGN.md's 170 KB budget of /login).
registerNamespace('assignments', { de, tr });
