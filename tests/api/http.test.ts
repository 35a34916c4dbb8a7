// The HTTP surface every route shares: the error shape for every kind of bad input (never a 500),
// the 500 answer that leaks nothing, security headers and the cross-site check.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../server/http/security-headers';
import { FIXTURE_PLUGINS, REPO_PLUGINS, countRows, newAccount, register, startPanel, testDialects, userWithRole, type TestPanel } from './harness';

describe.each(testDialects())('HTTP behaviour on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { pluginDirs: [REPO_PLUGINS, FIXTURE_PLUGINS] });
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('answers unknown /api paths with 404 NOT_FOUND in the error shape', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/user/auth/nope'],
      ['DELETE', '/api/system/settings'],
      ['GET', '/api'],
    ] as const) {
      const res = await panel.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
    }
  });

  it('answers a body that is not JSON with 400 INVALID_JSON and changes nothing', async () => {
    const before = await countRows(panel, 'users');
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/register', payload: '{"username": "x",', headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' } });
    const empty = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: '', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('INVALID_JSON');
    expect(await countRows(panel, 'users')).toBe(before);
  });

  it('answers a JSON body that is not an object with 400 VALIDATION_ERROR', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code, payload).toBe('VALIDATION_ERROR');
    }
  });

  it('answers a body over 1 MiB with 413', async () => {
    const res = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/register',
      payload: JSON.stringify({ ...newAccount(), first_name: 'x'.repeat(1_100_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' } });
  });

  it('answers a form-encoded body with 415', async () => {
    const res = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: 'login=a&password=b',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses unknown body fields, naming them, and stores nothing (issue 9: never dropped silently)', async () => {
    const before = await countRows(panel, 'users');
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/register', payload: { ...newAccount(), role_id: 8 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'role_id' });
    expect(await countRows(panel, 'users')).toBe(before);
  });

  it('takes a JSON body as sent: numeric and boolean strings, one-item arrays and non-finite numbers are refused', async () => {
    const user = await register(panel.app);
    const post = (payload: string) => panel.app.inject({ method: 'POST', url: '/api/fx-notes', payload, headers: { cookie: user.cookie, 'content-type': 'application/json' } });
    for (const payload of [
      '{"body":5}',
      '{"body":["x"]}',
      '{"body":true}',
      '{"body":"x","extra":1e309}',
      '{"body":"x","__proto__":{"admin":true}}',
      '{"body":"x","constructor":{"prototype":{}}}',
    ]) {
      const res = await post(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error.code, payload).toMatch(/^(VALIDATION_ERROR|INVALID_JSON|BAD_REQUEST)$/);
    }
  });

  it('converts query values only to their declared type, and only from a finite decimal (issue 9: "1e309" paged to a 500)', async () => {
    const admin = await userWithRole(panel, 8);
    for (const value of ['1e309', 'Infinity', '-1', '0x10', ' 2', '1.5', '', '99999999999999999999']) {
      const res = await panel.app.inject({ url: `/api/admin/users?page=${encodeURIComponent(value)}`, headers: { cookie: admin.cookie } });
      expect(res.statusCode, value).toBe(400);
      expect(res.json().error, value).toMatchObject({ code: 'VALIDATION_ERROR', field: 'page' });
    }
    const twice = await panel.app.inject({ url: '/api/admin/users?page=1&page=2', headers: { cookie: admin.cookie } });
    expect(twice.statusCode).toBe(400);
    const unknown = await panel.app.inject({ url: '/api/admin/users?pgae=2', headers: { cookie: admin.cookie } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error.field).toBe('pgae');
    const good = await panel.app.inject({ url: '/api/admin/users?page=2&per_page=5', headers: { cookie: admin.cookie } });
    expect(good.statusCode).toBe(200);
  });

  it('stores no non-finite resource through an admin edit (issue 9: "ram":"Infinity" broke that user\'s session)', async () => {
    const admin = await userWithRole(panel, 8);
    const user = await register(panel.app);
    const uuid = (await panel.app.inject({ url: '/api/user/session', headers: { cookie: user.cookie } })).json().user_info.uuid as string;
    for (const payload of ['{"ram":"Infinity"}', '{"ram":1e309}', '{"ram":"1e309"}', '{"ram":[2048]}', '{"ram":"2048"}']) {
      const res = await panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${uuid}`, payload, headers: { cookie: admin.cookie, 'content-type': 'application/json' } });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().error, payload).toMatchObject({ code: 'VALIDATION_ERROR', field: 'ram' });
    }
    const session = await panel.app.inject({ url: '/api/user/session', headers: { cookie: user.cookie } });
    expect(session.statusCode).toBe(200);
    const stored = await panel.services.database.db.selectFrom('users').select('ram').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    expect(Number.isSafeInteger(Number(stored.ram))).toBe(true);
    expect(Number(stored.ram)).toBeLessThan(1e9);
  });

  it('refuses a body sent to a route that takes none, and a query parameter to a route that declares none', async () => {
    const user = await register(panel.app);
    const sessions = await panel.app.inject({ url: '/api/user/session/sessions', headers: { cookie: user.cookie } });
    const [first] = sessions.json().data as { id: string }[];
    const body = await panel.app.inject({ method: 'DELETE', url: `/api/user/session/sessions/${first.id}`, payload: { all: true }, headers: { cookie: user.cookie } });
    expect(body.statusCode).toBe(400);
    expect(body.json().error.code).toBe('VALIDATION_ERROR');
    expect((await panel.app.inject({ url: '/api/user/session/sessions', headers: { cookie: user.cookie } })).json().data).toHaveLength(1);
    const query = await panel.app.inject({ url: '/api/user/session?debug=1', headers: { cookie: user.cookie } });
    expect(query.statusCode).toBe(400);
    expect(query.json().error.field).toBe('debug');
  });

  it('answers a malformed URL with 400, not 500', async () => {
    const res = await panel.app.inject({ url: '/api/legal/%E0%A4%A' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('BAD_REQUEST');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers a thrown error with 500 INTERNAL_ERROR, leaking nothing', async () => {
    const res = await panel.app.inject({ url: '/api/fx-notes/fail' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' } });
    expect(res.body).not.toContain('hunter2');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('turns ctx.httpError into the error shape with its status, code and field', async () => {
    const res = await panel.app.inject({ url: '/api/fx-notes/teapot' });
    expect(res.statusCode).toBe(418);
    expect(res.json()).toEqual({ error: { code: 'FX_TEAPOT', message: 'I am a teapot.', field: 'kettle' } });
  });

  it('puts the security headers on every answer: JSON, errors, 404s and text', async () => {
    for (const url of ['/api/user/session', '/api/nope', '/api/system/custom.css', '/some/page']) {
      const res = await panel.app.inject({ url });
      expect(res.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['permissions-policy']).toContain('camera=()');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'unsafe-eval' https://pagead2.googlesyndication.com");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('refuses a cross-site POST before it does anything, and allows a same-origin one', async () => {
    const before = await countRows(panel, 'users');
    const res = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/register',
      payload: newAccount(),
      headers: { origin: 'https://evil.example', host: 'panel.example' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ error: { code: 'CROSS_SITE_REQUEST', message: 'Cross-site requests are not allowed.' } });
    expect(await countRows(panel, 'users')).toBe(before);
    const ok = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/register',
      payload: newAccount(),
      headers: { origin: 'http://panel.example', host: 'panel.example' },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('validates plugin route bodies with their schema', async () => {
    const { cookie } = await register(panel.app);
    const res = await panel.app.inject({ method: 'POST', url: '/api/fx-notes', headers: { cookie }, payload: { body: '' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'VALIDATION_ERROR', message: 'body must not be empty.', field: 'body' } });
  });
});
