// ctx.pterodactyl inside the panel, on every dialect, against the panel stand-in: accountFor links
// our user to the panel user with their e-mail or creates one (once, however many calls race), the
// panel password follows ours when it changes (best effort: a panel that is down never blocks the
// change, and the password is neither stored nor logged), the settings (the key write-only and
// sealed), the "Test connection" route and the health page's panel check.
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CoreDatabase } from '../../sdk/server';
import { isPanelError } from '../../sdk/pterodactyl';
import type { PanelAccountsTable } from '../../server/pterodactyl/panel-accounts';
import { startPterodactylPanel, type PterodactylStandIn } from '../fixtures/pterodactyl-panel';
import { PASSWORD, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

describe.each(testDialects())('pterodactyl accounts, password and admin on %s', (dialect) => {
  let panel: TestPanel;
  let standIn: PterodactylStandIn;
  let admin: SignedInUser;

  beforeAll(async () => {
    standIn = await startPterodactylPanel();
    standIn.seedSample();
    panel = await startPanel(dialect, { jobs: false, panel: { timeoutMs: 300, backoffBaseMs: 1, retries: 1 } });
    admin = await userWithRole(panel, 8);
    await configure(standIn.url, standIn.apiKey);
  });
  afterAll(async () => {
    await panel?.close();
    await standIn?.close();
  });
  afterEach(() => standIn.clearFaults());

  const ptero = () => panel.services.pterodactyl;
  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & { panel_accounts: PanelAccountsTable }>;
  const links = (userId: number) => db().selectFrom('panel_accounts').selectAll().where('user_id', '=', userId).execute();
  async function configure(url: string, key: string) {
    await panel.services.settings.set('pterodactyl_base_url', url);
    await panel.services.settings.set('pterodactyl_api_key', key);
  }
  const panelUsersWith = (email: string) => standIn.users().filter((u) => u.email.toLowerCase() === email.toLowerCase());

  describe('accountFor', () => {
    it('links the panel user that has the same e-mail, then reuses the link', async () => {
      const user = await userWithRole(panel, 1);
      const existing = standIn.addUser({ email: user.email.toUpperCase(), username: `pre${user.id}x` });
      const found = await ptero().panel.accountFor(user.id);
      expect(found.id).toBe(existing.id);
      expect(await links(user.id)).toMatchObject([{ panel_user_id: existing.id }]);
      const posts = standIn.requests.filter((r) => r.method === 'POST' && r.path === '/users').length;
      expect((await ptero().panel.accountFor(user.id)).id).toBe(existing.id);
      expect(standIn.requests.at(-1)).toMatchObject({ method: 'GET', path: `/users/${existing.id}` });
      expect(standIn.requests.filter((r) => r.method === 'POST' && r.path === '/users').length).toBe(posts);
    });

    it('creates one panel user without a password however many calls race, with our external id', async () => {
      const user = await userWithRole(panel, 1);
      const results = await Promise.all(Array.from({ length: 6 }, () => ptero().panel.accountFor(user.id)));
      expect(new Set(results.map((r) => r.id)).size).toBe(1);
      const created = panelUsersWith(user.email);
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ external_id: `orepanel-${user.uuid}`, username: user.username.toLowerCase(), first_name: 'Ada', password: null });
      expect(await links(user.id)).toHaveLength(1);
    });

    it('two instances racing (no shared in-process state) still make one panel user', async () => {
      const user = await userWithRole(panel, 1);
      // the second "instance": the same database and panel, another client
      const { createPterodactyl } = await import('../../server/pterodactyl');
      const other = createPterodactyl({ db: panel.services.database.db, settings: panel.services.settings, audit: panel.services.audit, log: panel.app.log });
      const [a, b] = await Promise.all([ptero().panel.accountFor(user.id), other.panel.accountFor(user.id)]);
      expect(a.id).toBe(b.id);
      expect(panelUsersWith(user.email)).toHaveLength(1);
    });

    it('a username taken on the panel gets a suffix; a rule-breaking one is made to fit', async () => {
      const user = await userWithRole(panel, 1);
      standIn.addUser({ email: `someone-${user.id}@elsewhere.test`, username: user.username.toLowerCase() });
      const account = await ptero().panel.accountFor(user.id);
      expect(account.username).toMatch(new RegExp(`^${user.username.toLowerCase()}-[0-9a-f]{6}$`));
      const { panelUsernameFor } = await import('../../server/pterodactyl');
      expect(panelUsernameFor('_Ada.')).toBe('ada');
      expect(panelUsernameFor('A_')).toBe('usera');
      expect(panelUsernameFor('__Mr.Bob-__')).toBe('mr.bob');
      expect(/^[a-z0-9]([\w.-]+)[a-z0-9]$/.test(panelUsernameFor('x'))).toBe(true);
    });

    it('a linked panel user deleted on the panel is found or made again', async () => {
      const user = await userWithRole(panel, 1);
      const first = await ptero().panel.accountFor(user.id);
      await ptero().panel.users.delete(first.id);
      const second = await ptero().panel.accountFor(user.id);
      expect(second.id).not.toBe(first.id);
      expect(await links(user.id)).toMatchObject([{ panel_user_id: second.id }]);
    });

    it('a lost answer to the creation is reconciled by external id, not created twice', async () => {
      const user = await userWithRole(panel, 1);
      standIn.fault({ method: 'POST', path: '/users', kind: 'timeout-after-effect' });
      const account = await ptero().panel.accountFor(user.id);
      expect(account.external_id).toBe(`orepanel-${user.uuid}`);
      expect(panelUsersWith(user.email)).toHaveLength(1);
    });
  });

  describe('the panel password follows ours', () => {
    const change = (who: SignedInUser, from: string, to: string) =>
      panel.app.inject({ method: 'POST', url: '/api/user/session/password/change', headers: { cookie: who.cookie }, payload: { current_password: from, new_password: to } });

    it('is sent to the linked panel user when the password changes', async () => {
      const user = await userWithRole(panel, 1);
      const account = await ptero().panel.accountFor(user.id);
      const response = await change(user, PASSWORD, 'panel-follows-1');
      expect(response.statusCode, response.body).toBe(200);
      await ptero().accounts.passwordSyncsSettled();
      expect(standIn.users().find((u) => u.id === account.id)?.password).toBe('panel-follows-1');
      const entry = await db()
        .selectFrom('audit_log')
        .select(['action', 'details'])
        .where('target_user_id', '=', user.id)
        .where('action', 'like', 'pterodactyl.%')
        .executeTakeFirstOrThrow();
      expect(entry.action).toBe('pterodactyl.password_synced');
      expect(entry.details).not.toContain('panel-follows-1');
    });

    it('also on a reset (ctx.auth.setPassword), and nothing is sent for a user without a panel account', async () => {
      const linked = await userWithRole(panel, 1);
      const account = await ptero().panel.accountFor(linked.id);
      const unlinked = await userWithRole(panel, 1);
      const before = standIn.requests.length;
      await panel.services.auth.setPassword(linked.id, 'reset-password-2');
      await panel.services.auth.setPassword(unlinked.id, 'reset-password-3');
      await ptero().accounts.passwordSyncsSettled();
      expect(standIn.users().find((u) => u.id === account.id)?.password).toBe('reset-password-2');
      expect(standIn.requests.slice(before).filter((r) => r.method === 'PATCH')).toHaveLength(1);
      expect(panelUsersWith(unlinked.email)).toHaveLength(0);
    });

    it('a panel that fails never blocks the change; the failure is audited without the password', async () => {
      const user = await userWithRole(panel, 1);
      const account = await ptero().panel.accountFor(user.id);
      standIn.fault({ method: 'PATCH', path: `/users/${account.id}`, kind: 'error', status: 503, times: 5 });
      const response = await change(user, PASSWORD, 'still-changed-4');
      expect(response.statusCode, response.body).toBe(200);
      await ptero().accounts.passwordSyncsSettled();
      expect(await panel.services.accounts.checkPassword(user.id, 'still-changed-4')).toBe(true);
      expect(standIn.users().find((u) => u.id === account.id)?.password).toBeNull();
      const entry = await db()
        .selectFrom('audit_log')
        .select(['details'])
        .where('target_user_id', '=', user.id)
        .where('action', '=', 'pterodactyl.password_sync_failed')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(entry.details)).toMatchObject({ code: 'PANEL_ERROR', panel_user_id: account.id });
      expect(entry.details).not.toContain('still-changed-4');
    });
  });

  describe('settings, test connection and health', () => {
    const test = (who: SignedInUser = admin) => panel.app.inject({ method: 'POST', url: '/api/admin/pterodactyl/test', headers: { cookie: who.cookie }, payload: {} });
    const health = async () => {
      const response = await panel.app.inject({ method: 'GET', url: '/api/admin/health', headers: { cookie: admin.cookie } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ panel: { configured: boolean; ok: boolean | null; latency_ms: number | null; code: string | null } }>().panel;
    };

    it('the key is write-only in the admin settings and sealed in the database', async () => {
      const response = await panel.app.inject({ method: 'GET', url: '/api/admin/settings', headers: { cookie: admin.cookie } });
      const group = response.json<{ groups: { id: string; settings: { key: string; value: unknown; secret: boolean }[] }[] }>().groups.find((g) => g.id === 'pterodactyl');
      expect(group?.settings.map((s) => s.key)).toEqual(['pterodactyl_base_url', 'pterodactyl_api_key']);
      expect(group?.settings[1]).toMatchObject({ secret: true, value: { set: true } });
      expect(response.body).not.toContain(standIn.apiKey);
      const row = await db().selectFrom('settings').select('value').where('key', '=', 'pterodactyl_api_key').executeTakeFirstOrThrow();
      expect(row.value).not.toContain(standIn.apiKey);
      const pub = await panel.app.inject({ method: 'GET', url: '/api/system/settings' });
      expect(pub.body).not.toContain('pterodactyl_');
    });

    it('good key → ok with the latency and what the panel holds; health says reachable', async () => {
      const response = await test();
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ ok: true, locations: standIn.locations().length, nodes: 3, latency_ms: expect.any(Number) });
      expect(await health()).toMatchObject({ configured: true, ok: true, code: null, latency_ms: expect.any(Number) });
    });

    it('wrong key → 502 PANEL_AUTH with the panel’s message; health says why', async () => {
      await configure(standIn.url, 'ptla_not-the-key');
      try {
        const response = await test();
        expect(response.statusCode).toBe(502);
        expect(response.json()).toEqual({ error: { code: 'PANEL_AUTH', message: 'Unauthenticated.' } });
        expect(await health()).toMatchObject({ configured: true, ok: false, code: 'PANEL_AUTH' });
      } finally {
        await configure(standIn.url, standIn.apiKey);
      }
    });

    it('panel down → 502 PANEL_UNREACHABLE; not configured → 400 PANEL_NOT_CONFIGURED', async () => {
      const down = await startPterodactylPanel();
      const url = down.url;
      await down.close();
      await configure(url, standIn.apiKey);
      try {
        const response = await test();
        expect(response.statusCode).toBe(502);
        expect(response.json().error.code).toBe('PANEL_UNREACHABLE');
        await configure('', standIn.apiKey);
        const unset = await test();
        expect(unset.statusCode).toBe(400);
        expect(unset.json().error.code).toBe('PANEL_NOT_CONFIGURED');
        expect(await health()).toEqual({ configured: false, ok: null, latency_ms: null, code: null, message: null });
        expect(await ptero().panel.serverUrl('abcd1234')).toBeNull();
        const error = await ptero()
          .panel.accountFor(admin.id)
          .catch((e: unknown) => e);
        expect(isPanelError(error) && error.code).toBe('PANEL_NOT_CONFIGURED');
      } finally {
        await configure(standIn.url, standIn.apiKey);
      }
    });

    it('a trailing slash or /api/application in the address is tolerated; the link uses the bare address', async () => {
      await configure(`${standIn.url}/api/application/`, standIn.apiKey);
      try {
        expect((await test()).statusCode).toBe(200);
        expect(await ptero().panel.serverUrl('abcd1234')).toBe(`${standIn.url}/server/abcd1234`);
      } finally {
        await configure(standIn.url, standIn.apiKey);
      }
    });

    it('needs admin.settings.view', async () => {
      const plain = await userWithRole(panel, 1);
      expect((await test(plain)).statusCode).toBe(403);
      const role = await roleWith(panel, ['admin.settings.view']);
      const viewer = await userWithRole(panel, role);
      expect((await test(viewer)).statusCode).toBe(200);
    });
  });
});
