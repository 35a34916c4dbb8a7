// The auth plugin's API: register, login by username or email, logout — with every kind of bad
// input answered 4xx in the error shape and nothing changed in the database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, cookieHeader, countRows, newAccount, register, setCookies, startPanel, testDialects, type TestPanel } from '../../../tests/api/harness';

describe.each(testDialects())('auth API on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    panel.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });

  describe('POST /api/user/auth/register', () => {
    it('creates the account with the default resources and role 1, and logs it in', async () => {
      const body = newAccount({ username: 'Grace.Hopper' });
      const res = await post('/api/user/auth/register', body);
      expect(res.statusCode).toBe(201);
      const json = res.json();
      expect(json).toEqual({ success: true, user: { uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), username: 'Grace.Hopper' } });

      const cookies = setCookies(res);
      expect(cookies.op_session.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookies.op_session.attributes).toMatchObject({ path: '/', httponly: true, samesite: 'Lax', 'max-age': String(30 * 86400) });
      expect(cookies.op_session.attributes.secure).toBeUndefined();
      expect(cookies.user_token.value).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(cookies.user_token.attributes.httponly).toBeUndefined();
      expect(cookies.user_token.attributes).toMatchObject({ path: '/', samesite: 'Lax' });

      const session = await panel.app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(res) } });
      expect(session.statusCode).toBe(200);
      const s = session.json();
      expect(s.user_info).toMatchObject({
        uuid: json.user.uuid,
        username: 'Grace.Hopper',
        email: body.email,
        first_name: 'Ada',
        last_name: 'Lovelace',
        role: 1,
        role_name: 'Default',
      });
      expect(s.billing).toEqual({ coins: 0, ram: 1024, disk: 1024, cpu: 100, ports: 2, databases: 1, backups: 5, server_slots: 1 });

      // the token is stored only as its SHA-256
      const row = await panel.services.database.db.selectFrom('sessions').select('token_hash').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.token_hash).not.toContain(cookies.op_session.value);
      const user = await panel.services.database.db.selectFrom('users').select(['password_hash', 'username_lower']).where('uuid', '=', json.user.uuid).executeTakeFirstOrThrow();
      expect(user.password_hash).toMatch(/^\$scrypt\$ln=\d+,r=\d+,p=\d+\$/);
      expect(user.password_hash).not.toContain(PASSWORD);
      expect(user.username_lower).toBe('grace.hopper');
    });

    it('sets Secure cookies when the request came over https', async () => {
      const res = await post('/api/user/auth/register', newAccount(), { 'x-forwarded-proto': 'https' });
      // without TRUST_PROXY the forwarded header is ignored
      expect(setCookies(res).op_session.attributes.secure).toBeUndefined();
    });

    it('gives new accounts the sign-up resources from the settings', async () => {
      await panel.services.settings.set('default_ram', 2048);
      await panel.services.settings.set('default_backups', 0);
      try {
        const { cookie } = await register(panel.app);
        const s = (await panel.app.inject({ url: '/api/user/session', headers: { cookie } })).json();
        expect(s.billing.ram).toBe(2048);
        expect(s.billing.backups).toBe(0);
      } finally {
        await panel.services.settings.set('default_ram', 1024);
        await panel.services.settings.set('default_backups', 5);
      }
    });

    const bad: [string, Record<string, unknown>, string, RegExp][] = [
      ['a missing username', { username: undefined }, 'username', /username is required/],
      ['a short username', { username: 'ab' }, 'username', /at least 3 characters/],
      ['a long username', { username: 'a'.repeat(33) }, 'username', /at most 32 characters/],
      ['a username with spaces', { username: 'ada lovelace' }, 'username', /invalid format/],
      ['a username with @', { username: 'ada@home' }, 'username', /invalid format/],
      ['a short password', { password: 'seven77' }, 'password', /at least 8 characters/],
      ['a password over 256', { password: 'p'.repeat(257) }, 'password', /at most 256 characters/],
      ['an invalid email', { email: 'not-an-email' }, 'email', /invalid format/],
      ['an email over 254', { email: `${'a'.repeat(250)}@example.com` }, 'email', /at most 254/],
      ['an empty first name', { first_name: '' }, 'first_name', /must not be empty/],
      ['a blank last name', { last_name: '   ' }, 'last_name', /invalid format/],
      ['a first name over 64', { first_name: 'n'.repeat(65) }, 'first_name', /at most 64/],
      ['a number for a name', { last_name: { x: 1 } }, 'last_name', /must be string/],
    ];
    it.each(bad)('answers 400 VALIDATION_ERROR for %s and creates nothing', async (_what, override, field, message) => {
      const before = await countRows(panel, 'users');
      const payload: Record<string, unknown> = { ...newAccount(), ...override };
      for (const key of Object.keys(payload)) if (payload[key] === undefined) delete payload[key];
      const res = await post('/api/user/auth/register', payload);
      expect(res.statusCode).toBe(400);
      const json = res.json();
      expect(json.error.code).toBe('VALIDATION_ERROR');
      expect(json.error.field).toBe(field);
      expect(json.error.message).toMatch(message);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await countRows(panel, 'users')).toBe(before);
    });

    it('answers 409 USERNAME_TAKEN / EMAIL_TAKEN regardless of case, and creates nothing', async () => {
      const first = await register(panel.app);
      const before = await countRows(panel, 'users');
      const sameName = await post('/api/user/auth/register', newAccount({ username: first.body.username.toUpperCase() }));
      expect(sameName.statusCode).toBe(409);
      expect(sameName.json()).toEqual({ error: { code: 'USERNAME_TAKEN', message: 'This username is already taken.', field: 'username' } });
      const sameEmail = await post('/api/user/auth/register', newAccount({ email: first.body.email.toUpperCase() }));
      expect(sameEmail.statusCode).toBe(409);
      expect(sameEmail.json()).toEqual({ error: { code: 'EMAIL_TAKEN', message: 'An account with this email address already exists.', field: 'email' } });
      expect(await countRows(panel, 'users')).toBe(before);
    });

    it('keeps one account when two sign-ups race for the same name', async () => {
      const a = newAccount({ username: 'racer' });
      const b = newAccount({ username: 'RACER' });
      const [ra, rb] = await Promise.all([post('/api/user/auth/register', a), post('/api/user/auth/register', b)]);
      expect([ra.statusCode, rb.statusCode].sort()).toEqual([201, 409]);
      const n = await panel.services.database.db.selectFrom('users').select('id').where('username_lower', '=', 'racer').execute();
      expect(n).toHaveLength(1);
    });

    it('answers 403 REGISTRATION_DISABLED when registration_enabled is off, before looking at the input', async () => {
      await panel.services.settings.set('registration_enabled', false);
      try {
        const before = await countRows(panel, 'users');
        const res = await post('/api/user/auth/register', newAccount());
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'REGISTRATION_DISABLED', message: 'Registration is currently disabled.' } });
        expect((await post('/api/user/auth/register', { junk: true })).statusCode).toBe(403);
        expect(await countRows(panel, 'users')).toBe(before);
        expect((await panel.app.inject({ url: '/api/system/settings' })).json().registration_enabled).toBe(false);
      } finally {
        await panel.services.settings.set('registration_enabled', true);
      }
    });

    it('emits user.registered with the referral code', async () => {
      const seen: unknown[] = [];
      const off = panel.services.events.on('test', 'user.registered', (payload) => {
        seen.push(payload);
      });
      try {
        const res = await post('/api/user/auth/register', newAccount({ ref: 'FRIEND42' }));
        expect(seen).toEqual([{ userId: expect.any(Number), uuid: res.json().user.uuid, username: res.json().user.username, ref: 'FRIEND42' }]);
      } finally {
        off();
      }
    });
  });

  describe('POST /api/user/auth/login', () => {
    it('logs in by username or by email, in any case, and rotates the session', async () => {
      const { body, cookie: registerCookie } = await register(panel.app);
      const byName = await post('/api/user/auth/login', { login: body.username.toUpperCase(), password: PASSWORD }, { cookie: registerCookie });
      expect(byName.statusCode).toBe(200);
      expect(byName.json()).toEqual({ success: true });
      const nameCookie = cookieHeader(byName);
      expect(nameCookie).not.toBe(registerCookie);
      // rotation: the session the browser had before this login is over
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: registerCookie } })).statusCode).toBe(401);
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: nameCookie } })).statusCode).toBe(200);

      const byEmail = await post('/api/user/auth/login', { login: ` ${body.email.toUpperCase()} `, password: PASSWORD });
      expect(byEmail.statusCode).toBe(200);
      const s = await panel.app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(byEmail) } });
      expect(s.json().user_info.username).toBe(body.username);
      // a second login elsewhere keeps the first one alive
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: nameCookie } })).statusCode).toBe(200);
    });

    it('answers 401 INVALID_CREDENTIALS with the same message for a wrong password and an unknown account', async () => {
      const { body } = await register(panel.app);
      const sessionsBefore = await countRows(panel, 'sessions');
      const wrong = await post('/api/user/auth/login', { login: body.username, password: 'wrong password' });
      const unknown = await post('/api/user/auth/login', { login: 'nobody_here', password: 'wrong password' });
      for (const res of [wrong, unknown]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'INVALID_CREDENTIALS', message: 'Invalid username/email or password.' } });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect(await countRows(panel, 'sessions')).toBe(sessionsBefore);
    });

    it.each([
      [{ password: PASSWORD }, 'login'],
      [{ login: 'someone' }, 'password'],
      [{ login: '', password: PASSWORD }, 'login'],
      [{ login: 'someone', password: 'x'.repeat(257) }, 'password'],
    ])('answers 400 VALIDATION_ERROR for %j', async (payload, field) => {
      const res = await post('/api/user/auth/login', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    });

    it('answers 403 USER_BANNED with the reason for a banned account, and only after the password', async () => {
      const { body } = await register(panel.app);
      await panel.services.database.db.updateTable('users').set({ banned: 1, ban_reason: 'chargeback' }).where('username', '=', body.username).execute();
      const wrong = await post('/api/user/auth/login', { login: body.username, password: 'not the password' });
      expect(wrong.statusCode).toBe(401);
      const right = await post('/api/user/auth/login', { login: body.username, password: PASSWORD });
      expect(right.statusCode).toBe(403);
      expect(right.json()).toEqual({ error: { code: 'USER_BANNED', message: 'This account has been banned: chargeback' } });
      expect(right.headers['set-cookie']).toBeUndefined();
    });

    it('starts a 2FA-blocked session for an account with 2FA on', async () => {
      const { body } = await register(panel.app);
      await panel.services.database.db.updateTable('users').set({ two_fa_enabled: 1 }).where('username', '=', body.username).execute();
      const res = await post('/api/user/auth/login', { login: body.username, password: PASSWORD });
      expect(res.statusCode).toBe(200);
      const s = await panel.app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(res) } });
      expect(s.statusCode).toBe(401);
      expect(s.json().error_code).toBe('TW0_FA_BLOCKED');
    });
  });

  describe('POST /api/user/auth/logout', () => {
    // a same-origin browser request, as the /auth/logout page sends it
    const logout = (cookie?: string) =>
      panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', headers: { host: 'panel.example', origin: 'http://panel.example', ...(cookie ? { cookie } : {}) } });
    const sessionWorks = async (cookie: string) => (await panel.app.inject({ url: '/api/user/session', headers: { cookie } })).statusCode === 200;

    it('revokes the session and clears both cookies', async () => {
      const { cookie } = await register(panel.app);
      const res = await logout(cookie);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      const cleared = setCookies(res);
      for (const name of ['op_session', 'user_token']) {
        expect(cleared[name].value).toBe('');
        expect(cleared[name].attributes['max-age']).toBe('0');
        expect(cleared[name].attributes.path).toBe('/');
      }
      expect(cleared.op_session.attributes.httponly).toBe(true);
      const after = await panel.app.inject({ url: '/api/user/session', headers: { cookie } });
      expect(after.statusCode).toBe(401);
      expect(after.json().error_code).toBe('INVALID_SESSION');
      const revoked = await panel.services.database.db.selectFrom('sessions').select('revoked_at').orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(revoked.revoked_at).not.toBeNull();
    });

    it('answers success and clears cookies without a session too', async () => {
      const res = await logout();
      expect(res.statusCode).toBe(200);
      expect(Object.keys(setCookies(res)).sort()).toEqual(['op_session', 'user_token']);
    });

    it('emits session.ended for a live session only', async () => {
      const seen: unknown[] = [];
      const off = panel.services.events.on('test', 'session.ended', (p) => {
        seen.push(p);
      });
      try {
        const { cookie } = await register(panel.app);
        await logout(cookie);
        await logout(cookie);
        expect(seen).toHaveLength(1);
      } finally {
        off();
      }
    });

    // another site could otherwise end the session with an <img> or a link (issue 9, defect 6)
    it('answers GET with 405 METHOD_NOT_ALLOWED and Allow: POST, and the session goes on', async () => {
      const { cookie } = await register(panel.app);
      const res = await panel.app.inject({ url: '/api/user/auth/logout', headers: { cookie } });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expect(res.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: expect.any(String) } });
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await sessionWorks(cookie)).toBe(true);
    });

    it('refuses a POST from another site with 403 CROSS_SITE_REQUEST, and the session goes on', async () => {
      const { cookie } = await register(panel.app);
      const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', headers: { cookie, host: 'panel.example', origin: 'https://evil.example' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('CROSS_SITE_REQUEST');
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(await sessionWorks(cookie)).toBe(true);
    });

    it('refuses a body (it takes none) and keeps the session', async () => {
      const { cookie } = await register(panel.app);
      const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', payload: { everywhere: true }, headers: { cookie } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(await sessionWorks(cookie)).toBe(true);
    });
  });
});
