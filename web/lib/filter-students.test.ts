import { describe, expect, it } from 'vitest';
import { filterStudents, foldForSearch } from './filter-students';

const students = [
  { id: 1, name: 'Ayşe Demir', email: 'ayse@example.com' },
  { id: 2, name: 'Lukas Becker', email: 'lukas@example.com' },
  { id: 3, name: 'İlker Şahin', email: 'ilker.sahin@schule.de' },
  { id: 4, name: 'Jonas Groß', email: 'JONAS@Example.com' },
];

describe('filterStudents', () => {
  it('returns everyone for an empty or blank search', () => {
    expect(filterStudents(students, '')).toHaveLength(4);
    expect(filterStudents(students, '   ')).toHaveLength(4);
  });

  it.each([
    ['ayşe', [1]],
    ['AYSE', [1]],
    ['demir', [1]],
    ['becker', [2]],
    ['ilker', [3]],
    ['şah', [3]],
    ['schule.de', [3]],
    ['jonas@example', [4]],
    ['gross', [4]],
    ['example.com', [1, 2, 4]],
    ['zzz', []],
  ])('"%s" finds %j by name or e-mail', (search, ids) => {
    expect(filterStudents(students, search).map((s) => s.id)).toEqual(ids);
  });

  it('folds case, accents and the Turkish i', () => {
    expect(foldForSearch('İLKER Işık Çağrı')).toBe('ilker isik cagri');
  });
});
