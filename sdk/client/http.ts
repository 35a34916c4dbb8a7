// The one http client of the panel: JSON in and out, cookies of the same origin, errors as ApiError
// values with the server's code (the UI translates codes; messages never leak internals). Every
// request is reported to the listeners of onHttpEvent (spec §7: the debug panel logs method, url,
// status, request body and response body).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ApiErrorBody } from '../types';
import { uiStore } from './stores/ui';

/** An API failure: the server's `{ error: { code, message, field? } }`, or a code for what went wrong. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    /** HTTP status; 0 when the server could not be reached */
    readonly status: number,
    /** machine-readable code, e.g. VALIDATION_ERROR, INVALID_CREDENTIALS, NETWORK_ERROR */
    readonly code: string,
    message: string,
    /** the form field the error is about, when the server names one */
    readonly field?: string,
    /** the parsed response body, for callers that need more than code and message */
    readonly body?: unknown,
  ) {
    super(message);
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** One request as the debug panel shows it. */
export interface HttpEvent {
  id: number;
  method: string;
  url: string;
  /** HTTP status, or null when no answer arrived (network failure, aborted) */
  status: number | null;
  requestBody: unknown;
  responseBody: unknown;
  startedAt: number;
  durationMs: number;
  /** the error code when the request failed */
  error?: string;
  /** how it went out: `xhr` for an upload with progress (not through fetch: the kernel's recorder hears it here) */
  transport: 'fetch' | 'xhr';
}

export type HttpEventListener = (event: HttpEvent) => void;

const listeners = new Set<HttpEventListener>();

/** Listens to every request the sdk's http client makes. @returns a function that stops listening */
export function onHttpEvent(listener: HttpEventListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emitHttpEvent(event: HttpEvent): void {
  for (const listener of listeners) {
    try {
      listener(event);
    } catch (error) {
      console.error('[sdk] an http event listener threw', error);
    }
  }
}

type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

let fetchOverride: FetchFunction | null = null;

/**
 * Replaces the transport (tests: `@orepanel/sdk/testing` answers requests without a server).
 * Pass null to go back to the browser's fetch.
 */
export function setHttpFetch(fetchFunction: FetchFunction | null): void {
  fetchOverride = fetchFunction;
}

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** fetch's cache mode, e.g. 'no-store' */
  cache?: RequestCache;
  /** appended as a query string; null and undefined values are left out */
  query?: Record<string, QueryValue>;
}

/** A code for an error answer that comes without a JSON error body. */
function codeForStatus(status: number): string {
  if (status === 503) return 'SERVER_UNAVAILABLE';
  if (status >= 500) return 'SERVER_ERROR';
  if (status === 404) return 'NOT_FOUND';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 429) return 'RATE_LIMITED';
  return 'HTTP_ERROR';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Turns an error answer into an ApiError (the one error shape, or the session's error_code shape). */
export function toApiError(status: number, body: unknown, statusText = ''): ApiError {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string') {
    const e = body.error as ApiErrorBody['error'];
    return new ApiError(status, e.code, typeof e.message === 'string' ? e.message : e.code, typeof e.field === 'string' ? e.field : undefined, body);
  }
  if (isRecord(body) && typeof body.error_code === 'string') {
    return new ApiError(status, body.error_code, typeof body.message === 'string' ? body.message : body.error_code, undefined, body);
  }
  return new ApiError(status, codeForStatus(status), statusText || `Request failed with status ${status}`, undefined, body);
}

export const NETWORK_ERROR_MESSAGE = 'The server could not be reached. Check your connection and try again.';

function withQuery(url: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== null && value !== undefined) params.append(key, String(value));
  const text = params.toString();
  return text ? `${url}${url.includes('?') ? '&' : '?'}${text}` : url;
}

function isRawBody(body: unknown): body is BodyInit {
  return (
    typeof body === 'string' ||
    (typeof FormData !== 'undefined' && body instanceof FormData) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof URLSearchParams !== 'undefined' && body instanceof URLSearchParams)
  );
}

/** An answer read to its end: what every caller of a shared request parses for itself. */
interface RawAnswer {
  status: number;
  ok: boolean;
  statusText: string;
  contentType: string;
  text: string;
}

/** Reading the answer's body failed after its headers came (the status is known). */
class BodyReadError extends Error {
  constructor(
    readonly status: number,
    readonly reason: unknown,
  ) {
    super('the answer could not be read');
  }
}

async function fetchRaw(send: FetchFunction, target: string, init: RequestInit): Promise<RawAnswer> {
  const response = await send(target, init);
  let text = '';
  if (response.status !== 204 && response.status !== 205) {
    try {
      text = await response.text();
    } catch (error) {
      throw new BodyReadError(response.status, error);
    }
  }
  return { status: response.status, ok: response.ok, statusText: response.statusText, contentType: response.headers.get('content-type') ?? '', text };
}

/** The body of an answer: JSON when it says so (and parses), else its text; undefined when empty. */
function parseBody(raw: RawAnswer): unknown {
  if (!raw.text) return undefined;
  if (raw.contentType.includes('json')) {
    try {
      return JSON.parse(raw.text);
    } catch {
      return raw.text;
    }
  }
  return raw.text;
}

function isAbortError(error: unknown): error is DOMException {
  return error instanceof DOMException && error.name === 'AbortError';
}

function abortError(): DOMException {
  return new DOMException('The request was aborted.', 'AbortError');
}

/** One GET on its way, shared by everyone who asked for the same thing meanwhile. */
interface SharedRequest {
  answer: Promise<RawAnswer>;
  controller: AbortController;
  waiting: number;
}

const inFlight = new Map<string, SharedRequest>();

/**
 * spec §9 networkOptimization: identical GETs asked for while one is on its way share its answer — one
 * request instead of several when a page's parts (a widget, a badge, a list) want the same data at
 * once. Each caller still gets its own parsed copy and may abort alone; the request itself is aborted
 * only when every caller gave up. Once answered, the next GET goes to the server again: this shares,
 * it never caches.
 */
function sharedGet(send: FetchFunction, target: string, init: RequestInit, signal: AbortSignal | undefined): Promise<RawAnswer> {
  if (signal?.aborted) return Promise.reject(abortError());
  const key = JSON.stringify([target, init.headers, init.cache ?? null]);
  let shared = inFlight.get(key);
  if (!shared) {
    const controller = new AbortController();
    const answer = fetchRaw(send, target, { ...init, signal: controller.signal });
    const entry: SharedRequest = { answer, controller, waiting: 0 };
    const done = () => {
      if (inFlight.get(key) === entry) inFlight.delete(key);
    };
    answer.then(done, done);
    inFlight.set(key, entry);
    shared = entry;
  }
  const request = shared;
  request.waiting++;
  return new Promise<RawAnswer>((resolve, reject) => {
    let settled = false;
    const leave = () => {
      signal?.removeEventListener('abort', onAbort);
      request.waiting--;
    };
    const onAbort = () => {
      if (settled) return;
      settled = true;
      leave();
      if (request.waiting === 0) {
        // nobody wants it any more: the request goes, and a new ask starts a new one
        if (inFlight.get(key) === request) inFlight.delete(key);
        request.controller.abort();
      }
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.answer.then(
      (raw) => {
        if (settled) return;
        settled = true;
        leave();
        resolve(raw);
      },
      (error: unknown) => {
        if (settled) return;
        settled = true;
        leave();
        reject(error);
      },
    );
  });
}

/** Whether a request may share an identical one on its way (networkOptimization, spec §9). */
function shareable(method: string, body: unknown): boolean {
  return method === 'GET' && body === undefined && uiStore.getState().settings.performance.networkOptimization;
}

let nextId = 1;

/**
 * Sends one request. Resolves with the parsed body (JSON, or text for other content types); rejects
 * with an {@link ApiError} for a non-2xx answer or a network failure, or with the AbortError when
 * `signal` aborted it. With the networkOptimization setting on, identical GETs on their way at the
 * same time share one request.
 */
export async function request<T = unknown>(method: string, url: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const target = withQuery(url, options.query);
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let payload: BodyInit | undefined;
  if (body !== undefined) {
    if (isRawBody(body)) payload = body;
    else {
      payload = JSON.stringify(body);
      headers['Content-Type'] ??= 'application/json';
    }
  }
  const id = nextId++;
  const startedAt = Date.now();
  const report = (status: number | null, responseBody: unknown, error?: string) =>
    emitHttpEvent({ id, method, url: target, status, requestBody: body, responseBody, startedAt, durationMs: Date.now() - startedAt, error, transport: 'fetch' });

  let raw: RawAnswer;
  try {
    const send: FetchFunction = fetchOverride ?? ((input, init) => fetch(input, init));
    const init: RequestInit = { method, headers, body: payload, credentials: 'same-origin', cache: options.cache };
    raw = shareable(method, body) ? await sharedGet(send, target, init, options.signal) : await fetchRaw(send, target, { ...init, signal: options.signal });
  } catch (error) {
    const status = error instanceof BodyReadError ? error.status : null;
    if (isAbortError(error) || (error instanceof BodyReadError && isAbortError(error.reason))) {
      report(status, undefined, 'ABORTED');
      throw isAbortError(error) ? error : error.reason;
    }
    report(status, undefined, 'NETWORK_ERROR');
    throw new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
  }
  const responseBody = parseBody(raw);
  if (!raw.ok) {
    const apiError = toApiError(raw.status, responseBody, raw.statusText);
    report(raw.status, responseBody, apiError.code);
    throw apiError;
  }
  report(raw.status, responseBody);
  return responseBody as T;
}

/** How far an upload has got: bytes sent of the body's bytes. */
export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions extends Omit<RequestOptions, 'cache'> {
  /** called as the body goes out (the browser's upload progress events; fetch has none) */
  onProgress?: (progress: UploadProgress) => void;
}

/**
 * Sends a multipart form (files and fields), or one file as the whole body (a Blob: give its
 * Content-Type in `headers`), with upload progress, through XMLHttpRequest. Answers and
 * errors are those of {@link request}: the parsed body, or an ApiError (a NETWORK_ERROR when nothing
 * answered), or the AbortError when `signal` aborted it. Under a replaced transport ({@link setHttpFetch},
 * tests) it goes through that transport and reports progress once, when done.
 */
export async function upload<T = unknown>(method: 'POST' | 'PUT' | 'PATCH', url: string, form: FormData | Blob, options: UploadOptions = {}): Promise<T> {
  if (fetchOverride || typeof XMLHttpRequest === 'undefined') {
    const answer = await request<T>(method, url, form, options);
    options.onProgress?.({ loaded: 1, total: 1 });
    return answer;
  }
  const target = withQuery(url, options.query);
  const id = nextId++;
  const startedAt = Date.now();
  const report = (status: number | null, responseBody: unknown, error?: string) =>
    emitHttpEvent({ id, method, url: target, status, requestBody: form, responseBody, startedAt, durationMs: Date.now() - startedAt, error, transport: 'xhr' });
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, target);
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [name, value] of Object.entries(options.headers ?? {})) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.({ loaded: event.loaded, total: event.total });
    };
    const aborted = () => {
      report(null, undefined, 'ABORTED');
      reject(new DOMException('The upload was aborted.', 'AbortError'));
    };
    xhr.onabort = aborted;
    xhr.onerror = () => {
      report(null, undefined, 'NETWORK_ERROR');
      reject(new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE));
    };
    xhr.onload = () => {
      let body: unknown = xhr.responseText || undefined;
      if ((xhr.getResponseHeader('content-type') ?? '').includes('json') && xhr.responseText) {
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = xhr.responseText;
        }
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        report(xhr.status, body);
        resolve(body as T);
        return;
      }
      const apiError = toApiError(xhr.status, body, xhr.statusText);
      report(xhr.status, body, apiError.code);
      reject(apiError);
    };
    if (options.signal?.aborted) {
      aborted();
      return;
    }
    options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(form);
  });
}

/** The panel's http client. Same-origin cookies are sent; JSON bodies are encoded for you. */
export const http = Object.freeze({
  request,
  get: <T = unknown>(url: string, options?: RequestOptions) => request<T>('GET', url, undefined, options),
  post: <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, body, options),
  put: <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, body, options),
  patch: <T = unknown>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', url, body, options),
  delete: <T = unknown>(url: string, options?: RequestOptions) => request<T>('DELETE', url, undefined, options),
  /** POSTs a multipart form, or one file as the body, with upload progress ({@link upload}) */
  upload: <T = unknown>(url: string, form: FormData | Blob, options?: UploadOptions) => upload<T>('POST', url, form, options),
});

export interface UseApiResult<T> {
  /** the last answer; kept while a reload runs */
  data: T | undefined;
  error: ApiError | null;
  loading: boolean;
  /** Fetches again. */
  reload(): void;
}

/**
 * Answers a pre-rendered page was drawn with (plugin.json `prerender.data`, issue 15): URL -> body. The
 * server's renderer sets them for its render; the kernel sets the ones the HTML carries until the
 * page it took over has mounted, so that page renders what the server drew, without asking again.
 */
const primedAnswers = new Map<string, unknown>();

/** Hands useApi the answers of the page being rendered (replacing any earlier ones). */
export function primeApiAnswers(answers: Readonly<Record<string, unknown>>): void {
  primedAnswers.clear();
  for (const [url, body] of Object.entries(answers)) primedAnswers.set(url, body);
}

/** Ends the pre-rendered page's answers: later mounts ask the server. */
export function clearPrimedApiAnswers(): void {
  primedAnswers.clear();
}

/**
 * GETs `url` when the component mounts and whenever `url` changes (pass null to wait); the request is
 * aborted when the component unmounts.
 * @example const { data, loading, error, reload } = useApi<Announcement[]>('/api/user/announcements');
 */
export function useApi<T>(url: string | null, options?: Omit<RequestOptions, 'signal'>): UseApiResult<T> {
  // a pre-rendered page's answer, when it is this URL's: shown at once, and not asked for again
  const primed = useRef<string | null>(url !== null && primedAnswers.has(url) ? url : null);
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | null; loading: boolean }>(() =>
    primed.current !== null ? { data: primedAnswers.get(primed.current) as T, error: null, loading: false } : { data: undefined, error: null, loading: url !== null },
  );
  const [generation, setGeneration] = useState(0);
  const optionsRef = useRef(options);
  optionsRef.current = options;

  useEffect(() => {
    if (url === null) {
      setState((s) => ({ ...s, loading: false }));
      return;
    }
    const shownPrimed = primed.current === url;
    primed.current = null;
    if (shownPrimed) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true, error: null }));
    request<T>('GET', url, undefined, { ...optionsRef.current, signal: controller.signal }).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', NETWORK_ERROR_MESSAGE);
        setState((s) => ({ data: s.data, error: apiError, loading: false }));
      },
    );
    return () => controller.abort();
  }, [url, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}
