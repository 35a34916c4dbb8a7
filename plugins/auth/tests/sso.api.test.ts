// /auth/sso: an administrator (admin.sso.create) issues a sign-in token for a user; the /auth/sso
// page exchanges it for a session exactly as a login does. A token is signed, stored only hashed,
// single use (also under a race) and expires after 60 seconds; an expired, reused, forged or altered
// token gets the same 401 and no session. The issuer cannot reach permissions they lack this way.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuthTables } from '../server/tables';
import { totpCode, totpStep } from '../server/totp';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import { cookieHeader, register, roleWith, setCookies, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const ISSUE = '/api/admin/sso/tokens';
const EXCHANGE = '/api/user/auth/sso';
const GENERIC = { code: 'SSO_TOKEN_INVALID', message: 'This sign-in link is invalid or has expired.' };

describe.each(testDialects())('/auth/sso on %s', (dialect) => {
  let panel: TestPanel;
  let admin: SignedInUser;
  // ctx.clock: token lifetimes run on it; time stands still until a test moves it
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false, clock });
    admin = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db.withTables<AuthTables>();
  const issue = (user: string, cookie = admin.cookie) => panel.app.inject({ method: 'POST', url: ISSUE, payload: { user }, headers: { cookie } });
  const exchange = (token: unknown, cookie?: string) => panel.app.inject({ method: 'POST', url: EXCHANGE, payload: { token }, headers: cookie ? { cookie } : {} });
  const sessionOf = (cookie: string) => panel.app.inject({ url: '/api/user/session', headers: { cookie } });
  const tokenFor = async (user: string) => {
    const res = await issue(user);
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { token: string }).token;
  };
  const audits = (action: string) => db().selectFrom('audit_log').select(['actor_user_id', 'target_user_id', 'details']).where('action', '=', action).orderBy('id').execute();

  it('issues a signed token for a user named by uuid, username or e-mail, stored only as a hash', async () => {
    const target = await userWithRole(panel, 1);
    const before = clock.now();
    for (const reference of [target.uuid, target.username.toUpperCase(), target.email]) {
      const res = await issue(reference);
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json() as { token: string; url: string; expires_at: string; expires_in: number; user: { uuid: string } };
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{32}\.\d{10}\.[A-Za-z0-9_-]{43}$/);
      expect(body.url).toBe(`/auth/sso?token=${body.token}`);
      expect(body.expires_in).toBe(60);
      expect(Date.parse(body.expires_at) - before).toBeGreaterThan(59_000);
      expect(Date.parse(body.expires_at) - before).toBeLessThanOrEqual(60_000);
      expect(body.user.uuid).toBe(target.uuid);
      expect(res.headers['cache-control']).toBe('no-store');
      const rows = await db().selectFrom('auth_sso_tokens').selectAll().where('user_id', '=', target.id).execute();
      expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(body.token).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(body.token);
    }
    const [entry] = await audits('admin.sso_token_issue');
    expect(entry).toMatchObject({ actor_user_id: admin.id, target_user_id: target.id });
  });

  it('gives an absolute link once the public address is set', async () => {
    const target = await userWithRole(panel, 1);
    await panel.services.settings.set('app_url', 'https://panel.example.com/');
    try {
      const body = (await issue(target.uuid)).json() as { url: string; token: string };
      expect(body.url).toBe(`https://panel.example.com/auth/sso?token=${body.token}`);
    } finally {
      await panel.services.settings.set('app_url', '');
    }
  });

  it('exchanges the token for a session of that user, exactly once', async () => {
    const target = await userWithRole(panel, 1);
    const token = await tokenFor(target.email);
    const res = await exchange(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, two_fa_required: false });
    const cookie = cookieHeader(res);
    expect(cookie).toContain('op_session=');
    const session = await sessionOf(cookie);
    expect(session.statusCode).toBe(200);
    expect(session.json().user_info.uuid).toBe(target.uuid);
    expect((await audits('auth.sso_login')).at(-1)).toMatchObject({ actor_user_id: target.id, target_user_id: target.id });

    const again = await exchange(token);
    expect(again.statusCode).toBe(401);
    expect(again.json().error).toEqual(GENERIC);
    expect(setCookies(again)['op_session']).toBeUndefined();
    expect(JSON.parse((await audits('auth.sso_failed')).at(-1)!.details)).toEqual({ reason: 'used' });
  });

  it('lets only one of two racing exchanges of a token win', async () => {
    const target = await userWithRole(panel, 1);
    const token = await tokenFor(target.uuid);
    const answers = await Promise.all([exchange(token), exchange(token), exchange(token)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 401, 401]);
  });

  it('rotates the session: the browser’s previous session ends', async () => {
    const target = await userWithRole(panel, 1);
    const other = await register(panel.app);
    const res = await exchange(await tokenFor(target.uuid), other.cookie);
    expect(res.statusCode).toBe(200);
    expect((await sessionOf(other.cookie)).statusCode).toBe(401);
    expect((await sessionOf(cookieHeader(res))).json().user_info.uuid).toBe(target.uuid);
  });

  it('refuses an expired token with the same answer', async () => {
    const target = await userWithRole(panel, 1);
    const token = await tokenFor(target.uuid);
    clock.advance(59_000);
    const stillFine = await tokenFor(target.uuid);
    clock.advance(1_000); // the first token is 60 s old now
    const res = await exchange(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toEqual(GENERIC);
    expect(setCookies(res)['op_session']).toBeUndefined();
    expect((await audits('auth.sso_failed')).at(-1)).toMatchObject({ target_user_id: target.id, details: JSON.stringify({ reason: 'expired' }) });
    expect((await exchange(stillFine)).statusCode).toBe(200);
  });

  it('refuses forged and altered tokens with the same answer, before using anything up', async () => {
    const target = await userWithRole(panel, 1);
    const token = await tokenFor(target.uuid);
    const [nonce, expiry, signature] = token.split('.');
    const flipped = `${signature.slice(0, 10)}${signature[10] === 'A' ? 'B' : 'A'}${signature.slice(11)}`;
    const otherKey = createHmac('sha256', randomBytes(32)).update(`sso.v1.${nonce}.${expiry}`).digest('base64url');
    const laterExpiry = String(Number(expiry) + 3600);
    const forgeries = [
      `${nonce}.${expiry}.${flipped}`, // a changed signature
      `${nonce}.${expiry}.${otherKey}`, // signed with another key
      `${nonce}.${laterExpiry}.${signature}`, // a lifetime extended by hand
      `${randomBytes(24).toString('base64url')}.${expiry}.${signature}`, // another nonce
      'not-a-token',
    ];
    for (const forged of forgeries) {
      const res = await exchange(forged);
      expect(res.statusCode, forged).toBe(401);
      expect(res.json().error).toEqual(GENERIC);
      expect(setCookies(res)['op_session']).toBeUndefined();
    }
    const reasons = (await audits('auth.sso_failed')).slice(-forgeries.length).map((a) => JSON.parse(a.details).reason);
    expect(reasons).toEqual(['forged', 'forged', 'forged', 'forged', 'malformed']);
    // the genuine token was not used up by the attempts
    expect((await exchange(token)).statusCode).toBe(200);
  });

  it('still asks for the second factor: a user with 2FA on ends in TW0_FA_BLOCKED', async () => {
    const { response, cookie } = await register(panel.app);
    const uuid = response.json().user.uuid as string;
    const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie } });
    const confirm = await panel.app.inject({ method: 'POST', url: '/api/user/auth/2fa/setup', headers: { cookie }, payload: { code: totpCode(setup.json().secret, totpStep()) } });
    expect(confirm.statusCode, confirm.body).toBe(200);

    const res = await exchange(await tokenFor(uuid));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, two_fa_required: true });
    const blocked = cookieHeader(res);
    const session = await sessionOf(blocked);
    expect(session.statusCode).toBe(401);
    expect(session.json().error_code).toBe('TW0_FA_BLOCKED');
    const elsewhere = await panel.app.inject({ url: '/api/user/auth/oauth/accounts', headers: { cookie: blocked } });
    expect(elsewhere.json().error.code).toBe('TW0_FA_BLOCKED');
  });

  it('refuses a banned account, at issue and at exchange', async () => {
    const target = await userWithRole(panel, 1);
    const token = await tokenFor(target.uuid);
    await db().updateTable('users').set({ banned: 1, ban_reason: 'spam' }).where('id', '=', target.id).execute();
    const res = await exchange(token);
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('USER_BANNED');
    expect(setCookies(res)['op_session']).toBeUndefined();
    const refused = await issue(target.uuid);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'USER_BANNED', field: 'user' });
  });

  it('does not let an administrator sign in as an account with permissions they lack', async () => {
    const issuerRole = await roleWith(panel, ['admin.sso.create', 'admin.users.list']);
    const issuer = await userWithRole(panel, issuerRole);
    const root = await userWithRole(panel, 8);
    const peerRole = await roleWith(panel, ['admin.users.list']);
    const peer = await userWithRole(panel, peerRole);
    const plain = await userWithRole(panel, 1);

    const refused = await issue(root.uuid, issuer.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PERMISSION_ESCALATION');
    expect(await db().selectFrom('auth_sso_tokens').select('id').where('user_id', '=', root.id).execute()).toEqual([]);
    expect((await issue(peer.uuid, issuer.cookie)).statusCode).toBe(201);
    expect((await issue(plain.uuid, issuer.cookie)).statusCode).toBe(201);
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const count = async () => (await db().selectFrom('auth_sso_tokens').select('id').execute()).length;
    const before = await count();
    const unknown = await issue('nobody-by-this-name');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toMatchObject({ code: 'USER_NOT_FOUND', field: 'user' });
    for (const payload of [{}, { user: '' }, { user: 'x'.repeat(300) }, { user: '   ' }]) {
      const res = await panel.app.inject({ method: 'POST', url: ISSUE, payload, headers: { cookie: admin.cookie } });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    expect(await count()).toBe(before);
    for (const payload of [{}, { token: '' }, { token: 'x'.repeat(300) }]) {
      const res = await panel.app.inject({ method: 'POST', url: EXCHANGE, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(setCookies(res)['op_session']).toBeUndefined();
    }
  });

  it('needs admin.sso.create to issue', async () => {
    const plain = await userWithRole(panel, 1);
    expect((await issue(plain.uuid, plain.cookie)).statusCode).toBe(403);
    expect((await panel.app.inject({ method: 'POST', url: ISSUE, payload: { user: plain.uuid } })).statusCode).toBe(401);
  });
});
