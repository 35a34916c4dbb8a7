// @vitest-environment jsdom
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

describe('plugins', () => {
  const list = {
    data: [
      {
        id: 'auth',
        name: 'Authentication',
        description: '',
        version: '1.0.0',
        origin: 'core',
        core: true,
        state: 'enabled',
        enabled: true,
        active: true,
        refused_reason: null,
        requires: [],
        permissions: [],
        settings: [],
      },
      {
        id: 'legal',
        name: 'Legal pages',
        description: '',
        version: '1.0.0',
        origin: 'core',
        core: false,
        state: 'enabled',
        enabled: true,
        active: true,
        refused_reason: null,
        requires: [],
        permissions: [],
        settings: [],
      },
      {
        id: 'broken',
        name: 'Broken',
        description: '',
        version: '0.1.0',
        origin: 'data',
        core: false,
        state: 'refused',
        enabled: false,
        active: false,
        refused_reason: 'needs sdk ^9.0.0',
        requires: [],
        permissions: [],
        settings: [],
      },
    ],
  };

  it('disables and enables through the API and says a reload applies it', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/plugins',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/plugins': { body: list },
        'POST /api/admin/plugins/legal/disable': { body: { plugin: { ...list.data[1], state: 'disabled', enabled: false, active: false } } },
        'POST /api/admin/plugins/legal/enable': { body: { plugin: list.data[1] } },
      },
    });
    await app.findByText('Legal pages');
    expect(app.getByText('Refused: needs sdk ^9.0.0')).toBeTruthy();
    expect((app.getByRole('button', 'Disable Authentication') as HTMLButtonElement).disabled).toBe(true);

    await app.click(app.getByRole('button', 'Disable Legal pages'));
    // disabling asks first
    await app.findByText(en.plugins.disableConfirmText, { timeout: 15_000 });
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);
    await app.click(app.getByRole('button', en.plugins.disable));
    await app.findByText(en.plugins.reloadHint);
    expect(app.httpCalls.some((c) => c.method === 'POST' && c.path === '/api/admin/plugins/legal/disable')).toBe(true);

    await app.click(await app.findByRole('button', 'Enable Legal pages'));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.path === '/api/admin/plugins/legal/enable')).toBe(true));
  });

  it('offers no switches without admin.plugins.edit', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/plugins',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.plugins.list'] },
      http: { 'GET /api/admin/plugins': { body: list } },
    });
    await app.findByText('Legal pages');
    expect(app.queryByRole('button', 'Disable Legal pages')).toBeNull();
  });
});
