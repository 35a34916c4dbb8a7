// Two-factor authentication (TOTP, RFC 6238): setup with recovery codes, the TW0_FA_BLOCKED state
// after a login on every API route, verify (TOTP or recovery code, never twice), re-verification,
// and turning 2FA off only after a recent code — a cookie alone is not enough.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchingStep, totpCode, totpStep } from '../server/totp';
import { PASSWORD, cookieHeader, register, startPanel, testDialects, type TestPanel } from '../../../tests/api/harness';

describe('TOTP', () => {
  // RFC 6238 appendix B (SHA-1 key "12345678901234567890"), last 6 of the 8 digits
  it('matches the RFC 6238 test vectors', () => {
    const key = Buffer.from('12345678901234567890');
    for (const [time, code] of [
      [59, '287082'],
      [1111111109, '081804'],
      [1111111111, '050471'],
      [1234567890, '005924'],
      [2000000000, '279037'],
    ] as const) {
      expect(hotp(key, Math.floor(time / 30)), String(time)).toBe(code);
    }
  });

  it('encodes and decodes base32 (RFC 4648 vectors)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Encode(Buffer.from('f'))).toBe('MY');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb-oi').toString()).toBe('foobar');
    expect(() => base32Decode('MZ1!')).toThrow(RangeError);
  });

  it('accepts one step of drift either side and nothing further', () => {
    const secret = base32Encode(Buffer.from('12345678901234567890'));
    const now = 1111111109_000;
    const step = totpStep(now);
    expect(matchingStep(secret, totpCode(secret, step), now)).toBe(step);
    expect(matchingStep(secret, totpCode(secret, step - 1), now)).toBe(step - 1);
    expect(matchingStep(secret, totpCode(secret, step + 1), now)).toBe(step + 1);
    expect(matchingStep(secret, totpCode(secret, step - 2), now)).toBeNull();
    expect(matchingStep(secret, totpCode(secret, step + 2), now)).toBeNull();
    expect(matchingStep(secret, '12345', now)).toBeNull();
  });
});

describe.each(testDialects())('two-factor API on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db;
  const json = { accept: 'application/json' };
  const get = (url: string, cookie: string, headers: Record<string, string> = json) => panel.app.inject({ url, headers: { cookie, ...headers } });
  const post = (url: string, cookie: string | null, payload: unknown) =>
    panel.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers: cookie ? { cookie } : {} });
  const login = (name: string) => panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: name, password: PASSWORD } });
  const sessionOf = (cookie: string) => panel.app.inject({ url: '/api/user/session', headers: { cookie } });
  const now = (secret: string, offset = 0) => totpCode(secret, totpStep() + offset);
  const userIdOf = async (username: string) => (await db().selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
  /** lets the current step's code be used again (test set-up, not the rule under test) */
  const forgetUsedStep = (userId: number) =>
    db()
      .updateTable('auth_two_factor' as never)
      .set({ last_used_step: null } as never)
      .where('user_id' as never, '=', userId as never)
      .execute();

  /** A registered account with 2FA switched on through the API. */
  async function withTwoFactor() {
    const account = await register(panel.app);
    const setup = await get('/api/user/auth/2fa/setup', account.cookie);
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json() as { secret: string };
    const confirmed = await post('/api/user/auth/2fa/setup', account.cookie, { code: now(secret, -1) });
    expect(confirmed.statusCode).toBe(200);
    const userId = await userIdOf(account.body.username);
    return { ...account, secret, userId, cookie: cookieHeader(confirmed), recoveryCodes: confirmed.json().recovery_codes as string[] };
  }

  /** Logs in again: a session that waits for its code. */
  async function pendingLogin(username: string) {
    const res = await login(username);
    expect(res.statusCode).toBe(200);
    return cookieHeader(res);
  }

  it('sets up 2FA: a secret with its otpauth URI, confirmed by a code, with 10 recovery codes', async () => {
    const account = await register(panel.app);
    const res = await get('/api/user/auth/2fa/setup', account.cookie);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ issuer: 'Orepanel', account_name: account.body.username, algorithm: 'SHA1', digits: 6, period: 30 });
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauth_url).toBe(`otpauth://totp/Orepanel:${account.body.username}?secret=${body.secret}&issuer=Orepanel&algorithm=SHA1&digits=6&period=30`);

    const wrong = await post('/api/user/auth/2fa/setup', account.cookie, { code: totpCode(body.secret, totpStep() + 5) });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 'TWO_FA_INVALID_CODE', field: 'code' });
    expect((await sessionOf(account.cookie)).json().user_info.two_fa_enabled).toBe(false);

    const ok = await post('/api/user/auth/2fa/setup', account.cookie, { code: now(body.secret) });
    expect(ok.statusCode).toBe(200);
    const codes = ok.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-Z2-9]{5}-[A-HJKMNP-Z2-9]{5}$/);
    const rotated = cookieHeader(ok);
    expect((await sessionOf(rotated)).json().user_info.two_fa_enabled).toBe(true);
    expect((await sessionOf(account.cookie)).statusCode).toBe(401);
    const stored = (await db()
      .selectFrom('auth_recovery_codes' as never)
      .select('code_hash' as never)
      .execute()) as { code_hash: string }[];
    expect(stored.some((r) => codes.some((c) => r.code_hash.includes(c.replace('-', ''))))).toBe(false);
    expect((await get('/api/user/auth/2fa/setup', rotated)).json().error.code).toBe('TWO_FA_ALREADY_ENABLED');
    // the TOTP secret is stored sealed with SECRET_KEY
    const factor = (await db()
      .selectFrom('auth_two_factor' as never)
      .selectAll()
      .where('user_id' as never, '=', (await userIdOf(account.body.username)) as never)
      .executeTakeFirstOrThrow()) as { secret: string; pending_secret: string | null };
    expect(factor.secret).toMatch(/^enc:v1:/);
    expect(factor.secret).not.toContain(body.secret);
    expect(factor.pending_secret).toBeNull();
  });

  it('refuses a setup that was not started, and bad codes, changing nothing', async () => {
    const account = await register(panel.app);
    const res = await post('/api/user/auth/2fa/setup', account.cookie, { code: '123456' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('TWO_FA_SETUP_NOT_STARTED');
    await get('/api/user/auth/2fa/setup', account.cookie);
    for (const payload of [{}, { code: '12345' }, { code: 'abc$%^&*' }, { code: 'x'.repeat(30) }]) {
      const bad = await post('/api/user/auth/2fa/setup', account.cookie, payload);
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
      expect(bad.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await sessionOf(account.cookie)).json().user_info.two_fa_enabled).toBe(false);
  });

  it('blocks every API route for a session waiting for its code, except verify and logout', async () => {
    const account = await withTwoFactor();
    const pending = await pendingLogin(account.body.username);
    const session = await sessionOf(pending);
    expect(session.statusCode).toBe(401);
    expect(session.json().error_code).toBe('TW0_FA_BLOCKED');
    for (const [method, url] of [
      ['GET', '/api/user/session/activities'],
      ['GET', '/api/user/session/sessions'],
      ['POST', '/api/user/session/newPin'],
      ['GET', '/api/legal/privacy-policy'],
      ['GET', '/api/user/auth/2fa/setup'],
      ['POST', '/api/user/auth/verify/resend'],
      ['POST', '/api/user/auth/forgot'],
      ['GET', '/api/user/auth/reset?token=x'],
      ['POST', '/api/user/auth/login'],
      ['GET', '/api/admin/users'],
    ] as const) {
      const res = await panel.app.inject({ method, url, headers: { cookie: pending }, payload: method === 'POST' ? {} : undefined });
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.code, url).toBe('TW0_FA_BLOCKED');
    }
    // the public boot data the browser needs to show the verify page stays readable
    expect((await panel.app.inject({ url: '/api/system/plugins', headers: { cookie: pending } })).statusCode).toBe(200);
    expect((await panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', headers: { cookie: pending } })).statusCode).toBe(200);
    expect((await sessionOf(pending)).json().error_code).toBe('INVALID_SESSION');
  });

  it('verifies the code after a login: the session is unblocked and gets a new token; a code works once', async () => {
    const account = await withTwoFactor();
    const pending = await pendingLogin(account.body.username);
    const bad = await post('/api/user/auth/2fa/verify', pending, { code: now(account.secret, 3) });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('TWO_FA_INVALID_CODE');

    const code = now(account.secret, 1);
    const ok = await post('/api/user/auth/2fa/verify', pending, { code });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ success: true });
    const fresh = cookieHeader(ok);
    expect((await sessionOf(fresh)).statusCode).toBe(200);
    expect((await sessionOf(pending)).json().error_code).toBe('INVALID_SESSION');
    expect((await post('/api/user/auth/2fa/verify', fresh, { code: now(account.secret) })).json().error.code).toBe('TWO_FA_NOT_PENDING');

    // the same code cannot be replayed on another login
    const again = await pendingLogin(account.body.username);
    expect((await post('/api/user/auth/2fa/verify', again, { code })).json().error.code).toBe('TWO_FA_INVALID_CODE');
    const actions = (await db().selectFrom('audit_log').select('action').where('target_user_id', '=', account.userId).orderBy('id').execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.2fa_enable', 'auth.2fa_failed', 'auth.2fa_verify']));
  });

  it('accepts each recovery code once', async () => {
    const account = await withTwoFactor();
    const [first] = account.recoveryCodes;
    const pending = await pendingLogin(account.body.username);
    const ok = await post('/api/user/auth/2fa/verify', pending, { code: first.toLowerCase().replace('-', ' ') });
    expect(ok.statusCode).toBe(200);
    const row = await db().selectFrom('audit_log').select('details').where('action', '=', 'auth.2fa_verify').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(row.details)).toEqual({ method: 'recovery' });
    const second = await pendingLogin(account.body.username);
    expect((await post('/api/user/auth/2fa/verify', second, { code: first })).statusCode).toBe(400);
    expect((await post('/api/user/auth/2fa/verify', second, { code: account.recoveryCodes[1] })).statusCode).toBe(200);
  });

  it('answers verify without a session 401, and limits attempts with the auth.2fa policy', async () => {
    expect((await post('/api/user/auth/2fa/verify', null, { code: '123456' })).json().error.code).toBe('INVALID_SESSION');
    const account = await withTwoFactor();
    const pending = await pendingLogin(account.body.username);
    // the setup's confirmation already counted once for this account
    await panel.services.settings.set('rate_limit_2fa_per_account', 3);
    try {
      expect((await post('/api/user/auth/2fa/verify', pending, { code: '000000' })).statusCode).toBe(400);
      expect((await post('/api/user/auth/2fa/verify', pending, { code: '000001' })).statusCode).toBe(400);
      const limited = await post('/api/user/auth/2fa/verify', pending, { code: now(account.secret) });
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
    } finally {
      await panel.services.settings.set('rate_limit_2fa_per_account', 1_000_000);
    }
  });

  describe('GET /api/auth/2fa/setup/kill', () => {
    const kill = (cookie: string, headers: Record<string, string> = { accept: 'text/html' }) => get('/api/auth/2fa/setup/kill', cookie, headers);

    it('does not turn 2FA off for a cookie alone: it asks for a code again', async () => {
      const account = await withTwoFactor();
      // the session proved a code long ago (or never): a stolen cookie
      await db()
        .updateTable('sessions')
        .set({ two_fa_verified_at: new Date(Date.now() - 11 * 60_000).toISOString() })
        .where('user_id', '=', account.userId)
        .execute();
      const browser = await kill(account.cookie);
      expect(browser.statusCode).toBe(303);
      expect(browser.headers.location).toBe('/auth/2fa/verify?next=disband');
      const api = await kill(account.cookie, json);
      expect(api.statusCode).toBe(403);
      expect(api.json().error.code).toBe('TWO_FA_REVERIFY_REQUIRED');
      expect((await sessionOf(account.cookie)).json().user_info.two_fa_enabled).toBe(true);
    });

    it('turns 2FA off after a re-verification within 10 minutes', async () => {
      const account = await withTwoFactor();
      await db().updateTable('sessions').set({ two_fa_verified_at: null }).where('user_id', '=', account.userId).execute();
      expect((await post('/api/user/auth/2fa/reverify', account.cookie, { code: now(account.secret, 3) })).json().error.code).toBe('TWO_FA_INVALID_CODE');
      const re = await post('/api/user/auth/2fa/reverify', account.cookie, { code: now(account.secret, 1) });
      expect(re.statusCode).toBe(200);
      expect(Date.parse(re.json().valid_until) - Date.now()).toBeGreaterThan(9 * 60_000);

      // a link from another site cannot trigger it
      expect((await kill(account.cookie, { accept: 'text/html', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
      const res = await kill(account.cookie, { accept: 'text/html', 'sec-fetch-site': 'same-origin' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/account?two_fa=disabled');
      // the session goes on under a fresh token (tests/api/session-rotation.test.ts)
      const rotated = cookieHeader(res);
      expect((await sessionOf(rotated)).json().user_info.two_fa_enabled).toBe(false);
      expect(
        await db()
          .selectFrom('auth_two_factor' as never)
          .selectAll()
          .where('user_id' as never, '=', account.userId as never)
          .execute(),
      ).toEqual([]);
      expect(
        await db()
          .selectFrom('auth_recovery_codes' as never)
          .selectAll()
          .where('user_id' as never, '=', account.userId as never)
          .execute(),
      ).toEqual([]);
      expect((await login(account.body.username)).headers['set-cookie']).toBeDefined();
      expect((await sessionOf(cookieHeader(await login(account.body.username)))).statusCode).toBe(200);
      const again = await kill(rotated, json);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('TWO_FA_NOT_ENABLED');
    });

    it('sends a browser without a session to the login page', async () => {
      const res = await panel.app.inject({ url: '/api/auth/2fa/setup/kill', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/login');
    });

    it('lets a session that just verified at login turn it off, and the replay guard still holds', async () => {
      const account = await withTwoFactor();
      await forgetUsedStep(account.userId);
      const pending = await pendingLogin(account.body.username);
      const verified = cookieHeader(await post('/api/user/auth/2fa/verify', pending, { code: now(account.secret) }));
      expect((await kill(verified, json)).json()).toEqual({ success: true });
    });
  });

  it('tells the client to set up 2FA when force_2fa is on', async () => {
    const without = await register(panel.app);
    const withIt = await withTwoFactor();
    expect((await sessionOf(without.cookie)).json().user_info.two_fa_required).toBe(false);
    await panel.services.settings.set('force_2fa', true);
    try {
      expect((await sessionOf(without.cookie)).json().user_info.two_fa_required).toBe(true);
      expect((await sessionOf(withIt.cookie)).json().user_info.two_fa_required).toBe(false);
    } finally {
      await panel.services.settings.set('force_2fa', false);
    }
  });
});
