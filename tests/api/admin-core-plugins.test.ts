// Issue 10 item 4: the admin areas the panel cannot work without — users, roles and permissions,
// settings and the plugins screen itself — are core plugins. The server refuses to switch them off
// (409 PLUGIN_CORE, nothing written), so the plugins screen can never switch itself off; the four
// switchable admin areas are enabled by default and can be.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const CORE_ADMIN = ['admin-users', 'admin-roles', 'admin-settings', 'admin-plugins'];
const SWITCHABLE_ADMIN = ['admin-dashboard', 'admin-health', 'mail-templates', 'redirect-links'];

describe.each(testDialects())('the admin areas as plugins on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect);
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const req = (method: 'GET' | 'POST', url: string) => panel.app.inject({ method, url, headers: { cookie: root.cookie } });
  const listed = async () => (await req('GET', '/api/admin/plugins')).json().data as { id: string; core: boolean; state: string; enabled: boolean }[];

  it('lists the core ones as core and enabled, the switchable ones as enabled by default', async () => {
    const plugins = await listed();
    for (const id of CORE_ADMIN)
      expect(
        plugins.find((p) => p.id === id),
        id,
      ).toMatchObject({ core: true, state: 'enabled', enabled: true });
    for (const id of SWITCHABLE_ADMIN)
      expect(
        plugins.find((p) => p.id === id),
        id,
      ).toMatchObject({ core: false, state: 'enabled', enabled: true });
  });

  it('refuses to disable a core admin plugin, with the reason, and keeps it on (its screens too)', async () => {
    for (const id of CORE_ADMIN) {
      const res = await req('POST', `/api/admin/plugins/${id}/disable`);
      expect(res.statusCode, id).toBe(409);
      expect(res.json().error.code, id).toBe('PLUGIN_CORE');
      expect(res.json().error.message, id).toContain('part of the core');
    }
    const plugins = await listed();
    for (const id of CORE_ADMIN) expect(plugins.find((p) => p.id === id)?.enabled, id).toBe(true);
    const served = ((await req('GET', '/api/system/plugins')).json() as { id: string }[]).map((m) => m.id);
    for (const id of CORE_ADMIN) expect(served, id).toContain(id);
  });

  it('disables a switchable admin plugin and enables it again', async () => {
    const off = await req('POST', '/api/admin/plugins/mail-templates/disable');
    expect(off.statusCode).toBe(200);
    expect(off.json().plugin).toMatchObject({ id: 'mail-templates', enabled: false, state: 'disabled' });
    const on = await req('POST', '/api/admin/plugins/mail-templates/enable');
    expect(on.statusCode).toBe(200);
    expect(on.json().plugin).toMatchObject({ id: 'mail-templates', enabled: true, state: 'enabled' });
  });
});
