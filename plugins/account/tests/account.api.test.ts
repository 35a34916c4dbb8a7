// The account plugin's API: profile (names, e-mail, pictures), password change, sessions with
// revoke, support PIN, account deletion — each with its audit entry, and bad input answered 4xx
// with nothing changed.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, cookieHeader, register, startPanel, testDialects, userWithRole, type TestPanel } from '../../../tests/api/harness';
import { totpCode, totpStep } from '../../../tests/fixtures/authenticator-app';
import { activeRootHolders, expectOneWinner, onlyNewRootHolders } from '../../../tests/api/root-holders';
import { deliverQueued, linkIn, startSmtpServer, useSmtpServer, type TestSmtpServer } from '../../../tests/api/smtp-server';

describe.each(testDialects())('account API on %s', (dialect) => {
  let panel: TestPanel;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    smtp = await startSmtpServer();
    await panel.services.settings.set('app_url', 'https://panel.example.com');
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    await panel.services.settings.set('smtp_host', '');
    await panel.services.database.db.deleteFrom('mail_queue').execute();
  });

  const db = () => panel.services.database.db;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string | null, payload?: unknown) =>
    panel.app.inject({ method, url: `/api/user/session${url}`, payload: payload as Record<string, unknown>, headers: cookie ? { cookie } : {} });
  const userRow = (username: string) => db().selectFrom('users').selectAll().where('username', '=', username).executeTakeFirstOrThrow();
  const login = (name: string, password = PASSWORD, ua = 'test-agent') =>
    panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: name, password }, headers: { 'user-agent': ua } });
  /** A registered account with 2FA switched on through the API (its secret and recovery codes). */
  async function withTwoFactor() {
    const account = await register(panel.app);
    const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: account.cookie } });
    const { secret } = setup.json() as { secret: string };
    const confirmed = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/2fa/setup',
      payload: { code: totpCode(secret, totpStep() - 1) },
      headers: { cookie: account.cookie },
    });
    expect(confirmed.statusCode).toBe(200);
    return { ...account, secret, cookie: cookieHeader(confirmed), recoveryCodes: confirmed.json().recovery_codes as string[] };
  }
  const lastAudit = async (userId: number) =>
    db().selectFrom('audit_log').select(['action', 'details', 'actor_user_id']).where('target_user_id', '=', userId).orderBy('id', 'desc').executeTakeFirstOrThrow();

  it('answers 401 on every account route without a session', async () => {
    for (const [method, url] of [
      ['POST', '/info/update'],
      ['POST', '/password/change'],
      ['GET', '/sessions'],
      ['DELETE', '/sessions/AAAAAAAAAAAAAAAAAAAAAA'],
      ['GET', '/pin'],
      ['POST', '/newPin'],
      ['POST', '/delete-account'],
    ] as const) {
      const res = await call(method, url, null, method === 'POST' ? {} : undefined);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error.code).toBe('INVALID_SESSION');
    }
  });

  describe('POST /info/update', () => {
    it('changes names and pictures and records it', async () => {
      const { body, cookie } = await register(panel.app);
      const res = await call('POST', '/info/update', cookie, {
        first_name: ' Grace ',
        last_name: 'Hopper',
        avatar: 'https://cdn.example.com/a.png',
        background: 'http://cdn.example.com/b.jpg',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        verification_sent: false,
        user_info: {
          first_name: 'Grace',
          last_name: 'Hopper',
          email: body.email,
          avatar: 'https://cdn.example.com/a.png',
          background: 'http://cdn.example.com/b.jpg',
          verified: false,
        },
      });
      const session = (await panel.app.inject({ url: '/api/user/session', headers: { cookie } })).json();
      expect(session.user_info).toMatchObject({ first_name: 'Grace', avatar: 'https://cdn.example.com/a.png' });
      const row = await userRow(body.username);
      const audit = await lastAudit(row.id);
      expect(audit.action).toBe('account.profile_update');
      expect(JSON.parse(audit.details)).toMatchObject({ first_name: 'Grace', avatar: 'https://cdn.example.com/a.png' });

      const cleared = await call('POST', '/info/update', cookie, { avatar: null, background: '' });
      expect(cleared.json().user_info).toMatchObject({ avatar: null, background: null });
    });

    it('makes a new e-mail address unverified and mails a verification link when mail is on', async () => {
      await useSmtpServer(panel.services.settings, smtp);
      const { body, cookie } = await register(panel.app);
      await deliverQueued(panel, smtp, 2);
      await db().updateTable('users').set({ verified: 1 }).where('username', '=', body.username).execute();

      // a change of letter case is the same address
      const same = await call('POST', '/info/update', cookie, { email: body.email.toUpperCase() });
      expect(same.json()).toMatchObject({ verification_sent: false, user_info: { email: body.email.toUpperCase(), verified: true } });

      const res = await call('POST', '/info/update', cookie, { email: `new-${body.email}`, current_password: PASSWORD });
      expect(res.json()).toMatchObject({ success: true, verification_sent: true, user_info: { email: `new-${body.email}`, verified: false } });
      const [mail] = await deliverQueued(panel, smtp, 1);
      expect(mail.to).toEqual([`new-${body.email}`]);
      const link = linkIn(mail, 'https://panel.example.com/api/user/auth/verify?code=');
      const verified = await panel.app.inject({ url: new URL(link).pathname + new URL(link).search, headers: { accept: 'application/json' } });
      expect(verified.statusCode).toBe(200);
      expect((await userRow(body.username)).verified).toBe(1);
    });

    it('needs the current password to change the e-mail address; a wrong or missing one changes nothing', async () => {
      const { body, cookie } = await register(panel.app);
      const before = await userRow(body.username);
      const moved = `moved-${body.email}`;
      const refused: [string, Record<string, unknown>, string, string][] = [
        ['no password', { email: moved }, 'CURRENT_PASSWORD_REQUIRED', 'current_password'],
        ['wrong password', { first_name: 'Changed', email: moved, current_password: 'not the password' }, 'WRONG_PASSWORD', 'current_password'],
        ['a code without two-factor authentication', { email: moved, code: '123456' }, 'TWO_FA_NOT_ENABLED', 'code'],
        ['both a password and a code', { email: moved, current_password: PASSWORD, code: '123456' }, 'VALIDATION_ERROR', 'code'],
      ];
      for (const [name, payload, code, field] of refused) {
        const res = await call('POST', '/info/update', cookie, payload);
        expect(res.statusCode, name).toBe(400);
        expect(res.json().error, name).toMatchObject({ code, field });
      }
      expect(await userRow(body.username)).toEqual(before);
      expect((await lastAudit(before.id)).action).toBe('account.email_change_failed');

      // names and pictures alone need no password, nor does a change of letter case
      expect((await call('POST', '/info/update', cookie, { first_name: 'Ada', email: body.email.toUpperCase() })).statusCode).toBe(200);
      const res = await call('POST', '/info/update', cookie, { email: moved, current_password: PASSWORD });
      expect(res.statusCode).toBe(200);
      expect((await userRow(body.username)).email).toBe(moved);
    });

    it('takes a fresh two-factor code instead of the password when the account has 2FA', async () => {
      const account = await withTwoFactor();
      const before = await userRow(account.body.username);
      const moved = `2fa-${account.body.email}`;
      const wrong = await call('POST', '/info/update', account.cookie, { email: moved, code: '000000' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toMatchObject({ code: 'TWO_FA_INVALID_CODE', field: 'code' });
      expect(await userRow(account.body.username)).toEqual(before);

      const code = totpCode(account.secret, totpStep());
      expect((await call('POST', '/info/update', account.cookie, { email: moved, code })).statusCode).toBe(200);
      // a code works once
      const again = await call('POST', '/info/update', account.cookie, { email: `again-${moved}`, code });
      expect(again.json().error).toMatchObject({ code: 'TWO_FA_INVALID_CODE', field: 'code' });
      expect((await userRow(account.body.username)).email).toBe(moved);

      const changed = await call('POST', '/password/change', account.cookie, { code: account.recoveryCodes[0], new_password: 'a brand new password' });
      expect(changed.statusCode).toBe(200);
      expect((await login(account.body.username, 'a brand new password')).statusCode).toBe(200);
    });

    it('refuses bad input and a taken address, changing nothing', async () => {
      const other = await register(panel.app);
      const { body, cookie } = await register(panel.app);
      const before = await userRow(body.username);
      const cases: [string, unknown, number, string, string | undefined][] = [
        ['empty body', {}, 400, 'VALIDATION_ERROR', undefined],
        ['blank first name', { first_name: '   ' }, 400, 'VALIDATION_ERROR', 'first_name'],
        ['long last name', { last_name: 'x'.repeat(65) }, 400, 'VALIDATION_ERROR', 'last_name'],
        ['bad email', { email: 'nope' }, 400, 'VALIDATION_ERROR', 'email'],
        ['javascript avatar', { avatar: 'javascript:alert(1)' }, 400, 'VALIDATION_ERROR', 'avatar'],
        ['ftp background', { background: 'ftp://example.com/x.png' }, 400, 'VALIDATION_ERROR', 'background'],
        ['avatar not a URL', { first_name: 'Ok', avatar: 'not a url' }, 400, 'VALIDATION_ERROR', 'avatar'],
        ['avatar too long', { avatar: `https://e.com/${'x'.repeat(600)}` }, 400, 'VALIDATION_ERROR', 'avatar'],
        ['avatar a number', { avatar: 5 }, 400, 'VALIDATION_ERROR', 'avatar'],
        ['taken email', { first_name: 'Changed', email: other.body.email.toUpperCase(), current_password: PASSWORD }, 409, 'EMAIL_TAKEN', 'email'],
      ];
      for (const [name, payload, status, code, field] of cases) {
        const res = await call('POST', '/info/update', cookie, payload);
        expect(res.statusCode, name).toBe(status);
        expect(res.json().error.code, name).toBe(code);
        if (field) expect(res.json().error.field, name).toBe(field);
      }
      expect(await userRow(body.username)).toEqual(before);
    });
  });

  describe('POST /password/change', () => {
    it('needs the current password, ends the other sessions and rotates this one', async () => {
      const { body, cookie } = await register(panel.app);
      const other = cookieHeader(await login(body.username));
      const wrong = await call('POST', '/password/change', cookie, { current_password: 'not it at all', new_password: 'a brand new password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toMatchObject({ code: 'WRONG_PASSWORD', field: 'current_password' });
      const none = await call('POST', '/password/change', cookie, { new_password: 'a brand new password' });
      expect(none.statusCode).toBe(400);
      expect(none.json().error).toMatchObject({ code: 'CURRENT_PASSWORD_REQUIRED', field: 'current_password' });
      expect((await login(body.username)).statusCode).toBe(200);

      const res = await call('POST', '/password/change', cookie, { current_password: PASSWORD, new_password: 'a brand new password' });
      expect(res.statusCode).toBe(200);
      const rotated = cookieHeader(res);
      expect(rotated).toMatch(/op_session=/);
      expect(rotated).not.toBe(cookie);
      const status = async (c: string) => (await panel.app.inject({ url: '/api/user/session', headers: { cookie: c } })).statusCode;
      expect(await status(rotated)).toBe(200);
      expect(await status(cookie)).toBe(401);
      expect(await status(other)).toBe(401);
      expect((await login(body.username)).statusCode).toBe(401);
      expect((await login(body.username, 'a brand new password')).statusCode).toBe(200);
      const row = await userRow(body.username);
      const actions = (await db().selectFrom('audit_log').select('action').where('target_user_id', '=', row.id).orderBy('id').execute()).map((r) => r.action);
      expect(actions).toEqual(expect.arrayContaining(['account.password_change_failed', 'account.password_change']));
    });

    it('refuses bad input with 400 and keeps the password', async () => {
      const { body, cookie } = await register(panel.app);
      const before = (await userRow(body.username)).password_hash;
      for (const payload of [
        {},
        { current_password: PASSWORD },
        { current_password: PASSWORD, new_password: 'short' },
        { current_password: '', new_password: 'long enough pw' },
        { code: 12345678, new_password: 'long enough pw' },
      ]) {
        const res = await call('POST', '/password/change', cookie, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
      expect((await userRow(body.username)).password_hash).toBe(before);
    });
  });

  describe('sessions', () => {
    it('lists the live sessions with the current one marked and revokes one', async () => {
      const { body, cookie } = await register(panel.app);
      const phone = cookieHeader(await login(body.username, PASSWORD, 'phone-browser'));
      const list = await call('GET', '/sessions', cookie);
      expect(list.statusCode).toBe(200);
      expect(list.headers['cache-control']).toBe('no-store');
      const data = list.json().data as { id: string; current: boolean; user_agent: string | null; ip: string }[];
      expect(data).toHaveLength(2);
      expect(data.filter((s) => s.current)).toHaveLength(1);
      const phoneSession = data.find((s) => s.user_agent === 'phone-browser')!;
      expect(phoneSession).toMatchObject({ current: false, ip: '127.0.0.1', id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/) });

      expect((await call('DELETE', `/sessions/${phoneSession.id}`, cookie)).json()).toEqual({ success: true });
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: phone } })).statusCode).toBe(401);
      expect((await call('GET', '/sessions', cookie)).json().data).toHaveLength(1);
      expect((await call('DELETE', `/sessions/${phoneSession.id}`, cookie)).statusCode).toBe(404);
      const row = await userRow(body.username);
      expect((await lastAudit(row.id)).action).toBe('account.session_revoke');
    });

    it("cannot revoke another user's session, and revoking the current one logs out", async () => {
      const mine = await register(panel.app);
      const theirs = await register(panel.app);
      const theirId = (await call('GET', '/sessions', theirs.cookie)).json().data[0].id;
      const res = await call('DELETE', `/sessions/${theirId}`, mine.cookie);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('SESSION_NOT_FOUND');
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: theirs.cookie } })).statusCode).toBe(200);

      const myId = (await call('GET', '/sessions', mine.cookie)).json().data[0].id;
      const out = await call('DELETE', `/sessions/${myId}`, mine.cookie);
      expect(out.statusCode).toBe(200);
      expect(String(out.headers['set-cookie'])).toMatch(/op_session=;/);
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: mine.cookie } })).statusCode).toBe(401);
      expect((await call('DELETE', '/sessions/bad id!', theirs.cookie)).json().error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('support PIN', () => {
    it('makes a new 6-digit PIN each time, shows it, and never logs it', async () => {
      const { body, cookie } = await register(panel.app);
      expect((await call('GET', '/pin', cookie)).json()).toEqual({ pin: null });
      const first = await call('POST', '/newPin', cookie);
      expect(first.statusCode).toBe(200);
      const pin = first.json().pin as string;
      expect(pin).toMatch(/^\d{6}$/);
      expect((await call('GET', '/pin', cookie)).json()).toEqual({ pin });
      const pins = new Set([pin]);
      for (let i = 0; i < 5; i++) pins.add((await call('POST', '/newPin', cookie)).json().pin);
      expect(pins.size).toBeGreaterThan(1);
      const row = await userRow(body.username);
      const audit = await lastAudit(row.id);
      expect(audit.action).toBe('account.support_pin_change');
      expect(audit.details).not.toContain(row.support_pin!);
      // a body that is not an object is refused
      expect(
        (await panel.app.inject({ method: 'POST', url: '/api/user/session/newPin', payload: '[1]', headers: { cookie, 'content-type': 'application/json' } })).statusCode,
      ).toBe(400);
    });
  });

  describe('POST /delete-account', () => {
    it('needs the password, then deletes the account and its sessions', async () => {
      const { body, cookie } = await register(panel.app);
      const other = cookieHeader(await login(body.username));
      const row = await userRow(body.username);
      const wrong = await call('POST', '/delete-account', cookie, { password: 'not the password' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error).toMatchObject({ code: 'WRONG_PASSWORD', field: 'password' });
      for (const payload of [{}, { password: '' }, { password: 7 }]) expect((await call('POST', '/delete-account', cookie, payload)).statusCode).toBe(400);
      expect(await db().selectFrom('users').select('id').where('id', '=', row.id).executeTakeFirst()).toBeDefined();

      const res = await call('POST', '/delete-account', cookie, { password: PASSWORD });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/op_session=;/);
      expect(await db().selectFrom('users').select('id').where('id', '=', row.id).executeTakeFirst()).toBeUndefined();
      expect(await db().selectFrom('sessions').select('id').where('user_id', '=', row.id).execute()).toEqual([]);
      expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: other } })).statusCode).toBe(401);
      expect((await login(body.username)).statusCode).toBe(401);
      const audit = await lastAudit(row.id);
      expect(audit).toMatchObject({ action: 'account.delete', actor_user_id: row.id });
    });

    it('keeps the last administrator', async () => {
      await db().updateTable('users').set({ role_id: 1 }).where('role_id', 'in', [7, 8]).execute();
      const admin = await userWithRole(panel, 8);
      const res = await call('POST', '/delete-account', admin.cookie, { password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('LAST_ADMINISTRATOR');
      const second = await userWithRole(panel, 7);
      expect((await call('POST', '/delete-account', admin.cookie, { password: PASSWORD })).statusCode).toBe(200);
      expect((await call('POST', '/delete-account', second.cookie, { password: PASSWORD })).statusCode).toBe(409);
    });

    it('keeps one of two administrators who delete their accounts at the same moment', async () => {
      const [first, second] = await onlyNewRootHolders(panel, 2);
      const answers = await Promise.all([first, second].map((admin) => call('POST', '/delete-account', admin.cookie, { password: PASSWORD })));
      expectOneWinner(answers);
      expect(await activeRootHolders(panel)).toHaveLength(1);
    });

    it('does not count a banned administrator as the one left', async () => {
      const [admin, banned] = await onlyNewRootHolders(panel, 2);
      await db().updateTable('users').set({ banned: 1, ban_reason: 'test' }).where('id', '=', banned.id).execute();
      const res = await call('POST', '/delete-account', admin.cookie, { password: PASSWORD });
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('LAST_ADMINISTRATOR');
      expect(await activeRootHolders(panel)).toEqual([admin.id]);
    });
  });
});
