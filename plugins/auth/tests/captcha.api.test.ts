// Cloudflare Turnstile on register, login and forgot password, checked against a local stand-in of
// siteverify (tests/fixtures/turnstile-siteverify.ts): off by default; when on, a missing, forged,
// reused, expired, other-site or other-form token is a 400 and nothing happens; a siteverify that is
// down or refuses our secret is a 503 (fail closed); the secret key never leaves the server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTurnstileStandIn, type TurnstileStandIn } from '../../../tests/fixtures/turnstile-siteverify';
import { countRows, newAccount, PASSWORD, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const PANEL_HOST = 'panel.example.test';

describe.each(testDialects())('captcha (Turnstile) on %s', (dialect) => {
  let panel: TestPanel;
  let turnstile: TurnstileStandIn;
  let owner: { username: string; email: string };
  let root: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    turnstile = await startTurnstileStandIn();
    const account = newAccount();
    await panel.services.accounts.create({ username: account.username, email: account.email, firstName: 'Ada', lastName: 'Lovelace', password: PASSWORD });
    owner = { username: account.username, email: account.email };
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
    await turnstile?.close();
  });

  const settings = () => panel.services.settings;
  const turnOn = async () => {
    await settings().set('turnstile_site_key', '1x00000000000000000000AA');
    await settings().set('turnstile_secret_key', turnstile.secret);
    await settings().set('turnstile_verify_url', turnstile.url);
    await settings().set('app_url', `https://${PANEL_HOST}`);
    await settings().set('captcha_enabled', true);
  };
  const post = (url: string, payload: Record<string, unknown>) => panel.app.inject({ method: 'POST', url, payload });
  const login = (token?: string, password = PASSWORD) =>
    post('/api/user/auth/login', { login: owner.username, password, ...(token === undefined ? {} : { captcha_token: token }) });
  const auditCount = async (action: string) =>
    Number(
      (
        await panel.services.database.db
          .selectFrom('audit_log')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('action', '=', action)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('is off by default: the forms work without a token and siteverify is never asked', async () => {
    expect(await settings().get('captcha_enabled')).toBe(false);
    expect(await settings().get('turnstile_verify_url')).toBe('https://challenges.cloudflare.com/turnstile/v0/siteverify');
    expect((await post('/api/user/auth/register', newAccount())).statusCode).toBe(201);
    expect((await login()).statusCode).toBe(200);
    // a token sent anyway is ignored
    expect((await login('whatever')).statusCode).toBe(200);
    expect(turnstile.calls).toHaveLength(0);
  });

  it('serves the switch and the site key to browsers, never the secret key or the verify address', async () => {
    await turnOn();
    const publicSettings = (await panel.app.inject({ method: 'GET', url: '/api/system/settings' })).json() as Record<string, unknown>;
    const flat = JSON.stringify(publicSettings);
    expect(flat).toContain('"captcha_enabled":true');
    expect(flat).toContain('"turnstile_site_key":"1x00000000000000000000AA"');
    expect(flat).not.toContain('turnstile_secret_key');
    expect(flat).not.toContain(turnstile.secret);
    expect(flat).not.toContain('turnstile_verify_url');

    const admin = (await panel.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: root.cookie } })).json() as {
      groups: { id: string; settings: { key: string; value: unknown }[] }[];
    };
    const security = admin.groups.find((g) => g.id === 'security')!;
    const secret = security.settings.find((s) => s.key === 'turnstile_secret_key');
    expect(secret?.value).toEqual({ set: true });
    expect(security.settings.map((s) => s.key)).toEqual(expect.arrayContaining(['captcha_enabled', 'turnstile_site_key', 'turnstile_verify_url', 'block_vpn', 'block_alts']));
    expect(JSON.stringify(admin)).not.toContain(turnstile.secret);
  });

  it('refuses a login without a token before looking at the password (400 CAPTCHA_REQUIRED)', async () => {
    await turnOn();
    const failedBefore = await auditCount('auth.login_failed');
    for (const token of [undefined, '', '   ']) {
      const res = await login(token, 'a wrong password');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'CAPTCHA_REQUIRED', field: 'captcha_token' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // the credentials were never checked, so no failed login was recorded
    expect(await auditCount('auth.login_failed')).toBe(failedBefore);
  });

  it('logs in with a solved token, sending siteverify the secret, the token and the client IP', async () => {
    await turnOn();
    const token = turnstile.solve({ hostname: PANEL_HOST, action: 'login' });
    const res = await login(token);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['set-cookie'])).toContain('op_session=');
    expect(turnstile.calls.at(-1)).toEqual({ secret: turnstile.secret, response: token, remoteip: '127.0.0.1' });
  });

  it('refuses a reused, forged or expired token with 400 CAPTCHA_FAILED and starts no session', async () => {
    await turnOn();
    const used = turnstile.solve({ hostname: PANEL_HOST, action: 'login' });
    expect((await login(used)).statusCode).toBe(200);
    const sessionsBefore = await countRows(panel, 'sessions');
    for (const token of [used, 'forged-token', turnstile.solve({ hostname: PANEL_HOST, action: 'login', ageMs: 301_000 })]) {
      const res = await login(token);
      expect(res.statusCode, token).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'CAPTCHA_FAILED', field: 'captcha_token' });
    }
    expect(await countRows(panel, 'sessions')).toBe(sessionsBefore);
  });

  it('refuses a token solved on another site or on another form', async () => {
    await turnOn();
    const elsewhere = await login(turnstile.solve({ hostname: 'evil.example', action: 'login' }));
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.code).toBe('CAPTCHA_FAILED');
    const otherForm = await login(turnstile.solve({ hostname: PANEL_HOST, action: 'forgot' }));
    expect(otherForm.statusCode).toBe(400);
    expect(otherForm.json().error.code).toBe('CAPTCHA_FAILED');
    // a widget rendered without an action is accepted on any form
    expect((await login(turnstile.solve({ hostname: PANEL_HOST, action: '' }))).statusCode).toBe(200);
  });

  it('creates no account without a valid token, and one with it', async () => {
    await turnOn();
    const usersBefore = await countRows(panel, 'users');
    const missing = await post('/api/user/auth/register', newAccount());
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.code).toBe('CAPTCHA_REQUIRED');
    const forged = await post('/api/user/auth/register', { ...newAccount(), captcha_token: 'forged' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().error.code).toBe('CAPTCHA_FAILED');
    expect(await countRows(panel, 'users')).toBe(usersBefore);

    const ok = await post('/api/user/auth/register', { ...newAccount(), captcha_token: turnstile.solve({ hostname: PANEL_HOST, action: 'register' }) });
    expect(ok.statusCode).toBe(201);
    expect(await countRows(panel, 'users')).toBe(usersBefore + 1);
    // an over-long token is bad input, refused by the schema
    const long = await post('/api/user/auth/register', { ...newAccount(), captcha_token: 'x'.repeat(2049) });
    expect(long.statusCode).toBe(400);
    expect(long.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('guards the forgot-password form too', async () => {
    await turnOn();
    await settings().set('smtp_host', '127.0.0.1');
    try {
      const missing = await post('/api/user/auth/forgot', { email: owner.email });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.code).toBe('CAPTCHA_REQUIRED');
      const ok = await post('/api/user/auth/forgot', { email: owner.email, captcha_token: turnstile.solve({ hostname: PANEL_HOST, action: 'forgot' }) });
      expect(ok.statusCode).toBe(200);
    } finally {
      await settings().set('smtp_host', '');
    }
  });

  it('fails closed: siteverify down, unreadable, erring or refusing our secret answers 503 CAPTCHA_UNAVAILABLE', async () => {
    await turnOn();
    const sessionsBefore = await countRows(panel, 'sessions');
    const expectUnavailable = async (what: string) => {
      const res = await login(turnstile.solve({ hostname: PANEL_HOST, action: 'login' }));
      expect(res.statusCode, what).toBe(503);
      expect(res.json().error.code, what).toBe('CAPTCHA_UNAVAILABLE');
    };
    for (const mode of ['http-500', 'not-json', 'internal-error'] as const) {
      turnstile.setMode(mode);
      await expectUnavailable(mode);
    }
    turnstile.setMode('normal');

    await settings().set('turnstile_secret_key', 'not-the-secret');
    await expectUnavailable('invalid-input-secret');
    await settings().set('turnstile_secret_key', '');
    await expectUnavailable('no secret configured');
    await settings().set('turnstile_secret_key', turnstile.secret);

    await settings().set('turnstile_verify_url', 'http://127.0.0.1:1/turnstile/v0/siteverify');
    await expectUnavailable('nothing listening');
    expect(await countRows(panel, 'sessions')).toBe(sessionsBefore);

    // and back on its feet, it works again
    await settings().set('turnstile_verify_url', turnstile.url);
    expect((await login(turnstile.solve({ hostname: PANEL_HOST, action: 'login' }))).statusCode).toBe(200);
  });

  it('checks no hostname while the panel does not know its own address', async () => {
    await turnOn();
    await settings().set('app_url', '');
    try {
      expect((await login(turnstile.solve({ hostname: 'anything.example', action: 'login' }))).statusCode).toBe(200);
    } finally {
      await settings().set('app_url', `https://${PANEL_HOST}`);
    }
  });
});
