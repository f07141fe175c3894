import de from '@web/locales/de/exercises.json';
import tr from '@web/locales/tr/exercises.json';
import { registerNamespace } from '@web/lib/i18n';

// The exercise library's texts come with the teacher's exercise screens, not with the first load
// (web/lib/i18n.ts; DESIGN.md's 170 KB budget of /login).
registerNamespace('exercises', { de, tr });
