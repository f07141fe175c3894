import { getToken, setToken } from './storage';
import i18n from './i18n';
import { reportAnswer, reportNoAnswer } from './connectivity';
import { takeWarmRead } from './warm-reads';

export type ApiErrorBody = { message?: string; errors?: Record<string, string[]>; [key: string]: unknown };

/** Every failed call: HTTP status (0 = no answer), the server's message, field errors and the whole body. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors?: Record<string, string[]>;
  readonly body: unknown;
  /** Seconds from the answer's Retry-After header, when it had one. */
  readonly retryAfter?: number;
  constructor(status: number, message: string, errors?: Record<string, string[]>, body?: unknown, retryAfter?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.body = body;
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
  }
  /** The first error text of a field (e.g. `fieldError('password')`). */
  fieldError(field: string): string | undefined {
    return this.errors?.[field]?.[0];
  }
}

export type QueryValue = string | number | boolean | null | undefined;

export type ApiOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Query parameters; null, undefined and '' are left out. */
  query?: Record<string, QueryValue>;
  /** A JSON body. */
  body?: unknown;
  /** A multipart body (uploads). */
  formData?: FormData;
  /** Upload progress 0..1 (uses XMLHttpRequest). */
  onUploadProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** A key the server answers a repeat of this write with the first answer for (`Idempotency-Key`). */
  idempotencyKey?: string;
};

export const API_BASE: string = import.meta.env.VITE_API_URL ?? '';

type UnauthorizedHandler = () => void;
let unauthorizedHandler: UnauthorizedHandler = () => {
  setToken(null);
  if (typeof window !== 'undefined' && window.location.pathname !== '/login') window.location.assign('/login');
};

/** The app decides what a 401 does (clear the session, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  unauthorizedHandler = handler;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v === null || v === undefined || v === '') continue;
    params.append(k, String(v));
  }
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? (path.includes('?') ? '&' : '?') + qs : ''}`;
}

function headersFor(opts: ApiOptions): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': i18n.language || 'de' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (opts.body !== undefined && !opts.formData) headers['Content-Type'] = 'application/json';
  if (opts.idempotencyKey) headers['Idempotency-Key'] = opts.idempotencyKey;
  return headers;
}

function parseBody(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function fail(path: string, status: number, body: unknown, retryAfterHeader?: string | null): never {
  const b = (body && typeof body === 'object' ? body : {}) as ApiErrorBody;
  const message = typeof b.message === 'string' && b.message ? b.message : `HTTP ${status}`;
  if (status === 401 && !path.startsWith('/api/login')) unauthorizedHandler();
  const retryAfter = retryAfterHeader && /^\d+$/.test(retryAfterHeader) ? Number(retryAfterHeader) : undefined;
  throw new ApiError(status, message, b.errors, body, retryAfter);
}

function xhrRequest(url: string, method: string, headers: Record<string, string>, opts: ApiOptions): Promise<{ status: number; text: string; retryAfter: string | null }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) opts.onUploadProgress?.(e.loaded / e.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText, retryAfter: xhr.getResponseHeader('retry-after') });
    xhr.onerror = () => {
      if (method === 'GET') reportNoAnswer();
      reject(new ApiError(0, i18n.t('common:errors.network'), undefined, null));
    };
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(opts.formData ?? (opts.body !== undefined ? JSON.stringify(opts.body) : null));
  });
}

/** Calls the API: JSON in, JSON out; throws ApiError on any non-2xx answer. */
export async function api<T = unknown>(path: string, opts: ApiOptions = {}): Promise<T> {
  const method = opts.method ?? (opts.body !== undefined || opts.formData ? 'POST' : 'GET');
  const url = buildUrl(path, opts.query);
  const headers = headersFor(opts);
  let status: number;
  let text: string;
  let retryAfter: string | null = null;
  if (opts.onUploadProgress) {
    ({ status, text, retryAfter } = await xhrRequest(url, method, headers, opts));
  } else {
    let res: Response;
    const send = () =>
      fetch(url, {
        method,
        headers,
        body: opts.formData ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
        signal: opts.signal,
      });
    // A first read the warm-up script already started (web/lib/warm-reads.ts); failed, it is asked again.
    const warm = method === 'GET' ? takeWarmRead(url, getToken(), headers['Accept-Language'] ?? '') : null;
    try {
      res = warm ? await warm.catch(send) : await send();
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') throw err;
      // A read without an answer means no connection; a write that broke off (an upload on a
      // weak line) is reported to its caller, who queues or offers it again.
      if (method === 'GET') reportNoAnswer();
      throw new ApiError(0, i18n.t('common:errors.network'), undefined, null);
    }
    status = res.status;
    retryAfter = res.headers.get('retry-after');
    text = await res.text();
  }
  reportAnswer();
  const body = parseBody(text);
  if (status < 200 || status >= 300) fail(path, status, body, retryAfter);
  return body as T;
}

export function isApiError(err: unknown, status?: number): err is ApiError {
  return err instanceof ApiError && (status === undefined || err.status === status);
}
