import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, http, onHttpEvent, setHttpFetch, toApiError, type HttpEvent } from './http';

function reply(status: number, body: unknown, type = 'application/json') {
  return (_url: string, _init: RequestInit) =>
    Promise.resolve(new Response(body === undefined ? null : typeof body === 'string' ? body : JSON.stringify(body), { status, headers: { 'content-type': type } }));
}

afterEach(() => setHttpFetch(null));

describe('http', () => {
  it('sends JSON with same-origin credentials and returns the parsed answer', async () => {
    const fetchSpy = vi.fn(reply(201, { success: true, user: { uuid: 'u' } }));
    setHttpFetch(fetchSpy);
    const answer = await http.post<{ success: boolean }>('/api/user/auth/register', { username: 'alice' });
    expect(answer).toEqual({ success: true, user: { uuid: 'u' } });
    const [url, init] = fetchSpy.mock.calls[0];
    expect(url).toBe('/api/user/auth/register');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"username":"alice"}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('appends a query string, leaving out null and undefined', async () => {
    const fetchSpy = vi.fn(reply(200, []));
    setHttpFetch(fetchSpy);
    await http.get('/api/user/search', { query: { query: 'a b', page: 2, empty: undefined, none: null } });
    expect(fetchSpy.mock.calls[0][0]).toBe('/api/user/search?query=a+b&page=2');
  });

  it('parses the one error shape into ApiError { status, code, message, field }', async () => {
    setHttpFetch(reply(409, { error: { code: 'USERNAME_TAKEN', message: 'That username is taken.', field: 'username' } }));
    const error = await http.post('/api/user/auth/register', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'USERNAME_TAKEN', message: 'That username is taken.', field: 'username' });
  });

  it('reads the session error shape (error_code) too', () => {
    const e = toApiError(401, { success: false, error_code: 'TW0_FA_BLOCKED', message: '2FA needed', user_info: null });
    expect(e).toMatchObject({ status: 401, code: 'TW0_FA_BLOCKED', message: '2FA needed', field: undefined });
    expect(e.body).toMatchObject({ success: false });
  });

  it('gives a code to error answers without a JSON body', async () => {
    setHttpFetch(reply(503, 'down', 'text/plain'));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 503, code: 'SERVER_UNAVAILABLE' });
    setHttpFetch(reply(502, undefined));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 502, code: 'SERVER_ERROR' });
    setHttpFetch(reply(404, undefined));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('turns a network failure into NETWORK_ERROR with status 0', async () => {
    setHttpFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(http.get('/x')).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('lets an abort through as the AbortError', async () => {
    setHttpFetch(() => Promise.reject(new DOMException('aborted', 'AbortError')));
    await expect(http.get('/x')).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('returns text for non-JSON answers and undefined for 204', async () => {
    setHttpFetch(reply(200, 'ca-pub-123\n', 'text/plain'));
    expect(await http.get('/api/system/ga-ads')).toBe('ca-pub-123\n');
    setHttpFetch(() => Promise.resolve(new Response(null, { status: 204 })));
    expect(await http.delete('/x')).toBeUndefined();
  });

  it('reports every request to the debug listeners: method, url, status, request and response bodies (spec §7)', async () => {
    const events: HttpEvent[] = [];
    const stop = onHttpEvent((e) => events.push(e));
    setHttpFetch(reply(400, { error: { code: 'VALIDATION_ERROR', message: 'bad', field: 'email' } }));
    await http.post('/api/user/auth/login', { login: 'a' }).catch(() => {});
    setHttpFetch(reply(200, { ok: 1 }));
    await http.get('/api/system/settings');
    stop();
    await http.get('/api/system/settings');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      method: 'POST',
      url: '/api/user/auth/login',
      status: 400,
      requestBody: { login: 'a' },
      responseBody: { error: { code: 'VALIDATION_ERROR', message: 'bad', field: 'email' } },
      error: 'VALIDATION_ERROR',
    });
    expect(events[1]).toMatchObject({ method: 'GET', status: 200, responseBody: { ok: 1 }, requestBody: undefined });
  });
});

/** A stand-in XMLHttpRequest: records what is sent, reports progress, then answers as told. */
class FakeXhr {
  static last: FakeXhr | null = null;
  static answer: { status: number; body: string; type: string } | 'network' = { status: 200, body: '{"ok":true}', type: 'application/json' };
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: unknown = null;
  status = 0;
  statusText = '';
  responseText = '';
  private type = '';
  upload: { onprogress: ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
    FakeXhr.last = this;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? this.type : null;
  }
  abort() {
    this.onabort?.();
  }
  send(body: unknown) {
    this.sent = body;
    queueMicrotask(() => {
      this.upload.onprogress?.({ lengthComputable: true, loaded: 50, total: 100 });
      this.upload.onprogress?.({ lengthComputable: true, loaded: 100, total: 100 });
      const answer = FakeXhr.answer;
      if (answer === 'network') return this.onerror?.();
      this.status = answer.status;
      this.responseText = answer.body;
      this.type = answer.type;
      this.onload?.();
    });
  }
}

describe('http.upload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    FakeXhr.answer = { status: 200, body: '{"ok":true}', type: 'application/json' };
  });

  it('sends the form through XMLHttpRequest, reports the upload progress and answers the parsed body', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const form = new FormData();
    form.append('message', 'hi');
    const progress: number[] = [];
    const events: HttpEvent[] = [];
    const stop = onHttpEvent((event) => events.push(event));
    const answer = await http.upload('/api/user/tickets/5/replies', form, { onProgress: ({ loaded, total }) => progress.push(loaded / total) });
    stop();
    expect(answer).toEqual({ ok: true });
    expect(FakeXhr.last?.method).toBe('POST');
    expect(FakeXhr.last?.url).toBe('/api/user/tickets/5/replies');
    expect(FakeXhr.last?.headers.Accept).toBe('application/json');
    expect(FakeXhr.last?.sent).toBe(form);
    expect(progress).toEqual([0.5, 1]);
    expect(events[0]).toMatchObject({ method: 'POST', status: 200, url: '/api/user/tickets/5/replies' });
  });

  it('turns an error answer into the ApiError with the server code, and no answer into NETWORK_ERROR', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.answer = { status: 413, body: '{"error":{"code":"FILE_TOO_LARGE","message":"too big"}}', type: 'application/json; charset=utf-8' };
    await expect(http.upload('/api/x', new FormData())).rejects.toMatchObject({ status: 413, code: 'FILE_TOO_LARGE' });
    FakeXhr.answer = 'network';
    await expect(http.upload('/api/x', new FormData())).rejects.toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('goes through a replaced transport (tests), reporting the upload done once', async () => {
    const fetchSpy = vi.fn(reply(201, { id: 1 }));
    setHttpFetch(fetchSpy);
    const progress: number[] = [];
    const form = new FormData();
    expect(await http.upload('/api/x', form, { onProgress: ({ loaded, total }) => progress.push(loaded / total) })).toEqual({ id: 1 });
    expect(fetchSpy.mock.calls[0][1].body).toBe(form);
    expect(progress).toEqual([1]);
  });
});
