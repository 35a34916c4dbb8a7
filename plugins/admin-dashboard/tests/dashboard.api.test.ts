// /api/admin/dashboard/* (issue 3, /mc-admin): each component's data, real and read on the request —
// the system overview's counts, the updates (running version, pending and unknown migrations, refused
// plugins), the security warnings of the audit log, sign-ups and logins per day, the support PIN
// lookup and the latest activity — each behind its own component permission.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PLUGINS, PASSWORD, REPO_PLUGINS, ROOT, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { analytics } from '../server/analytics';

const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const DAY_MS = 86_400_000;
/** where the core records its applied migrations (server/db/migrate.ts) */
const CORE_MIGRATION_TABLE = 'op_migrations_core';

interface AuditEntry {
  id: number;
  action: string;
  actor: { uuid: string; username: string } | null;
  target: { uuid: string; username: string } | null;
  details: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

describe.each(testDialects())('admin dashboard API on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false, pluginDirs: [REPO_PLUGINS, FIXTURE_PLUGINS] });
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const get = async <T>(url: string, who: SignedInUser = root): Promise<T> => {
    const response = await panel.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    return response.json<T>();
  };
  const db = () => panel.services.database.db;
  const audit = (action: string, createdAt: Date, actor: number | null = null, target: number | null = null) =>
    db().insertInto('audit_log').values({ action, actor_user_id: actor, target_user_id: target, details: '{}', ip: null, created_at: createdAt.toISOString() }).execute();

  it('overview: counts the accounts, sessions, roles and plugins as they are', async () => {
    const banned = await userWithRole(panel, 1);
    await db().updateTable('users').set({ banned: 1 }).where('id', '=', banned.id).execute();
    const answer = await get<{
      version: string;
      dialect: string;
      node_version: string;
      accounts: { total: number; banned: number; unverified: number; two_fa: number; active_sessions: number };
      roles: number;
      plugins: { installed: number; enabled: number; refused: number };
    }>('/api/admin/dashboard/overview');
    const users = await db().selectFrom('users').select(['banned', 'verified', 'two_fa_enabled']).execute();
    const liveSessions = await db().selectFrom('sessions').select('id').where('revoked_at', 'is', null).where('expires_at', '>', new Date().toISOString()).execute();
    expect(answer.version).toBe(VERSION);
    expect(answer.dialect).toBe(dialect);
    expect(answer.node_version).toBe(process.version);
    expect(answer.accounts).toEqual({
      total: users.length,
      banned: users.filter((u) => u.banned === 1).length,
      unverified: users.filter((u) => u.verified !== 1).length,
      two_fa: users.filter((u) => u.two_fa_enabled === 1).length,
      active_sessions: liveSessions.length,
    });
    expect(answer.accounts.banned).toBe(1);
    expect(answer.roles).toBe((await db().selectFrom('roles').select('id').execute()).length);
    const { plugins } = panel.services;
    expect(answer.plugins).toEqual({
      installed: plugins.list().length + plugins.refused.length,
      enabled: plugins.list().filter((p) => plugins.isActive(p.manifest.id)).length,
      refused: plugins.refused.length,
    });
    expect(answer.plugins.refused).toBeGreaterThan(0); // the fixtures hold refused plugins
  });

  it('updates: the running version, every migration set applied, and the refused plugins with why', async () => {
    type Updates = {
      version: string;
      pending: number;
      migrations: { owner: string; applied: number; pending: string[]; unknown: string[]; latest: { name: string; applied_at: string } | null }[];
      refused: { id: string; reason: string }[];
    };
    const answer = await get<Updates>('/api/admin/dashboard/updates');
    expect(answer.version).toBe(VERSION);
    expect(answer.pending).toBe(0);
    const core = answer.migrations.find((m) => m.owner === 'core')!;
    expect(core.pending).toEqual([]);
    expect(core.unknown).toEqual([]);
    // what the database recorded; nothing is pending, so every shipped migration is among them
    const recorded = (await db().withTables<Record<string, { name: string }>>().selectFrom(CORE_MIGRATION_TABLE).select('name').execute()).map((r) => r.name).sort();
    expect(core.latest?.name).toBe(recorded.at(-1));
    expect(core.applied).toBe(recorded.length);
    expect(recorded).toContain('0007_audit_log_action_index');
    expect(answer.migrations.find((m) => m.owner === 'fx-notes')).toMatchObject({ applied: 1, pending: [], latest: { name: '0001_notes' } });
    expect(answer.refused).toContainEqual({ id: 'fx-new-sdk', reason: expect.stringContaining('sdk') });

    // a migration the database lacks is pending; one this code does not ship is unknown (a newer
    // instance shares the database)
    const table = db().withTables<Record<string, { name: string; timestamp: string }>>();
    const removed = await table.selectFrom(CORE_MIGRATION_TABLE).selectAll().where('name', '=', '0007_audit_log_action_index').executeTakeFirstOrThrow();
    await table.deleteFrom(CORE_MIGRATION_TABLE).where('name', '=', removed.name).execute();
    await table.insertInto(CORE_MIGRATION_TABLE).values({ name: '9999_from_the_future', timestamp: new Date().toISOString() }).execute();
    try {
      const changed = await get<Updates>('/api/admin/dashboard/updates');
      expect(changed.pending).toBe(1);
      expect(changed.migrations.find((m) => m.owner === 'core')).toMatchObject({ pending: ['0007_audit_log_action_index'], unknown: ['9999_from_the_future'] });
    } finally {
      await table.deleteFrom(CORE_MIGRATION_TABLE).where('name', '=', '9999_from_the_future').execute();
      await table.insertInto(CORE_MIGRATION_TABLE).values(removed).execute();
    }
  });

  it('logs: failures and refusals of the audit log, newest first, with the last day’s counts', async () => {
    const victim = await userWithRole(panel, 1);
    for (let i = 0; i < 2; i++) {
      const response = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: victim.username, password: `${PASSWORD}-wrong` } });
      expect(response.statusCode).toBe(401);
    }
    const ok = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: victim.username, password: PASSWORD } });
    expect(ok.statusCode, ok.body).toBe(200);
    // '_' in the suffix matches itself only; a warning older than a day is listed but not counted
    await audit('auth.loginXfailed', new Date());
    await audit('account.delete_failed', new Date(Date.now() - 2 * DAY_MS), victim.id, victim.id);

    const answer = await get<{ data: AuditEntry[]; last_24h: { action: string; count: number }[] }>('/api/admin/dashboard/logs');
    const actions = answer.data.map((e) => e.action);
    expect(actions).not.toContain('auth.login');
    expect(actions).not.toContain('auth.loginXfailed');
    expect(actions).toContain('account.delete_failed');
    const failed = answer.data.filter((e) => e.action === 'auth.login_failed' && e.target?.uuid === victim.uuid);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({ actor: null, target: { uuid: victim.uuid, username: victim.username } });
    expect(answer.data.map((e) => e.id)).toEqual([...answer.data.map((e) => e.id)].sort((a, b) => b - a));
    expect(answer.last_24h.find((c) => c.action === 'auth.login_failed')?.count).toBeGreaterThanOrEqual(2);
    expect(answer.last_24h.map((c) => c.action)).not.toContain('account.delete_failed');
    expect(answer.last_24h.map((c) => c.action)).not.toContain('auth.loginXfailed');
  });

  it('analytics: sign-ups and logins per UTC day, zero-filled, over 14 or 30 days', async () => {
    const now = new Date();
    const today = now.toISOString().slice(0, 10);
    const threeDaysAgo = new Date(now.getTime() - 3 * DAY_MS);
    const longAgo = new Date(now.getTime() - 40 * DAY_MS);
    const user = await userWithRole(panel, 1);
    await db().updateTable('users').set({ created_at: threeDaysAgo.toISOString() }).where('id', '=', user.id).execute();
    const ancient = await userWithRole(panel, 1);
    await db().updateTable('users').set({ created_at: longAgo.toISOString() }).where('id', '=', ancient.id).execute();
    await audit('auth.login', threeDaysAgo, user.id, user.id);
    await audit('auth.login', threeDaysAgo, user.id, user.id);
    await audit('auth.login', longAgo, ancient.id, ancient.id);

    // the figures the endpoint must match, counted here from the rows
    const users = await db().selectFrom('users').select('created_at').execute();
    const logins = await db().selectFrom('audit_log').select(['created_at', 'actor_user_id']).where('action', '=', 'auth.login').execute();
    const perDay = (rows: { created_at: string }[], date: string) => rows.filter((r) => r.created_at.slice(0, 10) === date).length;

    type Answer = {
      days: number;
      series: { date: string; signups: number; logins: number }[];
      totals: { signups: number; logins: number; active_users: number; accounts: number };
    };
    const fortnight = await get<Answer>('/api/admin/dashboard/analytics');
    expect(fortnight.days).toBe(14);
    expect(fortnight.series).toHaveLength(14);
    expect(fortnight.series.at(-1)?.date).toBe(today);
    for (const point of fortnight.series) expect(point, point.date).toEqual({ date: point.date, signups: perDay(users, point.date), logins: perDay(logins, point.date) });
    const third = fortnight.series.find((p) => p.date === threeDaysAgo.toISOString().slice(0, 10))!;
    expect(third.signups).toBeGreaterThanOrEqual(1);
    expect(third.logins).toBe(2);
    const from = `${fortnight.series[0].date}T00:00:00.000Z`;
    expect(fortnight.totals).toEqual({
      signups: users.filter((u) => u.created_at >= from).length,
      logins: logins.filter((l) => l.created_at >= from).length,
      active_users: new Set(logins.filter((l) => l.created_at >= from).map((l) => l.actor_user_id)).size,
      accounts: users.length,
    });
    // 40 days ago is outside both periods
    const month = await get<Answer>('/api/admin/dashboard/analytics?days=30');
    expect(month.series).toHaveLength(30);
    expect(month.totals.signups).toBe(users.filter((u) => u.created_at >= `${month.series[0].date}T00:00:00.000Z`).length);
    expect(month.totals.signups).toBe(users.length - 1);

    for (const bad of ['7', '0', 'x', '365']) {
      const response = await panel.app.inject({ method: 'GET', url: `/api/admin/dashboard/analytics?days=${bad}`, headers: { cookie: root.cookie } });
      expect(response.statusCode, bad).toBe(400);
    }
  });

  it('analytics: the days are UTC days ending today, oldest first', async () => {
    // the series is made of the days alone: figures that name no day leave it whole
    const none = {
      accountStats: { createdPerDay: async () => [], counts: async () => ({ total: 0, banned: 0, unverified: 0, two_fa: 0, active_sessions: 0 }) },
      audit: { countPerDay: async () => [], distinctActors: async () => 0 },
    };
    const answer = await analytics(none, 14, new Date('2026-03-01T23:59:00.000Z'));
    expect(answer.series.map((p) => p.date).slice(0, 2)).toEqual(['2026-02-16', '2026-02-17']);
    expect(answer.series.at(-1)?.date).toBe('2026-03-01');
  });

  it('support: finds the accounts holding a support PIN, and nothing for an unknown one', async () => {
    const holder = await userWithRole(panel, 2);
    await db().updateTable('users').set({ support_pin: '424242' }).where('id', '=', holder.id).execute();
    const found = await get<{ users: { uuid: string; username: string; role: number; role_name: string; banned: boolean }[] }>('/api/admin/dashboard/support/pins/424242');
    expect(found.users).toEqual([expect.objectContaining({ uuid: holder.uuid, username: holder.username, email: holder.email, role: 2, role_name: 'VIP', banned: false })]);
    expect((await get<{ users: unknown[] }>('/api/admin/dashboard/support/pins/000001')).users).toEqual([]);
    for (const bad of ['12345', '1234567', 'abcdef', '12345%25']) {
      const response = await panel.app.inject({ method: 'GET', url: `/api/admin/dashboard/support/pins/${bad}`, headers: { cookie: root.cookie } });
      expect(response.statusCode, bad).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it('activity: the latest audit entries of every account, newest first, with who did what to whom', async () => {
    const target = await userWithRole(panel, 1);
    const response = await panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${target.uuid}`, headers: { cookie: root.cookie }, payload: { first_name: 'Grace' } });
    expect(response.statusCode, response.body).toBe(200);
    const answer = await get<{ data: AuditEntry[] }>('/api/admin/dashboard/activity?limit=3');
    expect(answer.data).toHaveLength(3);
    const newest = await db().selectFrom('audit_log').select(['id', 'action']).orderBy('id', 'desc').limit(3).execute();
    expect(answer.data.map((e) => [e.id, e.action])).toEqual(newest.map((r) => [r.id, r.action]));
    const edit = answer.data.find((e) => e.target?.uuid === target.uuid && e.actor?.uuid === root.uuid);
    expect(edit).toBeTruthy();
    expect((await get<{ data: AuditEntry[] }>('/api/admin/dashboard/activity')).data.length).toBeLessThanOrEqual(15);
    for (const bad of ['0', '51', 'many']) {
      const refused = await panel.app.inject({ method: 'GET', url: `/api/admin/dashboard/activity?limit=${bad}`, headers: { cookie: root.cookie } });
      expect(refused.statusCode, bad).toBe(400);
    }
  });

  it('answers 404 on every component at once while the plugin is switched off, and serves them again when it is back', async () => {
    const toggle = (action: 'disable' | 'enable') => panel.app.inject({ method: 'POST', url: `/api/admin/plugins/admin-dashboard/${action}`, headers: { cookie: root.cookie } });
    const components = ['overview', 'updates', 'logs', 'analytics', 'support/pins/123456', 'activity'];
    expect((await toggle('disable')).statusCode).toBe(200);
    try {
      for (const component of components) {
        const off = await panel.app.inject({ method: 'GET', url: `/api/admin/dashboard/${component}`, headers: { cookie: root.cookie } });
        expect(off.statusCode, component).toBe(404);
      }
    } finally {
      expect((await toggle('enable')).statusCode).toBe(200);
    }
    for (const component of components) await get(`/api/admin/dashboard/${component}`);
  });

  it('gives each component’s data only to its own permission', async () => {
    const staff = await userWithRole(panel, 4);
    const role = await roleWith(panel, ['admin.dashboard.view', 'admin.dashboard.components.system.overview']);
    await db().updateTable('users').set({ role_id: role }).where('id', '=', staff.id).execute();
    const status = async (path: string) => (await panel.app.inject({ method: 'GET', url: `/api/admin/dashboard/${path}`, headers: { cookie: staff.cookie } })).statusCode;
    expect(await status('overview')).toBe(200);
    for (const path of ['updates', 'logs', 'analytics', 'support/pins/123456', 'activity']) expect(await status(path), path).toBe(403);
  });
});
