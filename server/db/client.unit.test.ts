import { describe, expect, it } from 'vitest';
import { preparedName } from './client';

describe('preparedName (statements kept prepared on PostgreSQL connections)', () => {
  it('names reads and writes, the same text always the same name, different texts different names', () => {
    const a = preparedName('select * from courses where teacher_id = $1');
    expect(a).toMatch(/^uk_[0-9a-f]{20}$/);
    expect(preparedName('select * from courses where teacher_id = $1')).toBe(a);
    expect(preparedName('select * from courses where teacher_id = $2')).not.toBe(a);
    for (const q of ['with x as (select 1) select * from x', 'insert into t values ($1)', ' UPDATE t set a = $1', 'delete from t where id = $1'])
      expect(preparedName(q)).not.toBeNull();
  });

  it('leaves transaction control, DDL and statements with long parameter lists unnamed', () => {
    for (const q of ['begin', 'commit', 'rollback', 'create index x on t (a)', 'drop table t', 'set local x = 1']) expect(preparedName(q)).toBeNull();
    const list = Array.from({ length: 40 }, (_, i) => `$${i + 1}`).join(', ');
    expect(preparedName(`select * from t where id in (${list})`)).toBeNull();
  });
});
