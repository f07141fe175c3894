import de from '@web/locales/de/school.json';
import tr from '@web/locales/tr/school.json';
import { registerNamespace } from '@web/lib/i18n';

// The school's texts come with its screens' chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('school', { de, tr });
