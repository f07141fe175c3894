import de from '@web/locales/de/recordings.json';
import tr from '@web/locales/tr/recordings.json';
import { registerNamespace } from '@web/lib/i18n';

// The takes' and feedback's texts come with their screens' chunk, not with the first load (web/lib/i18n.ts).
registerNamespace('recordings', { de, tr });
