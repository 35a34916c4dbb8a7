// The audit log: security events (register, login, failed login, banned login, logout) and admin
// actions, read by the user (GET /api/user/session/activities) and by administrators
// (GET /api/admin/users/:uuid/activity).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, cookieHeader, register, startPanel, testDialects, userWithRole, type TestPanel } from './harness';

describe.each(testDialects())('audit log on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const activities = (cookie: string, query = '') => panel.app.inject({ url: `/api/user/session/activities${query}`, headers: { cookie } });
  const login = (name: string, password: string) =>
    panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: name, password }, remoteAddress: '198.51.100.23' });

  it('records registration, failed and successful logins and logout, and shows the user their own', async () => {
    const { body, cookie } = await register(panel.app);
    expect((await login(body.username, 'wrong password')).statusCode).toBe(401);
    const ok = await login(body.email, PASSWORD);
    const fresh = cookieHeader(ok);
    expect((await panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', headers: { cookie } })).statusCode).toBe(200);

    const res = await activities(fresh);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const { data, meta } = res.json();
    expect(data.map((e: { action: string }) => e.action)).toEqual(['auth.logout', 'auth.login', 'auth.login_failed', 'auth.register']);
    expect(data[1]).toMatchObject({ by: 'self', ip: '198.51.100.23', details: { two_fa_pending: false }, created_at: expect.stringMatching(/Z$/) });
    expect(data[2]).toMatchObject({ by: 'anonymous', ip: '198.51.100.23' });
    expect(meta).toEqual({ page: 1, per_page: 20, total: 4, total_pages: 1 });
    expect((await activities(fresh, '?page=2&per_page=3')).json().data.map((e: { action: string }) => e.action)).toEqual(['auth.register']);
  });

  it('does not store login names that match no account, nor show one user another’s events', async () => {
    await login('typed-my-password-here', 'x');
    const row = await panel.services.database.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: 'auth.login_failed', actor_user_id: null, target_user_id: null });
    expect(JSON.stringify(row)).not.toContain('typed-my-password-here');
    const other = await register(panel.app);
    expect((await activities(other.cookie)).json().data.map((e: { action: string }) => e.action)).toEqual(['auth.register']);
  });

  it('records a refused banned login and shows admin actions as by an administrator', async () => {
    const admin = await userWithRole(panel, 8);
    const user = await userWithRole(panel, 1);
    await panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.uuid}`, payload: { ram: 5000 }, headers: { cookie: admin.cookie } });
    const mine = (await activities(user.cookie)).json().data;
    expect(mine[0]).toMatchObject({ action: 'admin.user.update', by: 'administrator', details: { ram: 5000 } });
    expect(JSON.stringify(mine[0])).not.toContain(admin.username);

    await panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${user.uuid}`, payload: { banned: true, ban_reason: 'spam' }, headers: { cookie: admin.cookie } });
    expect((await login(user.username, PASSWORD)).statusCode).toBe(403);
    const seen = (await panel.app.inject({ url: `/api/admin/users/${user.uuid}/activity`, headers: { cookie: admin.cookie } })).json().data;
    expect(seen.map((e: { action: string }) => e.action).slice(0, 3)).toEqual(['auth.login_banned', 'admin.user.ban', 'admin.user.update']);
    expect(seen[1].actor).toEqual({ uuid: admin.uuid, username: admin.username });
  });

  it('answers 401 without a session and 400 for bad paging', async () => {
    expect((await panel.app.inject({ url: '/api/user/session/activities' })).statusCode).toBe(401);
    const { cookie } = await register(panel.app);
    for (const q of ['?page=0', '?per_page=500', '?page=x']) {
      const res = await activities(cookie, q);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});
