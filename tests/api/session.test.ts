// GET /api/user/session in the spec's shape, every way a session can be invalid, and the route
// options { auth: true } / { permission } that guard plugin routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/sessions';
import { FIXTURE_PLUGINS, REPO_PLUGINS, cookieHeader, register, setCookies, startPanel, testDialects, type TestPanel } from './harness';

const INVALID = {
  success: false,
  error_code: 'INVALID_SESSION',
  message: 'Your session has expired or is invalid.',
  user_info: null,
  billing: null,
  stats: null,
  permissions: [],
};

describe.each(testDialects())('session API on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { pluginDirs: [REPO_PLUGINS, FIXTURE_PLUGINS] });
  });
  afterAll(async () => {
    await panel?.close();
  });

  const session = (cookie?: string) => panel.app.inject({ url: '/api/user/session', headers: cookie ? { cookie } : {} });
  const tokenOf = (cookie: string) => /op_session=([^;]+)/.exec(cookie)![1];
  const sessionRow = (cookie: string) => panel.services.database.db.selectFrom('sessions').where('token_hash', '=', hashToken(tokenOf(cookie)));

  it('answers the spec shape for a valid session, never cached', async () => {
    const { cookie, body } = await register(panel.app);
    const res = await session(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const json = res.json();
    expect(Object.keys(json)).toEqual(['success', 'error_code', 'user_info', 'billing', 'stats', 'permissions']);
    expect(json.success).toBe(true);
    expect(json.error_code).toBeNull();
    expect(json.user_info).toEqual({
      uuid: expect.any(String),
      username: body.username,
      email: body.email,
      first_name: 'Ada',
      last_name: 'Lovelace',
      avatar: null,
      background: null,
      role: 1,
      role_name: 'Default',
      verified: false,
      two_fa_enabled: false,
      two_fa_required: false,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(json.billing).toEqual({ coins: 0, ram: 1024, disk: 1024, cpu: 100, ports: 2, databases: 1, backups: 5, server_slots: 1 });
    expect(json.stats).toEqual({ servers: 0, minutes_afk: 0, referrals: 0, fx_notes_written: 0 });
    expect(json.permissions).toEqual([]);
  });

  it('reports under stats the counters plugins declare (plugin.json `stats`), as they publish them', async () => {
    const { cookie, body } = await register(panel.app);
    const user = await panel.services.database.db.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirstOrThrow();
    await panel.services.counters.add(user.id, 'servers', 2);
    await panel.services.counters.add(user.id, 'fx_notes_written', 5);
    // a counter nobody declared stays out of the session
    await panel.services.counters.add(user.id, 'links_completed', 3);
    expect((await session(cookie)).json().stats).toEqual({ servers: 2, minutes_afk: 0, referrals: 0, fx_notes_written: 5 });
    const declared = panel.services.plugins.list().flatMap((p) => p.manifest.stats ?? []);
    expect(declared).toEqual(expect.arrayContaining(['servers', 'referrals', 'fx_notes_written']));
  });

  it('gives roles 7 and 8 admin.root, and the role name of the role', async () => {
    for (const [role, name] of [
      [7, 'Admin'],
      [8, 'Administrator'],
      [2, 'VIP'],
    ] as const) {
      const { cookie, body } = await register(panel.app);
      await panel.services.database.db.updateTable('users').set({ role_id: role }).where('username', '=', body.username).execute();
      const json = (await session(cookie)).json();
      expect(json.user_info.role).toBe(role);
      expect(json.user_info.role_name).toBe(name);
      expect(json.permissions).toEqual(role >= 7 ? ['admin.root'] : []);
    }
  });

  it('reports coins held in a bigint column as a number', async () => {
    const { cookie, body } = await register(panel.app);
    await panel.services.database.db.updateTable('users').set({ coins: 9_007_199_254 }).where('username', '=', body.username).execute();
    expect((await session(cookie)).json().billing.coins).toBe(9_007_199_254);
  });

  it('answers 401 INVALID_SESSION without a cookie', async () => {
    const res = await session();
    expect(res.statusCode).toBe(401);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toEqual(INVALID);
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers 401 INVALID_SESSION for a malformed or unknown token and clears the cookies', async () => {
    for (const cookie of ['op_session=short', `op_session=${'A'.repeat(43)}`, 'user_token=abc']) {
      const res = await session(cookie);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(INVALID);
    }
    const cleared = setCookies(await session(`op_session=${'B'.repeat(43)}; user_token=x`));
    expect(cleared.op_session.attributes['max-age']).toBe('0');
    expect(cleared.user_token.attributes['max-age']).toBe('0');
  });

  it('does not accept the user_token marker in place of the session token', async () => {
    const { response } = await register(panel.app);
    const marker = setCookies(response).user_token.value;
    expect((await session(`user_token=${marker}`)).statusCode).toBe(401);
    expect((await session(`op_session=${marker}`)).statusCode).toBe(401);
  });

  it('answers 401 INVALID_SESSION for a revoked session', async () => {
    const { cookie } = await register(panel.app);
    await sessionRow(cookie).select('id').executeTakeFirstOrThrow();
    await panel.services.database.db
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('token_hash', '=', hashToken(tokenOf(cookie)))
      .execute();
    const res = await session(cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(INVALID);
  });

  it('answers 401 INVALID_SESSION for an expired session', async () => {
    const { cookie } = await register(panel.app);
    await panel.services.database.db
      .updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(tokenOf(cookie)))
      .execute();
    expect((await session(cookie)).json()).toEqual(INVALID);
  });

  it('sets the session lifetime from SESSION_TTL_DAYS', async () => {
    const { cookie } = await register(panel.app);
    const row = await sessionRow(cookie).select(['created_at', 'expires_at']).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(30 * 86_400_000);
  });

  it('answers 401 TW0_FA_BLOCKED (with a zero) for a session waiting for 2FA', async () => {
    const { cookie } = await register(panel.app);
    await panel.services.database.db
      .updateTable('sessions')
      .set({ two_fa_pending: 1 })
      .where('token_hash', '=', hashToken(tokenOf(cookie)))
      .execute();
    const res = await session(cookie);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ ...INVALID, error_code: 'TW0_FA_BLOCKED', message: 'Two-factor authentication is required to continue.' });
    // guarded plugin routes say the same
    const guarded = await panel.app.inject({ url: '/api/fx-notes/mine', headers: { cookie } });
    expect(guarded.statusCode).toBe(401);
    expect(guarded.json()).toEqual({ error: { code: 'TW0_FA_BLOCKED', message: 'Two-factor authentication is required to continue.' } });
  });

  it('answers 403 USER_BANNED for a banned user', async () => {
    const { cookie, body } = await register(panel.app);
    await panel.services.database.db.updateTable('users').set({ banned: 1 }).where('username', '=', body.username).execute();
    const res = await session(cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ ...INVALID, error_code: 'USER_BANNED', message: 'This account has been banned.' });
  });

  it('updates last_seen_at at most once a minute', async () => {
    const { cookie } = await register(panel.app);
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    await panel.services.database.db
      .updateTable('sessions')
      .set({ last_seen_at: old })
      .where('token_hash', '=', hashToken(tokenOf(cookie)))
      .execute();
    await session(cookie);
    const waitForTouch = async () => {
      for (let i = 0; i < 50; i++) {
        const row = await sessionRow(cookie).select('last_seen_at').executeTakeFirstOrThrow();
        if (row.last_seen_at !== old) return row.last_seen_at;
        await new Promise((r) => setTimeout(r, 10));
      }
      return old;
    };
    const touched = await waitForTouch();
    expect(Date.parse(touched)).toBeGreaterThan(Date.now() - 10_000);
    const recent = new Date(Date.now() - 30_000).toISOString();
    await panel.services.database.db
      .updateTable('sessions')
      .set({ last_seen_at: recent })
      .where('token_hash', '=', hashToken(tokenOf(cookie)))
      .execute();
    await session(cookie);
    await new Promise((r) => setTimeout(r, 50));
    expect((await sessionRow(cookie).select('last_seen_at').executeTakeFirstOrThrow()).last_seen_at).toBe(recent);
  });

  describe('route options', () => {
    it('{ auth: true } lets a signed-in user through and answers 401 INVALID_SESSION otherwise', async () => {
      const { cookie, body } = await register(panel.app);
      expect((await panel.app.inject({ url: '/api/fx-notes/mine', headers: { cookie } })).json()).toEqual({ username: body.username });
      const anon = await panel.app.inject({ url: '/api/fx-notes/mine' });
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toEqual({ error: { code: 'INVALID_SESSION', message: 'Your session has expired or is invalid.' } });
    });

    it('checks the session before the body', async () => {
      const res = await panel.app.inject({ method: 'POST', url: '/api/fx-notes', payload: '{bad json', headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(401);
    });

    it('{ permission } answers 403 PERMISSION_DENIED without it and lets admin.root pass', async () => {
      const user = await register(panel.app);
      const denied = await panel.app.inject({ url: '/api/fx-notes/admin', headers: { cookie: user.cookie } });
      expect(denied.statusCode).toBe(403);
      expect(denied.json()).toEqual({ error: { code: 'PERMISSION_DENIED', message: 'You do not have permission to access this resource.' } });
      expect((await panel.app.inject({ url: '/api/fx-notes/admin' })).statusCode).toBe(401);

      const admin = await register(panel.app);
      await panel.services.database.db.updateTable('users').set({ role_id: 8 }).where('username', '=', admin.body.username).execute();
      expect((await panel.app.inject({ url: '/api/fx-notes/admin', headers: { cookie: admin.cookie } })).json()).toEqual({ ok: true });

      // a role granted exactly that permission passes too, once the role cache reloads
      await panel.services.database.db.insertInto('role_permissions').values({ role_id: 3, permission: 'admin.fx.view' }).execute();
      await panel.services.roles.invalidate();
      const support = await register(panel.app);
      await panel.services.database.db.updateTable('users').set({ role_id: 3 }).where('username', '=', support.body.username).execute();
      expect((await panel.app.inject({ url: '/api/fx-notes/admin', headers: { cookie: support.cookie } })).statusCode).toBe(200);
    });

    it('answers 403 USER_BANNED on guarded routes for a banned user', async () => {
      const { cookie, body } = await register(panel.app);
      await panel.services.database.db.updateTable('users').set({ banned: 1 }).where('username', '=', body.username).execute();
      const res = await panel.app.inject({ url: '/api/fx-notes/mine', headers: { cookie } });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('USER_BANNED');
    });
  });

  it('marks cookies Secure behind a trusted https proxy', async () => {
    const proxied = await startPanel(dialect, { env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/api/user/auth/register',
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
        payload: { first_name: 'A', last_name: 'B', email: 'secure@example.com', username: 'secure_user', password: 'long enough pw' },
      });
      expect(res.statusCode).toBe(201);
      const cookies = setCookies(res);
      expect(cookies.op_session.attributes.secure).toBe(true);
      expect(cookies.user_token.attributes.secure).toBe(true);
      const row = await proxied.services.database.db.selectFrom('sessions').select('ip').executeTakeFirstOrThrow();
      expect(row.ip).toBe('203.0.113.9');
      expect((await proxied.app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(res) } })).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});
