// @vitest-environment jsdom
import { cleanup } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openPluginsScreen } from './screen-kit';
import { reloadPanel } from '../client/panel-reload';
import en from '../locales/en.json';

// the page reloads the panel after a switch: watched here, as leaving the page would end the test
vi.mock('../client/panel-reload', () => ({ reloadPanel: vi.fn() }));

afterEach(() => {
  cleanup();
  vi.mocked(reloadPanel).mockClear();
  sessionStorage.clear();
});

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

  it('disables and enables through the API, reloads the panel at once and says what changed', async () => {
    const app = await openPluginsScreen({
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
    expect(reloadPanel).not.toHaveBeenCalled();
    await app.click(app.getByRole('button', en.plugins.disable));
    await app.waitFor(() => expect(reloadPanel).toHaveBeenCalledTimes(1));
    expect(app.httpCalls.some((c) => c.method === 'POST' && c.path === '/api/admin/plugins/legal/disable')).toBe(true);
    app.unmount();

    // after the reload the page says what changed (and the next page load will not)
    const reloaded = await openPluginsScreen({ http: { 'GET /api/admin/plugins': { body: list } } });
    await reloaded.findByText('Legal pages is disabled on the server.');
    expect(sessionStorage.length).toBe(0);
    reloaded.unmount();

    const disabled = { ...list.data[1], state: 'disabled', enabled: false, active: false };
    const off = await openPluginsScreen({
      http: { 'GET /api/admin/plugins': { body: { data: [list.data[0], disabled, list.data[2]] } }, 'POST /api/admin/plugins/legal/enable': { body: { plugin: list.data[1] } } },
    });
    await off.click(await off.findByRole('button', 'Enable Legal pages'));
    await off.waitFor(() => expect(off.httpCalls.some((c) => c.path === '/api/admin/plugins/legal/enable')).toBe(true));
    await off.waitFor(() => expect(reloadPanel).toHaveBeenCalledTimes(2));
  });

  it('shows a core plugin’s switch as not switchable, and says why', async () => {
    const app = await openPluginsScreen({ http: { 'GET /api/admin/plugins': { body: list } } });
    await app.findByText('Authentication');
    // one core plugin, one reason; the others' switches work
    expect(app.getByText(en.plugins.coreReason)).toBeTruthy();
    expect((app.getByRole('button', 'Disable Authentication') as HTMLButtonElement).disabled).toBe(true);
    expect((app.getByRole('button', 'Disable Legal pages') as HTMLButtonElement).disabled).toBe(false);
    await app.click(app.getByRole('button', 'Disable Authentication'));
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('offers no switches without admin.plugins.edit', async () => {
    const app = await openPluginsScreen({
      session: { user: { role: 4 }, permissions: ['admin.plugins.list'] },
      http: { 'GET /api/admin/plugins': { body: list } },
    });
    await app.findByText('Legal pages');
    expect(app.queryByRole('button', 'Disable Legal pages')).toBeNull();
  });
});
