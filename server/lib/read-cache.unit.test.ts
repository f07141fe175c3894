import { describe, expect, it } from 'vitest';
import { pickEncoding, ReadCache, tenantOf, wantsFresh } from './read-cache';

const body = (s: string) => Buffer.from(s, 'utf8');

describe('ReadCache', () => {
  it('serves an answer until its tenant changes or it expires', () => {
    const c = new ReadCache({ ttlMs: 1000 });
    expect(c.set('k', 1, c.generation(1), body('a'), 0)).toBe(true);
    expect(c.get('k', 1, 999)?.body.toString()).toBe('a');
    expect(c.get('k', 1, 1000)).toBeUndefined(); // expired
    c.set('k', 1, c.generation(1), body('b'), 2000);
    c.bump(2); // another tenant
    expect(c.get('k', 1, 2001)?.body.toString()).toBe('b');
    c.bump(1);
    expect(c.get('k', 1, 2002)).toBeUndefined();
    expect(c.snapshot()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('does not keep what a read saw when a write in its tenant ended meanwhile', () => {
    const c = new ReadCache({ ttlMs: 1000 });
    const gen = c.generation(7); // the read starts
    c.bump(7); // a write in the tenant answers
    expect(c.set('k', 7, gen, body('maybe old'), 0)).toBe(false);
    expect(c.get('k', 7, 1)).toBeUndefined();
  });

  it('never answers one tenant with another tenant’s entry under the same key', () => {
    const c = new ReadCache({ ttlMs: 1000 });
    c.set('k', 1, 0, body('one'), 0);
    expect(c.get('k', 2, 1)).toBeUndefined();
  });

  it('stays within its byte limit, dropping the least recently used first, and skips answers over the entry limit', () => {
    const c = new ReadCache({ ttlMs: 10_000, maxBytes: 10, maxEntryBytes: 6 });
    c.set('a', 1, 0, body('aaaa'), 0);
    c.set('b', 1, 0, body('bbbb'), 0);
    c.get('a', 1, 1); // a is now the most recent
    c.set('c', 1, 0, body('cccc'), 2);
    expect(c.get('b', 1, 3)).toBeUndefined();
    expect(c.get('a', 1, 3)?.body.toString()).toBe('aaaa');
    expect(c.get('c', 1, 3)?.body.toString()).toBe('cccc');
    expect(c.snapshot().bytes).toBe(8);
    expect(c.set('d', 1, 0, body('ddddddd'), 4)).toBe(false);
    expect(c.snapshot().bytes).toBe(8);
  });

  it('counts the compressed forms, made once, and drops them with their entry', () => {
    const c = new ReadCache({ ttlMs: 10_000 });
    const text = JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `Schüler ${i}` })));
    c.set('k', 1, 0, body(text), 0);
    const e = c.get('k', 1, 1)!;
    const br = c.encoded(e, 'br');
    expect(c.encoded(e, 'br')).toBe(br);
    const gz = c.encoded(e, 'gzip');
    expect(c.snapshot().bytes).toBe(Buffer.byteLength(text) + br.length + gz.length);
    c.bump(1);
    expect(c.snapshot().bytes).toBe(0);
  });
});

describe('tenantOf', () => {
  it('is the teacher for a teacher and the owning teacher for a student', () => {
    const base = { name: 'x', email: 'x@example.test', tokenId: 1, schoolId: 1 };
    expect(tenantOf({ ...base, id: 5, role: 'teacher', teacherId: null })).toBe(5);
    expect(tenantOf({ ...base, id: 9, role: 'student', teacherId: 5 })).toBe(5);
  });
});

describe('pickEncoding', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['identity', undefined],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['gzip;q=0, br;q=0', undefined],
    ['*', 'br'],
    ['*;q=0, gzip', 'gzip'],
    ['GZIP', 'gzip'],
  ])('%s → %s', (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe('wantsFresh', () => {
  it.each([
    [{}, false],
    [{ 'cache-control': 'no-cache' }, true],
    [{ 'cache-control': 'max-age=0' }, true],
    [{ 'cache-control': 'private, no-store' }, true],
    [{ 'cache-control': 'max-age=60' }, false],
    [{ 'cache-control': 'no-transform' }, false],
    [{ pragma: 'no-cache' }, true],
  ])('%j → %s', (headers, expected) => {
    expect(wantsFresh({ headers })).toBe(expected);
  });
});
