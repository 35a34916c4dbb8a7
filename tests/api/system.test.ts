// The system API (spec §4, §7) and the legal plugin's documents.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { platform, release } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_SETTINGS } from '../../server/settings/catalogue';
import { REPO_PLUGINS, roleWith, startPanel, testDialects, userWithRole, type TestPanel } from './harness';
import { SPEC_FEATURE_FLAGS } from './spec-feature-flags';

/** The repo's plugins that are on by default (the list grows as plugins are added). */
function repoPluginIds(): string[] {
  return readdirSync(REPO_PLUGINS)
    .filter((id) => existsSync(join(REPO_PLUGINS, id, 'plugin.json')))
    .filter((id) => (JSON.parse(readFileSync(join(REPO_PLUGINS, id, 'plugin.json'), 'utf8')) as { enabledByDefault?: boolean }).enabledByDefault !== false)
    .sort();
}

const SPEC_KEYS = [
  'app_name',
  'app_lang',
  'app_timezone',
  'app_url',
  'currency',
  'currency_symbol',
  'app_version',
  'company_name',
  'company_address',
  'company_city',
  'company_state',
  'company_country',
  'company_zip',
  'company_vat',
  'default_cpu',
  'default_ram',
  'default_disk',
  'default_ports',
  'default_databases',
  'default_backups',
  'default_server_slots',
  'server_renew_days',
  'server_renew_cost',
  ...SPEC_FEATURE_FLAGS,
  'debug_debug',
  'debug_version',
  'debug_os',
  'debug_os_kernel',
  'debug_name',
  'debug_telemetry',
];

describe.each(testDialects())('system API on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect);
  });
  afterAll(async () => {
    await panel?.close();
  });
  const get = (url: string) => panel.app.inject({ url });

  describe('GET /api/system/settings', () => {
    it('serves every spec §3 key with the reference defaults', async () => {
      const res = await get('/api/system/settings');
      expect(res.statusCode).toBe(200);
      const json = res.json();
      for (const key of SPEC_KEYS) expect(json, key).toHaveProperty(key);
      expect(json).toMatchObject({
        app_name: 'Orepanel',
        app_lang: 'en',
        app_timezone: 'UTC',
        currency: 'EUR',
        currency_symbol: '€',
        default_ram: 1024,
        default_disk: 1024,
        default_cpu: 100,
        default_ports: 2,
        default_databases: 1,
        default_backups: 5,
        default_server_slots: 1,
        server_renew_days: 30,
        server_renew_cost: 100,
        afk_enabled: true,
        store_enabled: false,
        leaderboard_enabled: true,
        registration_enabled: true,
        debug_telemetry: false,
      });
    });

    it('serves only the public subset', async () => {
      const json = (await get('/api/system/settings')).json();
      for (const key of ['custom_css', 'custom_js', 'google_ads_client_id', 'legal_privacy_policy', 'legal_terms_of_service']) {
        expect(json).not.toHaveProperty(key);
      }
      // the core's public settings and those the loaded plugins declare public (a plugin's feature
      // flag must reach the browser so its nav item hides), never a secret
      const declared = [...CORE_SETTINGS, ...panel.services.plugins.list().flatMap((p) => p.manifest.settings ?? [])];
      const publicKeys = declared.filter((s) => s.public && !s.secret).map((s) => s.key);
      const secretKeys = declared.filter((s) => s.secret).map((s) => s.key);
      for (const key of Object.keys(json)) {
        expect(publicKeys.includes(key) || key === 'app_version' || key === 'debug' || key.startsWith('debug_'), key).toBe(true);
        expect(secretKeys.includes(key), key).toBe(false);
      }
    });

    it('carries the spec §3 debug object: Redis in use, and the app-wide rate limit', async () => {
      const json = (await get('/api/system/settings')).json();
      expect(json.debug).toEqual({ useRedis: false, rateLimit: { enabled: true, limit: expect.any(Number) } });
      await panel.services.settings.set('rate_limit_per_minute', 321);
      try {
        expect((await get('/api/system/settings')).json().debug.rateLimit).toEqual({ enabled: true, limit: 321 });
      } finally {
        await panel.services.settings.set('rate_limit_per_minute', json.debug.rateLimit.limit);
      }
    });

    it('tells the server’s operating system to an administrator only, never to a visitor or a customer', async () => {
      const asVisitor = (await get('/api/system/settings')).json();
      expect(asVisitor).toMatchObject({ debug_os: '', debug_os_kernel: '' });
      const customer = await userWithRole(panel, 1);
      const asCustomer = (await panel.app.inject({ url: '/api/system/settings', headers: { cookie: customer.cookie } })).json();
      expect(asCustomer).toMatchObject({ debug_os: '', debug_os_kernel: '' });
      // an admin-type role without admin.root is staff, not an administrator of the server
      const support = await userWithRole(panel, await roleWith(panel, ['admin.users.list'], 'Support desk'));
      expect((await panel.app.inject({ url: '/api/system/settings', headers: { cookie: support.cookie } })).json()).toMatchObject({ debug_os: '' });
      const root = await userWithRole(panel, 8);
      const res = await panel.app.inject({ url: '/api/system/settings', headers: { cookie: root.cookie } });
      expect(res.json()).toMatchObject({ debug_os: platform(), debug_os_kernel: release() });
      expect(res.headers['cache-control']).toContain('private');
      // index.html's copy is everyone's: no OS there either
      const page = await get('/');
      expect(page.body).not.toContain(release());
    });

    it('reflects a change at once', async () => {
      await panel.services.settings.set('app_name', 'Blockhost');
      try {
        expect((await get('/api/system/settings')).json().app_name).toBe('Blockhost');
      } finally {
        await panel.services.settings.set('app_name', 'Orepanel');
      }
    });

    it('refuses a setting value of the wrong type', async () => {
      await expect(panel.services.settings.set('default_ram', 'lots')).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', field: 'default_ram' });
      await expect(panel.services.settings.set('app_lang', 'xx')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      await expect(panel.services.settings.set('app_url', 'javascript:alert(1)')).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
      expect((await get('/api/system/settings')).json().default_ram).toBe(1024);
    });
  });

  describe('GET /api/system/custom.css and custom.js', () => {
    it('answer 200 with the right type even when empty', async () => {
      const css = await get('/api/system/custom.css');
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(css.body).toBe('');
      const js = await get('/api/system/custom.js');
      expect(js.statusCode).toBe(200);
      expect(js.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(js.body).toBe('');
    });

    it('serve the custom_css / custom_js settings', async () => {
      await panel.services.settings.set('custom_css', 'body { background: #123; }');
      await panel.services.settings.set('custom_js', 'console.log("hi")');
      try {
        expect((await get('/api/system/custom.css')).body).toBe('body { background: #123; }');
        expect((await get('/api/system/custom.js')).body).toBe('console.log("hi")');
      } finally {
        await panel.services.settings.set('custom_css', '');
        await panel.services.settings.set('custom_js', '');
      }
    });
  });

  describe('GET /api/system/ga-ads', () => {
    it('answers 404 while ads are off, even with a client id (never the text "null")', async () => {
      await panel.services.settings.set('google_ads_client_id', 'ca-pub-1234567890');
      try {
        const res = await get('/api/system/ga-ads');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'ADS_DISABLED', message: 'Ads are switched off.' } });
      } finally {
        await panel.services.settings.set('google_ads_client_id', '');
      }
    });

    it('answers 404 while no ad client is set', async () => {
      await panel.services.settings.set('google_ads_enabled', true);
      try {
        const res = await get('/api/system/ga-ads');
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ error: { code: 'ADS_NOT_CONFIGURED', message: 'No ad client is configured.' } });
      } finally {
        await panel.services.settings.set('google_ads_enabled', false);
      }
    });

    it('answers the client id as plain text once ads are on and a client is set', async () => {
      await panel.services.settings.set('google_ads_enabled', true);
      await panel.services.settings.set('google_ads_client_id', ' ca-pub-1234567890 ');
      try {
        const res = await get('/api/system/ga-ads');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(res.body).toBe('ca-pub-1234567890');
      } finally {
        await panel.services.settings.set('google_ads_client_id', '');
        await panel.services.settings.set('google_ads_enabled', false);
      }
    });

    it('serves the switch in the public settings, and never the client id', async () => {
      const res = await get('/api/system/settings');
      expect(res.json()).toMatchObject({ google_ads_enabled: false });
      expect(res.json()).not.toHaveProperty('google_ads_client_id');
    });
  });

  describe('GET /api/system/plugins', () => {
    it("serves the enabled plugins' manifests, without build entries when there is no build", async () => {
      const res = await get('/api/system/plugins');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const list = res.json() as { id: string; entry?: string; routes: unknown[] }[];
      expect(list.map((p) => p.id).sort()).toEqual(repoPluginIds());
      expect(list.every((p) => p.entry === undefined)).toBe(true);
      expect(list.find((p) => p.id === 'auth')!.routes).toContainEqual(expect.objectContaining({ path: '/auth/login', component: 'LoginPage' }));
    });
  });

  describe('GET /api/legal/:document', () => {
    it('answers content "" while the setting is empty', async () => {
      for (const document of ['privacy-policy', 'terms-of-service']) {
        const res = await get(`/api/legal/${document}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ document, content: '', updated_at: null });
      }
    });

    it('answers the text and when it was changed', async () => {
      await panel.services.settings.set('legal_terms_of_service', 'Be nice.');
      const res = (await get('/api/legal/terms-of-service')).json();
      expect(res.content).toBe('Be nice.');
      expect(Date.parse(res.updated_at)).toBeGreaterThan(Date.now() - 60_000);
      expect((await get('/api/legal/privacy-policy')).json().content).toBe('');
    });

    it('answers 404 DOCUMENT_NOT_FOUND for another document', async () => {
      const res = await get('/api/legal/cookies');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'DOCUMENT_NOT_FOUND', message: 'There is no such document.', field: 'document' } });
      expect((await get(`/api/legal/${'x'.repeat(65)}`)).statusCode).toBe(400);
    });

    it('answers 404 while the legal plugin is disabled', async () => {
      await panel.services.plugins.setEnabled('legal', false);
      try {
        expect((await get('/api/legal/privacy-policy')).statusCode).toBe(404);
        expect(((await get('/api/system/plugins')).json() as { id: string }[]).map((p) => p.id)).not.toContain('legal');
      } finally {
        await panel.services.plugins.setEnabled('legal', true);
      }
      expect((await get('/api/legal/privacy-policy')).statusCode).toBe(200);
    });
  });
});
