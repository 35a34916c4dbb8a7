// Forgot / reset password: one answer whether or not the account exists, a single-use link valid
// for an hour mailed through a real SMTP server, the new password set, every session ended.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FORGOT_MESSAGE } from '../server/password-reset';
import { PASSWORD, register, startPanel, testDialects, userWithRole, type TestPanel } from '../../../tests/api/harness';
import { deliverQueued, linkIn, startSmtpServer, useSmtpServer, type TestSmtpServer } from '../../../tests/api/smtp-server';

describe.each(testDialects())('forgot / reset password on %s', (dialect) => {
  let panel: TestPanel;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    smtp = await startSmtpServer();
    await useSmtpServer(panel.services.settings, smtp);
    await panel.services.settings.set('app_url', 'https://panel.example.com');
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    await panel.services.database.db.deleteFrom('mail_queue').execute();
  });

  const db = () => panel.services.database.db;
  const forgot = (email: unknown, headers: Record<string, string> = {}) =>
    panel.app.inject({ method: 'POST', url: '/api/user/auth/forgot', payload: { email } as Record<string, unknown>, headers });
  const check = (token: string) => panel.app.inject({ url: `/api/user/auth/reset?token=${encodeURIComponent(token)}` });
  const reset = (token: unknown, password: unknown) => panel.app.inject({ method: 'POST', url: '/api/user/auth/reset', payload: { token, password } as Record<string, unknown> });
  const login = (name: string, password: string) => panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: name, password } });
  const userIdOf = async (username: string) => (await db().selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  /** Registers an account (its own mails delivered and dropped) and asks for a reset link. */
  async function accountWithResetLink() {
    const account = await register(panel.app);
    await deliverQueued(panel, smtp, 2); // welcome + verify
    await db().deleteFrom('mail_queue').execute();
    const res = await forgot(account.body.email.toUpperCase());
    expect(res.statusCode).toBe(200);
    const [mail] = await deliverQueued(panel, smtp, 1);
    const link = linkIn(mail, 'https://panel.example.com/auth/reset-password?token=');
    return { account, mail, token: new URL(link).searchParams.get('token')! };
  }

  it('mails a reset link and gives the same answer for an unknown address', async () => {
    const { account, mail, token } = await accountWithResetLink();
    expect(mail.to).toEqual([account.body.email]);
    expect(mail.subject).toBe('Reset your Orepanel password');
    expect(mail.html).toContain(`href="https://panel.example.com/auth/reset-password?token=${token}"`);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only the hash is stored
    const row = (await db()
      .selectFrom('auth_tokens' as never)
      .selectAll()
      .where('purpose' as never, '=', 'reset_password' as never)
      .orderBy('id' as never, 'desc')
      .executeTakeFirstOrThrow()) as { token_hash: string; expires_at: string; created_at: string };
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(3_600_000);

    const known = await forgot(account.body.email);
    const unknown = await forgot('nobody-here@example.com');
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    expect(unknown.json()).toEqual({ success: true, message: FORGOT_MESSAGE });
    await deliverQueued(panel, smtp, 1); // the known one only
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await db().selectFrom('mail_queue').selectAll().where('status', '=', 'pending').execute()).toEqual([]);
  });

  it('checks a token, sets the new password, ends every session and works only once', async () => {
    const { account, token } = await accountWithResetLink();
    const other = await login(account.body.username, PASSWORD);
    expect((await check(token)).json()).toEqual({ success: true });

    // a refused password leaves the token usable
    const short = await reset(token, 'short');
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'password' });
    expect((await check(token)).statusCode).toBe(200);

    const done = await reset(token, 'a brand new password');
    expect(done.statusCode).toBe(200);
    expect(done.json()).toEqual({ success: true });
    expect((await login(account.body.username, PASSWORD)).statusCode).toBe(401);
    expect((await login(account.body.username, 'a brand new password')).statusCode).toBe(200);
    for (const cookie of [account.cookie, other.headers['set-cookie'] ? String(other.headers['set-cookie']).split(';')[0] : '']) {
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie } })).statusCode).toBe(401);
    }
    const again = await reset(token, 'another new password');
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'RESET_TOKEN_INVALID', field: 'token' });
    expect((await check(token)).json().error.code).toBe('RESET_TOKEN_INVALID');

    const userId = await userIdOf(account.body.username);
    const actions = (await db().selectFrom('audit_log').select('action').where('target_user_id', '=', userId).orderBy('id').execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['auth.password_reset_requested', 'auth.password_reset']));
    // the link proved the address
    expect((await db().selectFrom('users').select('verified').where('id', '=', userId).executeTakeFirstOrThrow()).verified).toBe(1);
  });

  it('lets only one of two simultaneous resets use a token', async () => {
    const { account, token } = await accountWithResetLink();
    const answers = await Promise.all([reset(token, 'first new password'), reset(token, 'second new password'), reset(token, 'third new password')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
    const winner = ['first new password', 'second new password', 'third new password'][answers.findIndex((a) => a.statusCode === 200)];
    expect((await login(account.body.username, winner)).statusCode).toBe(200);
  });

  it('refuses an expired, a replaced, an unknown and a malformed token', async () => {
    const first = await accountWithResetLink();
    await forgot(first.account.body.email);
    const [second] = await deliverQueued(panel, smtp, 1);
    const newer = new URL(linkIn(second, 'https://panel.example.com/')).searchParams.get('token')!;
    expect((await check(first.token)).json().error.code).toBe('RESET_TOKEN_INVALID');
    expect((await check(newer)).statusCode).toBe(200);

    await db()
      .updateTable('auth_tokens' as never)
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() } as never)
      .execute();
    expect((await check(newer)).json().error.code).toBe('RESET_TOKEN_INVALID');
    expect((await reset(newer, 'a brand new password')).json().error.code).toBe('RESET_TOKEN_INVALID');
    for (const token of ['A'.repeat(43), 'short', '../../etc']) {
      expect((await check(token)).json().error.code, token).toBe('RESET_TOKEN_INVALID');
    }
    expect((await login(first.account.body.username, PASSWORD)).statusCode).toBe(200);
  });

  it('kills every reset link of the account when its e-mail or its password changes, whoever changes it', async () => {
    const account = (cookie: string) => (url: string, payload: Record<string, unknown>) =>
      panel.app.inject({ method: 'POST', url: `/api/user/session${url}`, payload, headers: { cookie } });
    const admin = await userWithRole(panel, 8);
    const adminEdit = async (uuid: string, payload: Record<string, unknown>) => {
      const res = await panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${uuid}`, payload, headers: { cookie: admin.cookie } });
      expect(res.statusCode).toBe(200);
    };
    const uuidOf = async (username: string) => (await db().selectFrom('users').select('uuid').where('username', '=', username).executeTakeFirstOrThrow()).uuid;

    const byUser = await accountWithResetLink();
    const asUser = account(byUser.account.cookie);
    expect((await asUser('/info/update', { email: `moved-${byUser.account.body.email}`, current_password: PASSWORD })).statusCode).toBe(200);
    expect((await check(byUser.token)).json().error.code).toBe('RESET_TOKEN_INVALID');

    const passwordChanged = await accountWithResetLink();
    expect((await account(passwordChanged.account.cookie)('/password/change', { current_password: PASSWORD, new_password: 'a brand new password' })).statusCode).toBe(200);
    expect((await check(passwordChanged.token)).json().error.code).toBe('RESET_TOKEN_INVALID');
    expect((await reset(passwordChanged.token, 'the attacker password')).json().error.code).toBe('RESET_TOKEN_INVALID');
    expect((await login(passwordChanged.account.body.username, 'a brand new password')).statusCode).toBe(200);

    // an administrator moves the address away and back: the link mailed before stays dead
    const byAdmin = await accountWithResetLink();
    const uuid = await uuidOf(byAdmin.account.body.username);
    await adminEdit(uuid, { email: `elsewhere-${byAdmin.account.body.email}` });
    expect((await check(byAdmin.token)).json().error.code).toBe('RESET_TOKEN_INVALID');
    await adminEdit(uuid, { email: byAdmin.account.body.email });
    expect((await check(byAdmin.token)).json().error.code).toBe('RESET_TOKEN_INVALID');
    expect((await reset(byAdmin.token, 'the attacker password')).json().error.code).toBe('RESET_TOKEN_INVALID');
    expect((await login(byAdmin.account.body.username, PASSWORD)).statusCode).toBe(200);
  });

  it('answers bad input with 400 and queues nothing', async () => {
    for (const [name, res] of [
      ['no email', await panel.app.inject({ method: 'POST', url: '/api/user/auth/forgot', payload: {} })],
      ['bad email', await forgot('not-an-email')],
      ['email not text', await forgot(12)],
      ['no token', await panel.app.inject({ url: '/api/user/auth/reset' })],
      ['reset without password', await panel.app.inject({ method: 'POST', url: '/api/user/auth/reset', payload: { token: 'x' } })],
      ['password too long', await reset('A'.repeat(43), 'x'.repeat(300))],
    ] as const) {
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.code, name).toBe('VALIDATION_ERROR');
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await db().selectFrom('mail_queue').selectAll().execute()).toEqual([]);
  });

  it('says so when the panel cannot send mail', async () => {
    await panel.services.settings.set('smtp_host', '');
    try {
      const res = await forgot('someone@example.com');
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('MAIL_DISABLED');
    } finally {
      await useSmtpServer(panel.services.settings, smtp);
    }
  });

  it('never builds a link from the Host header: without a public address mail is off', async () => {
    const account = await register(panel.app);
    await deliverQueued(panel, smtp, 2);
    await panel.services.settings.set('app_url', '');
    try {
      const res = await forgot(account.body.email, { host: 'attacker.example' });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('MAIL_DISABLED');
      const queued = await db().selectFrom('mail_queue').select('html').where('template', '=', 'reset_password').execute();
      expect(queued.some((m) => m.html.includes('attacker.example'))).toBe(false);
    } finally {
      await panel.services.settings.set('app_url', 'https://panel.example.com');
    }
  });

  it('limits reset requests per account with the auth.forgot policy', async () => {
    const account = await register(panel.app);
    await panel.services.settings.set('rate_limit_forgot_per_account', 2);
    try {
      expect((await forgot(account.body.email)).statusCode).toBe(200);
      expect((await forgot(account.body.email.toUpperCase())).statusCode).toBe(200);
      const limited = await forgot(account.body.email);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
    } finally {
      await panel.services.settings.set('rate_limit_forgot_per_account', 1_000_000);
    }
  });
});
