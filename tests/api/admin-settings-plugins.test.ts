// /api/admin/settings and /api/admin/plugins: grouped typed settings with write-only secrets,
// validation before any write, plugins listed with their state and refusal reasons, enable and
// disable without a restart, and a plugin's own settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_PLUGINS, REPO_PLUGINS, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';
import { SPEC_FEATURE_FLAGS } from './spec-feature-flags';

describe.each(testDialects())('admin settings and plugins API on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { pluginDirs: [REPO_PLUGINS, FIXTURE_PLUGINS] });
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const req = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: root.cookie } });

  it('answers every core setting grouped, with its type and value', async () => {
    const { groups } = (await req('GET', '/api/admin/settings')).json();
    expect(groups.map((g: { id: string }) => g.id)).toEqual(expect.arrayContaining(['general', 'company', 'server_defaults', 'features', 'appearance', 'ads']));
    const all = groups.flatMap((g: { settings: unknown[] }) => g.settings) as { key: string }[];
    const byKey = Object.fromEntries(all.map((s) => [s.key, s]));
    expect(byKey.app_name).toMatchObject({ type: 'string', value: 'Orepanel', default: 'Orepanel', secret: false, public: true, updated_at: null });
    expect(byKey.default_ram).toMatchObject({ type: 'number', value: 1024, min: 0 });
    expect(byKey.store_enabled).toMatchObject({ type: 'boolean', value: false });
    expect(byKey.app_lang).toMatchObject({ type: 'select', options: ['en', 'ro', 'fr', 'de', 'es', 'md'] });
    expect(groups.find((g: { id: string }) => g.id === 'company').settings.map((s: { key: string }) => s.key)).toContain('company_vat');
    // plugins' settings are not in the core list
    expect(byKey.registration_enabled).toBeUndefined();
  });

  it('shows the panel-wide settings plugins declare in their groups, while the plugin is off too, and nowhere else', async () => {
    const keysOf = (groups: { id: string; settings: { key: string }[] }[], id: string) => groups.find((g) => g.id === id)?.settings.map((s) => s.key);
    const screen = async () => (await req('GET', '/api/admin/settings')).json().groups;
    // spec §3's feature flags, each declared by its feature's plugin (three by the core until theirs come)
    const flags = [...SPEC_FEATURE_FLAGS];
    expect(keysOf(await screen(), 'features')).toEqual(flags);
    expect(keysOf(await screen(), 'server_defaults')?.slice(-2)).toEqual(['server_renew_days', 'server_renew_cost']);
    expect(keysOf(await screen(), 'security')).toEqual(
      expect.arrayContaining([
        'captcha_enabled',
        'github_api_url',
        'rate_limit_auth_window_seconds',
        'rate_limit_login_per_device',
        'rate_limit_password_per_ip',
        'rate_limit_redeem_per_ip',
      ]),
    );
    expect(panel.services.settings.ownerOf('rate_limit_login_per_device')).toBe('auth');
    expect(panel.services.settings.ownerOf('rate_limit_password_per_ip')).toBe('account');
    expect(panel.services.settings.ownerOf('store_enabled')).toBe('store');
    // the plugin's configuration screen has its own settings only, and cannot change a panel-wide one
    const config = (await req('GET', '/api/admin/plugins/store/config')).json();
    expect(config.settings.map((s: { key: string }) => s.key)).not.toContain('store_enabled');
    expect(config.settings.map((s: { key: string }) => s.key)).toContain('store_price_ram');
    expect((await req('PATCH', '/api/admin/plugins/store/config', { values: { store_enabled: true } })).json().error).toMatchObject({ code: 'UNKNOWN_SETTING' });
    expect((await req('PATCH', '/api/admin/settings', { values: { store_price_ram: 5 } })).json().error).toMatchObject({ code: 'UNKNOWN_SETTING' });

    expect((await req('POST', '/api/admin/plugins/earn-j4r/disable')).statusCode).toBe(200);
    expect((await req('POST', '/api/admin/plugins/leaderboard/disable')).statusCode).toBe(200);
    try {
      // a switched-off plugin's feature flag stays on the screen, editable, and in the public settings (spec §3)
      expect(keysOf(await screen(), 'features')).toEqual(flags);
      const changed = await req('PATCH', '/api/admin/settings', { values: { leaderboard_enabled: false } });
      expect(changed.statusCode).toBe(200);
      const publicSettings = (await panel.app.inject({ url: '/api/system/settings' })).json();
      expect(publicSettings.leaderboard_enabled).toBe(false);
      // its other public settings leave with it, as before
      expect(publicSettings).not.toHaveProperty('j4r_enabled');
    } finally {
      await req('PATCH', '/api/admin/settings', { values: { leaderboard_enabled: true } });
      await req('POST', '/api/admin/plugins/leaderboard/enable');
      await req('POST', '/api/admin/plugins/earn-j4r/enable');
    }
    expect((await panel.app.inject({ url: '/api/system/settings' })).json()).toMatchObject({ leaderboard_enabled: true, j4r_enabled: false });
  });

  it('changes settings by their type and refuses bad values without writing any', async () => {
    const ok = await req('PATCH', '/api/admin/settings', { values: { app_name: 'Ore Hosting', default_ram: 2048, store_enabled: true } });
    expect(ok.statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/system/settings' })).json()).toMatchObject({ app_name: 'Ore Hosting', default_ram: 2048, store_enabled: true });

    const bad: [Record<string, unknown>, string, string][] = [
      [{ default_ram: -5 }, 'VALIDATION_ERROR', 'default_ram'],
      [{ default_ram: '2048' }, 'VALIDATION_ERROR', 'default_ram'],
      [{ store_enabled: 'yes' }, 'VALIDATION_ERROR', 'store_enabled'],
      [{ app_lang: 'xx' }, 'VALIDATION_ERROR', 'app_lang'],
      [{ app_url: 'ftp://x' }, 'VALIDATION_ERROR', 'app_url'],
      [{ app_name: { a: 1 } }, 'VALIDATION_ERROR', 'app_name'],
      [{ no_such_key: 1 }, 'UNKNOWN_SETTING', 'no_such_key'],
      [{ registration_enabled: false }, 'UNKNOWN_SETTING', 'registration_enabled'],
      // one good value and one bad: neither is written
      [{ app_name: 'Changed', default_disk: -1 }, 'VALIDATION_ERROR', 'default_disk'],
    ];
    for (const [values, code, field] of bad) {
      const res = await req('PATCH', '/api/admin/settings', { values });
      expect(res.statusCode, JSON.stringify(values)).toBe(400);
      expect(res.json().error).toMatchObject({ code, field });
    }
    for (const payload of [{}, { values: {} }, { values: 'x' }]) expect((await req('PATCH', '/api/admin/settings', payload)).statusCode).toBe(400);
    expect(await panel.services.settings.get('app_name')).toBe('Ore Hosting');
    expect(await panel.services.settings.get('default_disk')).toBe(1024);
  });

  it('lists plugins with their state, refusal reasons and declared settings', async () => {
    const { data } = (await req('GET', '/api/admin/plugins')).json();
    const byId = Object.fromEntries(data.map((p: { id: string }) => [p.id, p]));
    expect(byId.auth).toMatchObject({ state: 'enabled', core: true, enabled: true, active: true, refused_reason: null });
    expect(byId.auth.settings).toEqual([expect.objectContaining({ key: 'registration_enabled', type: 'boolean', value: true })]);
    expect(byId['fx-off']).toMatchObject({ state: 'disabled', enabled: false });
    expect(byId['fx-new-sdk']).toMatchObject({ state: 'refused', refused_reason: expect.stringContaining('sdk ^3.0.0') });
    expect((await req('GET', '/api/admin/plugins/legal')).json().plugin).toMatchObject({ id: 'legal', state: 'enabled' });
    expect((await req('GET', '/api/admin/plugins/nope')).statusCode).toBe(404);
    expect((await req('GET', '/api/admin/plugins/Bad_Id')).statusCode).toBe(400);
  });

  it('disables and enables a plugin without a restart', async () => {
    const off = await req('POST', '/api/admin/plugins/fx-notes/disable');
    expect(off.json().plugin).toMatchObject({ state: 'disabled', enabled: false });
    expect((await panel.app.inject({ url: '/api/fx-notes/ping' })).statusCode).toBe(404);
    expect((await req('GET', '/api/admin/plugins/fx-dependent')).json().plugin.state).toBe('inactive');
    const on = await req('POST', '/api/admin/plugins/fx-notes/enable');
    expect(on.json().plugin).toMatchObject({ state: 'enabled', active: true });
    expect((await panel.app.inject({ url: '/api/fx-notes/ping' })).statusCode).toBe(200);

    expect((await req('POST', '/api/admin/plugins/auth/disable')).json().error.code).toBe('PLUGIN_CORE');
    expect((await req('POST', '/api/admin/plugins/fx-new-sdk/enable')).json().error.code).toBe('PLUGIN_REFUSED');
    expect((await req('POST', '/api/admin/plugins/nope/enable')).statusCode).toBe(404);
    expect(panel.services.plugins.isActive('auth')).toBe(true);
  });

  it('reads and changes a plugin’s own settings only', async () => {
    const config = (await req('GET', '/api/admin/plugins/fx-notes/config')).json();
    expect(config.settings.map((s: { key: string }) => s.key)).toEqual(['fx_greeting', 'fx_token', 'fx_private']);
    // a secret is write-only: whether it is set, never its value or default
    const secret = config.settings.find((s: { key: string }) => s.key === 'fx_token');
    expect(secret).toMatchObject({ secret: true, value: { set: true }, default: null });
    expect(JSON.stringify(config)).not.toContain('s3cret');
    await req('PATCH', '/api/admin/plugins/fx-notes/config', { values: { fx_token: 'n3w-secret' } });
    expect(JSON.stringify((await req('GET', '/api/admin/plugins/fx-notes/config')).json())).not.toContain('n3w-secret');
    expect(JSON.stringify((await req('GET', '/api/admin/plugins')).json())).not.toContain('n3w-secret');
    const logged = await panel.services.database.db.selectFrom('audit_log').select('details').where('action', '=', 'admin.plugin.config').execute();
    expect(JSON.stringify(logged)).not.toContain('n3w-secret');
    expect(await panel.services.settings.get('fx_token')).toBe('n3w-secret');
    const ok = await req('PATCH', '/api/admin/plugins/fx-notes/config', { values: { fx_greeting: 'bonjour' } });
    expect(ok.statusCode).toBe(200);
    expect((await panel.app.inject({ url: '/api/fx-notes/ping' })).json()).toEqual({ pong: 'bonjour' });
    for (const values of [{ app_name: 'x' }, { registration_enabled: false }]) {
      const res = await req('PATCH', '/api/admin/plugins/fx-notes/config', { values });
      expect(res.json().error.code).toBe('UNKNOWN_SETTING');
    }
    expect(await panel.services.settings.get('app_name')).not.toBe('x');
    expect((await req('GET', '/api/admin/plugins/fx-new-sdk/config')).json().error.code).toBe('PLUGIN_REFUSED');
  });
});
