import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, buildUrl, setUnauthorizedHandler } from './api';
import i18n from './i18n';

/** A minimal localStorage for the node test environment. */
function memoryStorage(): Storage {
  const data = new Map<string, string>();
  return {
    get length() {
      return data.size;
    },
    clear: () => data.clear(),
    getItem: (k) => data.get(k) ?? null,
    key: (i) => [...data.keys()][i] ?? null,
    removeItem: (k) => void data.delete(k),
    setItem: (k, v) => void data.set(k, String(v)),
  };
}

type Call = { url: string; init: RequestInit };
function stubFetch(status: number, body: unknown, raw = false) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(raw ? (body as string) : body === undefined ? null : JSON.stringify(body), { status });
    }),
  );
  return calls;
}
const headersOf = (c: Call) => c.init.headers as Record<string, string>;

describe('api()', () => {
  let unauthorized: ReturnType<typeof vi.fn<() => void>>;
  beforeEach(async () => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('window', Object.assign(new EventTarget(), { localStorage: globalThis.localStorage }));
    unauthorized = vi.fn<() => void>();
    setUnauthorizedHandler(unauthorized);
    await i18n.changeLanguage('de');
  });
  afterEach(() => vi.unstubAllGlobals());

  it('GETs JSON with Accept-Language and without Authorization when signed out', async () => {
    const calls = stubFetch(200, [{ id: 1 }]);
    await expect(api('/api/courses')).resolves.toEqual([{ id: 1 }]);
    expect(calls[0]!.url).toBe('/api/courses');
    expect(calls[0]!.init.method).toBe('GET');
    expect(headersOf(calls[0]!)['Accept-Language']).toBe('de');
    expect(headersOf(calls[0]!).Authorization).toBeUndefined();
  });

  it('sends the stored token as Bearer and the current language', async () => {
    localStorage.setItem('token', 'abc123');
    await i18n.changeLanguage('tr');
    const calls = stubFetch(200, { ok: true });
    await api('/api/user');
    expect(headersOf(calls[0]!).Authorization).toBe('Bearer abc123');
    expect(headersOf(calls[0]!)['Accept-Language']).toBe('tr');
  });

  it('sends JSON bodies with POST by default and leaves empty query values out', async () => {
    const calls = stubFetch(201, { id: 5 });
    await api('/api/courses', { body: { name: 'Ney' }, query: { language: 'de', course_id: null, page: undefined, q: '', n: 0 } });
    expect(calls[0]!.url).toBe('/api/courses?language=de&n=0');
    expect(calls[0]!.init.method).toBe('POST');
    expect(headersOf(calls[0]!)['Content-Type']).toBe('application/json');
    expect(calls[0]!.init.body).toBe('{"name":"Ney"}');
  });

  it('sends FormData as is (the browser sets the multipart boundary)', async () => {
    const calls = stubFetch(200, {});
    const fd = new FormData();
    fd.append('title', 'x');
    await api('/api/exercises', { formData: fd });
    expect(calls[0]!.init.body).toBe(fd);
    expect(calls[0]!.init.method).toBe('POST');
    expect(headersOf(calls[0]!)['Content-Type']).toBeUndefined();
  });

  it('answers null for 204', async () => {
    stubFetch(204, undefined);
    await expect(api('/api/logout', { method: 'POST' })).resolves.toBeNull();
  });

  it('throws ApiError with status, message, field errors and body', async () => {
    const body = { message: 'Bitte überprüfen Sie Ihre Eingaben', errors: { password: ['Mindestens 8 Zeichen.'] } };
    stubFetch(422, body);
    const err = await api('/api/students', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.status).toBe(422);
    expect(e.message).toBe('Bitte überprüfen Sie Ihre Eingaben');
    expect(e.errors).toEqual(body.errors);
    expect(e.fieldError('password')).toBe('Mindestens 8 Zeichen.');
    expect(e.body).toEqual(body);
    expect(unauthorized).not.toHaveBeenCalled();
  });

  it('keeps a non-JSON error body and names the status', async () => {
    stubFetch(502, '<html>Bad gateway</html>', true);
    const e = (await api('/api/courses').catch((x: unknown) => x)) as ApiError;
    expect(e.status).toBe(502);
    expect(e.message).toBe('HTTP 502');
    expect(e.body).toBe('<html>Bad gateway</html>');
  });

  it('a 401 signs out, except on /api/login', async () => {
    stubFetch(401, { message: 'Bitte melden Sie sich an.' });
    await expect(api('/api/user')).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).toHaveBeenCalledTimes(1);
    await expect(api('/api/login', { body: { email: 'a@b.de', password: 'x' } })).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });

  it('a network failure becomes ApiError with status 0', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(api('/api/courses')).rejects.toMatchObject({ status: 0, name: 'ApiError' });
  });

  it('an abort stays an AbortError', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new DOMException('Aborted', 'AbortError'))));
    await expect(api('/api/courses')).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('reads the warm-up script started (web/lib/warm-reads.ts)', () => {
  const answer = (body: unknown, status = 200) => Promise.resolve(new Response(JSON.stringify(body), { status }));
  const warm = (url: string, response: Promise<Response>, over: Partial<{ token: string; lang: string; at: number }> = {}) =>
    ((globalThis as { __warmReads?: Map<string, unknown> }).__warmReads = new Map([[url, { token: 'abc123', lang: 'de', at: performance.now(), response, ...over }]]));
  beforeEach(async () => {
    vi.stubGlobal('localStorage', memoryStorage());
    vi.stubGlobal('window', Object.assign(new EventTarget(), { localStorage: globalThis.localStorage }));
    localStorage.setItem('token', 'abc123');
    setUnauthorizedHandler(vi.fn<() => void>());
    await i18n.changeLanguage('de');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (globalThis as { __warmReads?: unknown }).__warmReads;
  });

  it('takes over a started read of the same address once; the next call fetches', async () => {
    warm('/api/submissions/7', answer({ id: 7, from: 'warm-up' }));
    const calls = stubFetch(200, { id: 7, from: 'fetch' });
    await expect(api('/api/submissions/7')).resolves.toEqual({ id: 7, from: 'warm-up' });
    expect(calls).toHaveLength(0);
    await expect(api('/api/submissions/7')).resolves.toEqual({ id: 7, from: 'fetch' });
    expect(calls).toHaveLength(1);
  });

  it("keeps the read's status: a 404 is the app's 404", async () => {
    warm('/api/submissions/7/practice-sessions/active', answer({ message: 'Nicht gefunden.' }, 404));
    stubFetch(200, { id: 1 });
    await expect(api('/api/submissions/7/practice-sessions/active')).rejects.toMatchObject({ status: 404 });
  });

  it('fetches for itself when the read was started with another token, another language, too long ago, or failed', async () => {
    const calls = stubFetch(200, { from: 'fetch' });
    warm('/api/submissions/7', answer({ from: 'warm-up' }), { token: 'someone-else' });
    await expect(api('/api/submissions/7')).resolves.toEqual({ from: 'fetch' });
    warm('/api/submissions/7', answer({ from: 'warm-up' }), { lang: 'tr' });
    await expect(api('/api/submissions/7')).resolves.toEqual({ from: 'fetch' });
    warm('/api/submissions/7', answer({ from: 'warm-up' }), { at: performance.now() - 60_000 });
    await expect(api('/api/submissions/7')).resolves.toEqual({ from: 'fetch' });
    warm('/api/submissions/7', Promise.reject(new TypeError('Failed to fetch')));
    await expect(api('/api/submissions/7')).resolves.toEqual({ from: 'fetch' });
    expect(calls).toHaveLength(4);
  });

  it('never takes over a write', async () => {
    warm('/api/submissions/7', answer({ from: 'warm-up' }));
    const calls = stubFetch(200, { from: 'fetch' });
    await expect(api('/api/submissions/7', { method: 'PATCH', body: { status: 'completed' } })).resolves.toEqual({ from: 'fetch' });
    expect(calls).toHaveLength(1);
  });
});

describe('buildUrl', () => {
  it.each([
    ['/api/x', undefined, '/api/x'],
    ['/api/x', { a: 1, b: true }, '/api/x?a=1&b=true'],
    ['/api/x?z=1', { a: 'ä b' }, '/api/x?z=1&a=%C3%A4+b'],
    ['/api/x', { a: null, b: '' }, '/api/x'],
  ])('%s %j → %s', (path, query, expected) => {
    expect(buildUrl(path, query)).toBe(expected);
  });
});
