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
