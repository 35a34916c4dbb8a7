// E-mail verification when mail is on: welcome and verify mails at registration, a single-use link
// valid for 24 hours, JSON for API callers and a redirect for a browser, resending on request.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, register, startPanel, testDialects, type TestPanel } from '../../../tests/api/harness';
import { deliverQueued, linkIn, startSmtpServer, useSmtpServer, type TestSmtpServer } from '../../../tests/api/smtp-server';

describe.each(testDialects())('e-mail verification on %s', (dialect) => {
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
  const session = async (cookie: string) => (await panel.app.inject({ url: '/api/user/session', headers: { cookie } })).json();
  const verify = (code: string, accept = 'application/json') => panel.app.inject({ url: `/api/user/auth/verify?code=${encodeURIComponent(code)}`, headers: { accept } });
  const resend = (cookie?: string) => panel.app.inject({ method: 'POST', url: '/api/user/auth/verify/resend', headers: cookie ? { cookie } : {} });
  const codeIn = (text: string) => new URL(text).searchParams.get('code')!;

  async function registered() {
    const account = await register(panel.app);
    const mails = await deliverQueued(panel, smtp, 2);
    const verifyMail = mails.find((m) => m.subject.startsWith('Verify'))!;
    return { account, mails, code: codeIn(linkIn(verifyMail, 'https://panel.example.com/api/user/auth/verify?code=')) };
  }

  it('mails a welcome and a verification link at registration and verifies the address once', async () => {
    const { account, mails, code } = await registered();
    expect(mails.map((m) => m.subject).sort()).toEqual(['Verify your e-mail address for Orepanel', 'Welcome to Orepanel']);
    expect(mails.every((m) => m.to[0] === account.body.email)).toBe(true);
    expect((await session(account.cookie)).user_info.verified).toBe(false);

    const res = await verify(code);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect((await session(account.cookie)).user_info.verified).toBe(true);
    const again = await verify(code);
    expect(again.statusCode).toBe(400);
    expect(again.json().error).toMatchObject({ code: 'VERIFY_CODE_INVALID', field: 'code' });
    const audit = await db().selectFrom('audit_log').select(['action', 'details']).where('action', '=', 'auth.email_verified').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toEqual({ email: account.body.email.toLowerCase() });
  });

  it('redirects a browser that followed the link to /account', async () => {
    const { code } = await registered();
    const res = await verify(code, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account?email_verified=1');
    const bad = await verify(code, 'text/html');
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toBe('/account?email_verified=0');
  });

  it('refuses an expired link, and a link mailed to an address the account no longer has', async () => {
    const expired = await registered();
    await db()
      .updateTable('auth_tokens' as never)
      .set({ expires_at: new Date(Date.now() - 1).toISOString() } as never)
      .execute();
    expect((await verify(expired.code)).json().error.code).toBe('VERIFY_CODE_INVALID');

    const moved = await registered();
    await db().updateTable('users').set({ email: 'moved@example.com', email_lower: 'moved@example.com' }).where('username', '=', moved.account.body.username).execute();
    expect((await verify(moved.code)).json().error.code).toBe('VERIFY_CODE_INVALID');
    expect((await session(moved.account.cookie)).user_info.verified).toBe(false);
  });

  it('kills the verification link when the password changes (by the user or by a completed reset)', async () => {
    const changed = await registered();
    const res = await panel.app.inject({
      method: 'POST',
      url: '/api/user/session/password/change',
      payload: { current_password: PASSWORD, new_password: 'a brand new password' },
      headers: { cookie: changed.account.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect((await verify(changed.code)).json().error.code).toBe('VERIFY_CODE_INVALID');

    const wasReset = await registered();
    expect((await panel.app.inject({ method: 'POST', url: '/api/user/auth/forgot', payload: { email: wasReset.account.body.email } })).statusCode).toBe(200);
    const [mail] = await deliverQueued(panel, smtp, 1);
    const token = new URL(linkIn(mail, 'https://panel.example.com/auth/reset-password?token=')).searchParams.get('token')!;
    expect((await panel.app.inject({ method: 'POST', url: '/api/user/auth/reset', payload: { token, password: 'a brand new password' } })).statusCode).toBe(200);
    expect((await verify(wasReset.code)).json().error.code).toBe('VERIFY_CODE_INVALID');
  });

  it('resends a link on request (the older one stops working) and refuses when already verified', async () => {
    expect((await resend()).statusCode).toBe(401);
    const { account, code } = await registered();
    const res = await resend(account.cookie);
    expect(res.statusCode).toBe(200);
    const [mail] = await deliverQueued(panel, smtp, 1);
    const fresh = codeIn(linkIn(mail, 'https://panel.example.com/api/user/auth/verify?code='));
    expect((await verify(code)).statusCode).toBe(400);
    expect((await verify(fresh)).statusCode).toBe(200);
    const done = await resend(account.cookie);
    expect(done.statusCode).toBe(409);
    expect(done.json().error.code).toBe('EMAIL_ALREADY_VERIFIED');
  });

  it('limits resends per account with the auth.verify policy', async () => {
    const { account } = await registered();
    await panel.services.settings.set('rate_limit_verify_per_account', 1);
    try {
      expect((await resend(account.cookie)).statusCode).toBe(200);
      expect((await resend(account.cookie)).statusCode).toBe(429);
    } finally {
      await panel.services.settings.set('rate_limit_verify_per_account', 1_000_000);
    }
  });

  it('answers bad input with 400', async () => {
    for (const url of ['/api/user/auth/verify', `/api/user/auth/verify?code=${'x'.repeat(200)}`]) {
      const res = await panel.app.inject({ url, headers: { accept: 'application/json' } });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await verify('not-a-code')).json().error.code).toBe('VERIFY_CODE_INVALID');
  });

  it('mails a new-login notice for a sign-in from an address the account never used', async () => {
    const { account } = await registered();
    const signIn = () =>
      panel.app.inject({
        method: 'POST',
        url: '/api/user/auth/login',
        payload: { login: account.body.username, password: account.body.password },
        remoteAddress: '203.0.113.5',
        headers: { 'user-agent': 'Firefox <test>' },
      });
    expect((await signIn()).statusCode).toBe(200);
    const [mail] = await deliverQueued(panel, smtp, 1);
    expect(mail.subject).toBe('New sign-in to your Orepanel account');
    expect(mail.text).toContain('from 203.0.113.5 (Firefox <test>)');
    expect(mail.html).toContain('(Firefox &lt;test&gt;)');
    expect((await signIn()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await db().selectFrom('mail_queue').selectAll().where('status', '=', 'pending').execute()).toEqual([]);
  });

  it('sends nothing with mail off, and resend says so', async () => {
    await panel.services.settings.set('smtp_host', '');
    try {
      const account = await register(panel.app);
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(await db().selectFrom('mail_queue').selectAll().execute()).toEqual([]);
      const res = await resend(account.cookie);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('MAIL_DISABLED');
    } finally {
      await useSmtpServer(panel.services.settings, smtp);
    }
  });
});
