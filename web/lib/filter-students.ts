/** Lower case without accents, with Turkish dotless/dotted i folded to i: 'Ayşe' ~ 'ayse', 'İlker' ~ 'ilker'. */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ı/g, 'i')
    .replace(/ß/g, 'ss');
}

/** The students whose name or e-mail contains the search text (case- and accent-insensitive). */
export function filterStudents<T extends { name: string; email: string }>(students: readonly T[], search: string): T[] {
  const needle = foldForSearch(search.trim());
  if (!needle) return [...students];
  return students.filter((s) => foldForSearch(s.name).includes(needle) || foldForSearch(s.email).includes(needle));
}
