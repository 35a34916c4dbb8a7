// The server plugin host: refusals with readable reasons (the host keeps serving), disable/enable
// without a restart, requirements, route ownership, third-party plugins and per-plugin migrations.
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { isServerPlugin, defineServerPlugin } from '../../sdk/server';
import { routeProblem } from '../../server/plugins/host';
import { pluginMigrationTable } from '../../server/db/migrate';
import type { FastifyInstance } from 'fastify';
import { buildApp, servicesOf } from '../../server/app';
import { loadConfig } from '../../server/config';
import { FIXTURE_PLUGINS, REPO_PLUGINS, ROOT, register, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const THIRD_PARTY = join(ROOT, 'tests', 'fixtures', 'third-party', 'fx-third');

describe('defineServerPlugin', () => {
  it('returns a frozen, branded object with the plugin API version', () => {
    const plugin = defineServerPlugin({ id: 'sample', register() {} });
    expect(plugin.$$type).toBe('@orepanel/server-plugin');
    expect(plugin.apiVersion).toBe(2);
    expect(Object.isFrozen(plugin)).toBe(true);
    expect(isServerPlugin(plugin)).toBe(true);
    expect(isServerPlugin({ id: 'sample', register() {} })).toBe(false);
  });

  it('refuses a bad id, a missing register and a migration without up()', () => {
    expect(() => defineServerPlugin({ id: 'Bad Id', register() {} })).toThrow(/not a valid plugin id/);
    expect(() => defineServerPlugin({ id: 'ok-id' } as never)).toThrow(/register must be a function/);
    expect(() => defineServerPlugin({ id: 'ok-id', migrations: { '1': {} as never }, register() {} })).toThrow(/has no up\(\)/);
  });
});

describe('routeProblem', () => {
  it('keeps first-party plugins out of the core routes and third-party ones inside their prefix', () => {
    expect(routeProblem({ id: 'x', origin: 'bundled' }, '/api/user/auth/login')).toBeNull();
    expect(routeProblem({ id: 'x', origin: 'bundled' }, '/api/system/settings')).toMatch(/reserved for the core/);
    expect(routeProblem({ id: 'x', origin: 'bundled' }, '/api/user/session')).toMatch(/reserved/);
    expect(routeProblem({ id: 'x', origin: 'bundled' }, '/api/plugins/other/a')).toMatch(/reserved/);
    expect(routeProblem({ id: 'x', origin: 'third-party' }, '/api/plugins/x/a')).toBeNull();
    expect(routeProblem({ id: 'x', origin: 'third-party' }, '/api/plugins/xy/a')).toMatch(/only add routes under \/api\/plugins\/x\//);
  });
});

describe.each(testDialects())('plugin host on %s', (dialect) => {
  let panel: TestPanel;

  beforeAll(async () => {
    panel = await startPanel(dialect, {
      pluginDirs: [REPO_PLUGINS, FIXTURE_PLUGINS],
      prepareDataDir: (dataDir) => {
        cpSync(THIRD_PARTY, join(dataDir, 'plugins', 'fx-third'), { recursive: true });
        writeFileSync(
          join(dataDir, 'plugins.json'),
          JSON.stringify({ auth: { entry: '/plugins/auth/auth-Qw12Er34.js', integrity: 'sha384-abc', localeFiles: { en: '/plugins/auth/locales/en-Aa11Bb22.json' } } }),
        );
      },
    });
  });
  afterAll(async () => {
    await panel?.close();
  });

  const reasonOf = (id: string) => panel.services.plugins.refused.find((r) => r.id === id)?.reason;
  const served = async () =>
    (await panel.app.inject({ url: '/api/system/plugins' })).json() as { id: string; entry?: string; integrity?: string; localeFiles?: Record<string, string> }[];

  it('refuses broken plugins with a readable reason and keeps the others', () => {
    expect(reasonOf('fx-new-sdk')).toBe('it needs sdk ^3.0.0 but this panel provides sdk 2.0.0 (plugin API v2)');
    expect(reasonOf('fx-needs-missing')).toBe('it requires plugin "fx-absent", which is not installed or not enabled');
    expect(reasonOf('fx-invalid')).toMatch(/^its plugin.json is invalid: .*name.*colour/);
    expect(reasonOf('fx-throws')).toBe('its register() failed: fx-throws could not reach its licence server');
    expect(reasonOf('fx-unbranded')).toMatch(/does not default-export defineServerPlugin/);
    expect(reasonOf('fx-bad-route')).toMatch(/\/api\/system\/takeover is reserved for the core/);
    expect(reasonOf('fx-bad-policy')).toBe('its rate-limit policy "fx.guess" names "rate_limit_login_per_account", which is not a number setting of its plugin.json');
    const loaded = panel.services.plugins.list().map((p) => p.manifest.id);
    expect(loaded).toEqual(expect.arrayContaining(['auth', 'legal', 'dashboard', 'errors', 'fx-notes', 'fx-dependent', 'fx-off', 'fx-third']));
    for (const id of ['fx-new-sdk', 'fx-needs-missing', 'fx-invalid', 'fx-throws', 'fx-unbranded', 'fx-bad-route', 'fx-bad-policy']) expect(loaded).not.toContain(id);
  });

  it('keeps serving after the refusals', async () => {
    expect((await panel.app.inject({ url: '/api/fx-notes/ping' })).json()).toEqual({ pong: 'hello' });
    expect((await panel.app.inject({ url: '/api/system/settings' })).statusCode).toBe(200);
  });

  it('answers 404 for the routes a refused plugin added before it failed', async () => {
    const res = await panel.app.inject({ url: '/api/fx-throws/half' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
  });

  it('serves active manifests requirements-first, merged with the build entries', async () => {
    const list = await served();
    const ids = list.map((p) => p.id);
    expect(ids.indexOf('fx-notes')).toBeLessThan(ids.indexOf('fx-dependent'));
    expect(ids).not.toContain('fx-off'); // enabledByDefault: false
    const auth = list.find((p) => p.id === 'auth')!;
    expect(auth.entry).toBe('/plugins/auth/auth-Qw12Er34.js');
    expect(auth.integrity).toBe('sha384-abc');
    expect(auth.localeFiles).toEqual({ en: '/plugins/auth/locales/en-Aa11Bb22.json' });
    expect(list.find((p) => p.id === 'legal')!.entry).toBeUndefined();
    expect(ids).not.toContain('fx-third'); // third-party: disabled until an administrator enables it
    expect(JSON.stringify(list)).not.toContain('$schema');
  });

  it('disables a plugin without a restart: 404 routes, manifest gone, dependents off; re-enabling restores all', async () => {
    const { plugins } = panel.services;
    await plugins.setEnabled('fx-notes', false);
    expect((await panel.app.inject({ url: '/api/fx-notes/ping' })).statusCode).toBe(404);
    expect((await panel.app.inject({ url: '/api/fx-dependent/ping' })).statusCode).toBe(404);
    let ids = (await served()).map((p) => p.id);
    expect(ids).not.toContain('fx-notes');
    expect(ids).not.toContain('fx-dependent');
    const settings = (await panel.app.inject({ url: '/api/system/settings' })).json();
    expect(settings).not.toHaveProperty('fx_greeting');
    const state = await panel.services.database.db.selectFrom('plugin_states').select('enabled').where('id', '=', 'fx-notes').executeTakeFirstOrThrow();
    expect(state.enabled).toBe(0);

    await plugins.setEnabled('fx-notes', true);
    expect((await panel.app.inject({ url: '/api/fx-notes/ping' })).statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/fx-dependent/ping' })).statusCode).toBe(200);
    ids = (await served()).map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining(['fx-notes', 'fx-dependent']));
  });

  it('enables a plugin that is off by default', async () => {
    expect((await panel.app.inject({ url: '/api/fx-off/ping' })).statusCode).toBe(404);
    await panel.services.plugins.setEnabled('fx-off', true);
    expect((await panel.app.inject({ url: '/api/fx-off/ping' })).json()).toEqual({ pong: true });
    expect((await panel.app.inject({ url: '/api/system/settings' })).json()).toHaveProperty('fx_off_public', true);
    await panel.services.plugins.setEnabled('fx-off', false);
    expect((await panel.app.inject({ url: '/api/fx-off/ping' })).statusCode).toBe(404);
  });

  it('refuses to disable a core plugin, and to toggle unknown or refused ones', async () => {
    const { plugins } = panel.services;
    await expect(plugins.setEnabled('auth', false)).rejects.toMatchObject({ statusCode: 409, code: 'PLUGIN_CORE' });
    await expect(plugins.setEnabled('nope', true)).rejects.toMatchObject({ statusCode: 404, code: 'PLUGIN_NOT_FOUND' });
    await expect(plugins.setEnabled('fx-new-sdk', true)).rejects.toMatchObject({ statusCode: 409, code: 'PLUGIN_REFUSED' });
    expect((await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: 'x', password: 'y' } })).statusCode).toBe(401);
  });

  it('mounts a third-party plugin under /api/plugins/<id> once enabled, and serves its client files', async () => {
    expect((await panel.app.inject({ url: '/api/plugins/fx-third/hello' })).statusCode).toBe(404);
    await panel.services.plugins.setEnabled('fx-third', true);
    expect((await panel.app.inject({ url: '/api/plugins/fx-third/hello' })).json()).toEqual({ hello: 'from fx-third' });
    expect((await served()).find((p) => p.id === 'fx-third')!.entry).toBe('/plugins/fx-third/fx-third-Ab12Cd34.js');
    expect((await panel.app.inject({ url: '/api/hello' })).statusCode).toBe(404);
    const file = await panel.app.inject({ url: '/plugins/fx-third/fx-third-Ab12Cd34.js' });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.body).toContain('System.register');
  });

  it("records each plugin's routes with their guard options", () => {
    const routes = panel.services.plugins.get('fx-notes')!.routes;
    expect(routes).toEqual(
      expect.arrayContaining([
        { method: 'GET', url: '/api/fx-notes/ping', auth: false, permission: null },
        { method: 'GET', url: '/api/fx-notes/mine', auth: true, permission: null },
        { method: 'GET', url: '/api/fx-notes/admin', auth: false, permission: 'admin.fx.view' },
        { method: 'POST', url: '/api/fx-notes', auth: true, permission: null },
      ]),
    );
    expect(
      panel.services.plugins
        .get('auth')!
        .routes.map((r) => `${r.method} ${r.url}`)
        .sort(),
    ).toEqual([
      'GET /api/auth/2fa/setup/kill',
      'GET /api/user/auth/2fa/setup',
      'GET /api/user/auth/callback/:provider/:action',
      'GET /api/user/auth/logout',
      'GET /api/user/auth/oauth/accounts',
      'GET /api/user/auth/reset',
      'GET /api/user/auth/verify',
      'POST /api/admin/sso/tokens',
      'POST /api/user/auth/2fa/reverify',
      'POST /api/user/auth/2fa/setup',
      'POST /api/user/auth/2fa/verify',
      'POST /api/user/auth/callback/:provider/unlink',
      'POST /api/user/auth/forgot',
      'POST /api/user/auth/login',
      'POST /api/user/auth/logout',
      'POST /api/user/auth/register',
      'POST /api/user/auth/reset',
      'POST /api/user/auth/sso',
      'POST /api/user/auth/verify/resend',
    ]);
  });

  it("runs each plugin's migrations into its own table, once", async () => {
    const { db } = panel.services.database;
    const applied = await sql<{ name: string }>`select name from ${sql.table(pluginMigrationTable('fx-notes'))}`.execute(db);
    expect(applied.rows.map((r) => r.name)).toEqual(['0001_notes']);
    const { cookie } = await register(panel.app);
    const saved = await panel.app.inject({ method: 'POST', url: '/api/fx-notes', headers: { cookie }, payload: { body: 'first' } });
    expect(saved.statusCode).toBe(201);
    const rows = await db.withTables<{ fx_notes: { id: number; body: string } }>().selectFrom('fx_notes').select('body').execute();
    expect(rows.map((r) => r.body)).toEqual(['first']);
  });

  it('lets a plugin read core settings and its own, but change only its own', async () => {
    const res = await panel.app.inject({ url: '/api/fx-notes/setting' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Something went wrong.' } });
    expect(await panel.services.settings.get('app_name')).toBe('Orepanel');
  });

  it('never serves secret settings, even when declared public', async () => {
    const settings = (await panel.app.inject({ url: '/api/system/settings' })).json();
    expect(settings.fx_greeting).toBe('hello');
    expect(settings).not.toHaveProperty('fx_token');
    expect(settings).not.toHaveProperty('fx_private');
  });

  it("adds active plugins' own css and js to custom.css / custom.js", async () => {
    const css = await panel.app.inject({ url: '/api/system/custom.css' });
    expect(css.body).toContain('.fx-notes { color: teal; }');
    await panel.services.plugins.setEnabled('fx-notes', false);
    expect((await panel.app.inject({ url: '/api/system/custom.css' })).body).not.toContain('fx-notes');
    expect((await panel.app.inject({ url: '/api/system/custom.js' })).body).not.toContain('__fxNotes');
    await panel.services.plugins.setEnabled('fx-notes', true);
    expect((await panel.app.inject({ url: '/api/system/custom.js' })).body).toContain('window.__fxNotes = true;');
  });
});

// Issue 9 defect 7: a third-party plugin's code is the administrator's decision. One found for the
// first time arrives disabled; until it is enabled nothing of it runs (no import, no migration), and
// enabling it at /mc-admin/plugins starts it with no restart — behind the same guards and input rules
// as every other route. A start that fails leaves it disabled with the reason.
describe.each(testDialects())('third-party plugins arrive disabled and start when enabled, on %s', (dialect) => {
  const LATE = ['fx-late', 'fx-late-broken', 'fx-late-crash', 'fx-late-unbounded', 'fx-fake-core'] as const;
  let panel: TestPanel;
  let app: FastifyInstance;
  let root: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, {
      prepareDataDir: (dataDir) => {
        for (const id of LATE) cpSync(join(ROOT, 'tests', 'fixtures', 'third-party', id), join(dataDir, 'plugins', id), { recursive: true });
      },
    });
    app = panel.app;
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    // the last test restarts the panel on the same database: close whichever app is current
    if (app !== panel?.app) await panel?.app.close();
    await app?.close();
    await panel?.database.drop();
  });

  /** Fixture modules of this panel that were imported (each panel installs its own copies). */
  const imported = () =>
    ((globalThis as { __orepanelFixtureImports?: string[] }).__orepanelFixtureImports ?? [])
      .filter((url) => url.includes(panel.database.dataDir))
      .map((url) => url.split('/').at(-2));
  const tables = async () => (await panel.services.database.db.introspection.getTables()).map((t) => t.name.toLowerCase());
  const asRoot = (method: 'GET' | 'POST', url: string) => app.inject({ method, url, headers: { cookie: root.cookie } });
  const servedIds = async () => ((await app.inject({ url: '/api/system/plugins' })).json() as { id: string }[]).map((p) => p.id);
  const stateRow = (id: string) => panel.services.database.db.selectFrom('plugin_states').select('enabled').where('id', '=', id).executeTakeFirst();

  it('a new plugin folder arrives disabled: its server code is not imported and its migrations do not run', async () => {
    expect(imported()).toEqual([]);
    expect(await tables()).not.toContain('fx_late_items');
    expect(await tables()).not.toContain(pluginMigrationTable('fx-late').toLowerCase());
    expect(await stateRow('fx-late')).toEqual({ enabled: 0 });
    const listed = (await asRoot('GET', '/api/admin/plugins/fx-late')).json().plugin;
    expect(listed).toMatchObject({ id: 'fx-late', origin: 'third-party', state: 'disabled', enabled: false, active: false, failed_reason: null });
    expect((await app.inject({ url: '/api/plugins/fx-late/items' })).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
    expect(await servedIds()).not.toContain('fx-late');
    // first-party plugins keep their own default
    expect(panel.services.plugins.isActive('legal')).toBe(true);
  });

  it('a third-party plugin that calls itself core is refused, and its code never runs', async () => {
    expect(panel.services.plugins.refused.find((r) => r.id === 'fx-fake-core')?.reason).toBe('a third-party plugin cannot be part of the core');
    expect((await asRoot('POST', '/api/admin/plugins/fx-fake-core/enable')).json().error.code).toBe('PLUGIN_REFUSED');
    expect(imported()).not.toContain('fx-fake-core');
  });

  it('enabling it at /mc-admin/plugins imports it, runs its migrations and serves its routes and manifest, with no restart', async () => {
    const res = await asRoot('POST', '/api/admin/plugins/fx-late/enable');
    expect(res.statusCode).toBe(200);
    expect(res.json().plugin).toMatchObject({ id: 'fx-late', state: 'enabled', enabled: true, active: true, failed_reason: null });
    expect(imported()).toEqual(['fx-late']);
    expect(await tables()).toContain('fx_late_items');
    expect(await stateRow('fx-late')).toEqual({ enabled: 1 });
    expect((await app.inject({ url: '/api/plugins/fx-late/items' })).json()).toEqual({ items: [] });
    expect(await servedIds()).toContain('fx-late');
    expect(panel.services.routes.list()).toEqual(
      expect.arrayContaining([expect.objectContaining({ method: 'POST', url: '/api/plugins/fx-late/items', permission: 'admin.fx_late.edit' })]),
    );
  });

  it("the late plugin's routes keep the host's guards: 401 anonymous, 403 customer, cross-site 403, bad input 400", async () => {
    const post = (payload: unknown, headers: Record<string, string> = {}) =>
      app.inject({ method: 'POST', url: '/api/plugins/fx-late/items', payload: payload as Record<string, unknown>, headers });
    expect((await post({ name: 'anon' })).statusCode).toBe(401);
    const customer = await userWithRole(panel, 1);
    const refused = await post({ name: 'customer' }, { cookie: customer.cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PERMISSION_DENIED');
    expect((await post({ name: 'x' }, { cookie: root.cookie, origin: 'https://evil.example' })).json().error.code).toBe('CROSS_SITE_REQUEST');
    // the host's input policy: no coercion, unknown properties refused by name, bounds kept
    const bad: [Record<string, unknown>, string | undefined][] = [
      [{}, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(41) }, 'name'],
      [{ name: 'x', quantity: '5' }, 'quantity'],
      [{ name: 'x', quantity: 11 }, 'quantity'],
      [{ name: 'x', owner: 'me' }, 'owner'],
    ];
    for (const [payload, field] of bad) {
      const res = await post(payload, { cookie: root.cookie });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error, JSON.stringify(payload)).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    // a role holding just the plugin's own permission may use it
    const editor = await userWithRole(panel, await roleWith(panel, ['admin.fx_late.edit']));
    expect((await post({ name: 'first' }, { cookie: editor.cookie })).statusCode).toBe(201);
    expect((await app.inject({ url: '/api/plugins/fx-late/items' })).json()).toEqual({ items: ['first'] });
    expect((await app.inject({ url: '/api/plugins/fx-late/nope' })).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
  });

  it('its websocket routes upgrade through the same guards', async () => {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const open = (headers: Record<string, string>) =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(`${address.replace('http', 'ws')}/api/plugins/fx-late/live`, { headers });
        socket.on('message', (data) => resolve(`message ${String(data)}`));
        socket.on('unexpected-response', (_request, response) => resolve(`status ${response.statusCode}`));
        socket.on('error', (error) => resolve(`error ${error.message}`));
      });
    expect(await open({})).toBe('status 401');
    expect(await open({ cookie: root.cookie, origin: 'https://evil.example' })).toBe('status 403');
    expect(await open({ cookie: root.cookie, origin: address })).toBe('message live');
  });

  it('disabling it answers 404 again; re-enabling does not import it twice', async () => {
    expect((await asRoot('POST', '/api/admin/plugins/fx-late/disable')).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/plugins/fx-late/items' })).statusCode).toBe(404);
    expect(await servedIds()).not.toContain('fx-late');
    expect((await asRoot('POST', '/api/admin/plugins/fx-late/enable')).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/plugins/fx-late/items' })).json()).toEqual({ items: ['first'] });
    expect(imported()).toEqual(['fx-late']);
  });

  it('a migration that throws leaves the plugin disabled, with the reason answered, listed and logged', async () => {
    const logged = vi.spyOn(panel.app.log, 'error');
    const res = await asRoot('POST', '/api/admin/plugins/fx-late-broken/enable');
    expect(logged).toHaveBeenCalledWith({ plugin: 'fx-late-broken', origin: 'third-party' }, expect.stringContaining('cannot create its table'));
    logged.mockRestore();
    expect(res.statusCode).toBe(409);
    const reason = 'its database migration 0001_broken failed: fx-late-broken cannot create its table';
    expect(res.json().error).toEqual({ code: 'PLUGIN_START_FAILED', message: `Plugin "fx-late-broken" could not be enabled: ${reason}.` });
    const listed = (await asRoot('GET', '/api/admin/plugins')).json().data.find((p: { id: string }) => p.id === 'fx-late-broken');
    expect(listed).toMatchObject({ state: 'disabled', enabled: false, active: false, failed_reason: reason });
    expect(await stateRow('fx-late-broken')).toEqual({ enabled: 0 });
    expect((await app.inject({ url: '/api/plugins/fx-late-broken/ping' })).statusCode).toBe(404);
    expect(await servedIds()).not.toContain('fx-late-broken');
    // nothing of it ran but the module and the failed migration: asking again says the same
    expect((await asRoot('POST', '/api/admin/plugins/fx-late-broken/enable')).json().error.message).toContain(reason);
  });

  it('a route the input policy refuses (an unbounded number) fails the start, with the reason; what it registered is taken back, so enabling again tries again', async () => {
    const res = await asRoot('POST', '/api/admin/plugins/fx-late-unbounded/enable');
    expect(res.statusCode).toBe(409);
    const { failed_reason: reason } = (await asRoot('GET', '/api/admin/plugins/fx-late-unbounded')).json().plugin;
    expect(reason).toMatch(/^its register\(\) failed: .*amount.*without both minimum and maximum/);
    expect(res.json().error.message).toBe(`Plugin "fx-late-unbounded" could not be enabled: ${reason}.`);
    expect(await stateRow('fx-late-unbounded')).toEqual({ enabled: 0 });
    expect((await app.inject({ method: 'POST', url: '/api/plugins/fx-late-unbounded/buy', payload: { amount: 1 } })).statusCode).toBe(404);
    // no route of the failed start is left in the API document
    expect(panel.services.routes.list().filter((r) => r.url.startsWith('/api/plugins/fx-late-unbounded/'))).toEqual([]);
    expect((await asRoot('POST', '/api/admin/plugins/fx-late-unbounded/enable')).json().error.message).toBe(`Plugin "fx-late-unbounded" could not be enabled: ${reason}.`);
  });

  it('a server part that throws on import leaves the plugin disabled, with the reason', async () => {
    const res = await asRoot('POST', '/api/admin/plugins/fx-late-crash/enable');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Plugin "fx-late-crash" could not be enabled: its server part failed to load: fx-late-crash needs a licence file.');
    expect((await asRoot('GET', '/api/admin/plugins/fx-late-crash')).json().plugin).toMatchObject({
      state: 'disabled',
      failed_reason: 'its server part failed to load: fx-late-crash needs a licence file',
    });
    expect(await stateRow('fx-late-crash')).toEqual({ enabled: 0 });
  });

  it('after a restart an enabled plugin starts with the panel and a disabled one stays unloaded', async () => {
    await app.close();
    app = await buildApp({
      config: loadConfig({ DATA_DIR: panel.database.dataDir, DATABASE_URL: panel.database.url, LOG_LEVEL: 'silent' }),
      logger: false,
      builtPlugins: false,
      pluginDirs: [REPO_PLUGINS],
      publicDir: join(panel.database.dataDir, 'no-public'),
      buildManifest: join(panel.database.dataDir, 'plugins.json'),
    });
    const { plugins } = servicesOf(app);
    expect(plugins.isActive('fx-late')).toBe(true);
    expect((await app.inject({ url: '/api/plugins/fx-late/items' })).json()).toEqual({ items: ['first'] });
    expect(plugins.isActive('fx-late-broken')).toBe(false);
    expect((await app.inject({ url: '/api/plugins/fx-late-broken/ping' })).statusCode).toBe(404);
  });
});
