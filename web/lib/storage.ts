import { STORAGE_KEYS } from '@contract/constants';

/** localStorage access that never throws (private mode, disabled storage, server-side tests). */
function store(): Storage | null {
  try {
    return typeof window !== 'undefined' && window.localStorage ? window.localStorage : null;
  } catch {
    return null;
  }
}

export function readStorage(key: string): string | null {
  try {
    return store()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    const s = store();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // storage full or disabled: the app keeps working for this page view
  }
}

export const getToken = () => readStorage(STORAGE_KEYS.token);
export const setToken = (token: string | null) => writeStorage(STORAGE_KEYS.token, token);

export const getStoredLanguage = () => readStorage(STORAGE_KEYS.language);
export const setStoredLanguage = (language: string) => writeStorage(STORAGE_KEYS.language, language);

/** The selected course id (null = all courses). A falsy or malformed stored value means all courses. */
export function getSelectedCourseId(): number | null {
  const raw = readStorage(STORAGE_KEYS.selectedCourseId);
  const id = raw ? Number(raw) : NaN;
  return Number.isInteger(id) && id > 0 ? id : null;
}
export function setSelectedCourseId(id: number | null): void {
  writeStorage(STORAGE_KEYS.selectedCourseId, id ? String(id) : null);
}
