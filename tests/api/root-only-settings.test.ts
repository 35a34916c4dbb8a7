// Root-only settings (issue 9, defect 4): a setting that runs code in every visitor's browser or
// decides where links, requests and secrets go can be changed only by admin.root — otherwise
// admin.settings.edit (or admin.plugins.edit) would be admin.root in disguise. The declared list is
// read from the running panel, so a root-only setting added later is covered without editing this.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateManifest } from '../../sdk/manifest-validate.mjs';
import type { SettingValue } from '../../sdk/server';
import type { ManifestSetting } from '../../sdk/types';
import { main, type CliIO } from '../../server/cli';
import { onSettingsScreen } from '../../server/settings/groups';
import { setRolePermissions, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

/** Addresses the issue names, and the browser code: each must stay declared root-only. */
const MUST_BE_ROOT_ONLY = [
  'custom_js',
  'custom_css',
  'app_url',
  'turnstile_verify_url',
  'vpn_check_url',
  'discord_base_url',
  'github_base_url',
  'github_api_url',
  'pterodactyl_base_url',
  'pterodactyl_api_key',
  'smtp_host',
  'stripe_api_url',
  'paypal_api_url',
  'l4r_shareus_api_url',
  // lets department webhooks reach the panel's own network
  'tickets_webhooks_allow_private',
];
/** url settings that are only images a browser shows (nothing is sent there, no code runs from there) */
const DISPLAY_ONLY_ADDRESSES = ['app_logo', 'default_bg', 'profile_skin_url_template'];

/** The role under test: may view and edit settings (core and plugins'), nothing else. */
const EDITOR_ROLE = 4;
const EDITOR_PERMISSIONS = ['admin.settings.view', 'admin.settings.edit', 'admin.plugins.edit'];

/** A valid value of `def`'s type other than `current`, as an attacker would choose it. */
function anotherValue(def: ManifestSetting, current: SettingValue): SettingValue {
  switch (def.type) {
    case 'url':
      return 'https://attacker.example/collect';
    case 'number': {
      const n = (def.min ?? 0) + 1;
      return n === current ? n + 1 : n;
    }
    case 'boolean':
      return current !== true;
    case 'select':
      return (def.options ?? []).find((o) => o !== current) ?? null;
    default:
      return def.key === 'custom_js' ? 'fetch("/api/admin/roles/4/permissions",{method:"PUT"})' : 'attacker-chosen';
  }
}

describe('the manifest schema', () => {
  it('accepts rootOnly on a plugin setting, as a boolean only', () => {
    const manifest = (setting: Record<string, unknown>) => ({
      id: 'fx-root',
      name: 'Fx',
      version: '1.0.0',
      sdk: '^2.0.0',
      settings: [{ key: 'fx_api_url', type: 'url', default: '', ...setting }],
    });
    const ok = validateManifest(manifest({ rootOnly: true }));
    expect(ok.ok && ok.manifest.settings?.[0].rootOnly).toBe(true);
    const unmarked = validateManifest(manifest({}));
    expect(unmarked.ok && unmarked.manifest.settings?.[0].rootOnly).toBe(false);
    expect(validateManifest(manifest({ rootOnly: 'yes' })).ok).toBe(false);
  });
});

describe.each(testDialects())('root-only settings on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let editor: SignedInUser;
  let rootOnly: { def: ManifestSetting; owner: string }[];

  beforeAll(async () => {
    panel = await startPanel(dialect);
    root = await userWithRole(panel, 8);
    editor = await userWithRole(panel, EDITOR_ROLE);
    await setRolePermissions(panel, EDITOR_ROLE, EDITOR_PERMISSIONS);
    rootOnly = panel.services.settings.declarations().filter(({ def }) => def.rootOnly === true);
  });
  afterAll(async () => {
    await panel?.close();
  });

  /** The route that edits a setting of `owner`: the settings screen's (`def` on it, or the core's), or the plugin's config. */
  const routeOf = (owner: string, def?: ManifestSetting) =>
    (def ? onSettingsScreen(owner, def) : owner === 'core') ? '/api/admin/settings' : `/api/admin/plugins/${owner}/config`;
  const patch = (who: SignedInUser, owner: string, values: Record<string, SettingValue>, def?: ManifestSetting) =>
    panel.app.inject({ method: 'PATCH', url: routeOf(owner, def), payload: { values }, headers: { cookie: who.cookie } });
  const get = (who: SignedInUser, url: string) => panel.app.inject({ method: 'GET', url, headers: { cookie: who.cookie } });
  const entry = (key: string) => panel.services.settings.getEntry(key);

  it('declares every browser-code and address setting root-only, core and plugins alike', () => {
    const marked = new Set(rootOnly.map(({ def }) => def.key));
    expect(MUST_BE_ROOT_ONLY.filter((key) => !marked.has(key))).toEqual([]);
    // a new provider/API/webhook address is caught here until it is marked (or shown to be an image)
    const unmarkedAddresses = panel.services.settings
      .declarations()
      .filter(({ def }) => def.type === 'url' && def.rootOnly !== true && !DISPLAY_ONLY_ADDRESSES.includes(def.key))
      .map(({ def, owner }) => `${owner}:${def.key}`);
    expect(unmarkedAddresses).toEqual([]);
    expect(rootOnly.some(({ owner }) => owner !== 'core')).toBe(true);
  });

  it('refuses each root-only setting to a settings editor without admin.root, changing nothing', async () => {
    for (const { def, owner } of rootOnly) {
      const before = await entry(def.key);
      const res = await patch(editor, owner, { [def.key]: anotherValue(def, before.value) }, def);
      expect(res.statusCode, `${def.key}: ${res.body.slice(0, 300)}`).toBe(403);
      expect(res.json().error, def.key).toMatchObject({ code: 'ROOT_ONLY_SETTING', field: def.key, message: expect.stringContaining(def.key) });
      expect(await entry(def.key), def.key).toEqual(before);
    }
    // the attack of the issue: the script never reaches a browser
    expect((await panel.app.inject({ url: '/api/system/custom.js' })).body).not.toContain('attacker');
  });

  it('writes nothing when one request mixes ordinary and root-only settings', async () => {
    for (const [owner, ordinary] of [
      ['core', { company_name: 'Mixed Ltd' }],
      ['store', { stripe_enabled: true }],
    ] as const) {
      const target = rootOnly.find((r) => r.owner === owner)!;
      const before = await Promise.all([...Object.keys(ordinary), target.def.key].map(entry));
      const res = await patch(editor, owner, { ...ordinary, [target.def.key]: anotherValue(target.def, before[before.length - 1].value) });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(403);
      expect(res.json().error).toMatchObject({ code: 'ROOT_ONLY_SETTING', field: target.def.key });
      expect(await Promise.all([...Object.keys(ordinary), target.def.key].map(entry))).toEqual(before);
    }
  });

  it('still lets the settings editor change ordinary settings', async () => {
    const core = await patch(editor, 'core', { company_name: 'Editor Ltd', default_ram: 3072 });
    expect(core.statusCode, core.body).toBe(200);
    expect(await panel.services.settings.getMany(['company_name', 'default_ram'])).toEqual({ company_name: 'Editor Ltd', default_ram: 3072 });
    const plugin = await patch(editor, 'earn-links', { l4r_shareus_enabled: true });
    expect(plugin.statusCode, plugin.body).toBe(200);
    expect(await panel.services.settings.get('l4r_shareus_enabled')).toBe(true);
  });

  it('lets admin.root change every root-only setting', async () => {
    for (const { def, owner } of rootOnly) {
      const value = anotherValue(def, (await entry(def.key)).value);
      const res = await patch(root, owner, { [def.key]: value }, def);
      expect(res.statusCode, `${def.key}: ${res.body.slice(0, 300)}`).toBe(200);
      expect(await panel.services.settings.get(def.key), def.key).toBe(value);
    }
  });

  it('says in the listings which settings are root-only and whether the caller may edit them', async () => {
    type Listed = { key: string; root_only: boolean; editable: boolean };
    const coreListing = async (who: SignedInUser) =>
      Object.fromEntries(((await get(who, '/api/admin/settings')).json().groups as { settings: Listed[] }[]).flatMap((g) => g.settings).map((s) => [s.key, s]));
    const pluginListing = async (who: SignedInUser) => Object.fromEntries(((await get(who, '/api/admin/plugins/store/config')).json().settings as Listed[]).map((s) => [s.key, s]));

    for (const [listing, rootOnlyKey, ordinaryKey] of [
      [coreListing, 'custom_js', 'company_name'],
      [pluginListing, 'stripe_api_url', 'stripe_enabled'],
    ] as const) {
      const asEditor = await listing(editor);
      expect(asEditor[rootOnlyKey]).toMatchObject({ root_only: true, editable: false });
      expect(asEditor[ordinaryKey]).toMatchObject({ root_only: false, editable: true });
      const asRoot = await listing(root);
      expect(asRoot[rootOnlyKey]).toMatchObject({ root_only: true, editable: true });
      expect(asRoot[ordinaryKey]).toMatchObject({ root_only: false, editable: true });
    }
  });

  it('still lets the host change one with `orepanel settings set` (its own shell)', async () => {
    const errors: string[] = [];
    const io: CliIO = { out: () => undefined, err: (text) => errors.push(text) };
    const env = { DATA_DIR: panel.database.dataDir, DATABASE_URL: panel.database.url, LOG_LEVEL: 'silent' };
    expect(await main(['settings', 'set', 'app_url', 'https://panel.example.com'], io, env), errors.join('\n')).toBe(0);
    panel.services.settings.invalidate();
    expect(await panel.services.settings.get('app_url')).toBe('https://panel.example.com');
  });
});
