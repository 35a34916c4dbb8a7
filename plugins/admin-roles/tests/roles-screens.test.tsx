// @vitest-environment jsdom
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

const roles = {
  data: [
    { id: 1, name: 'default', real_name: 'Default', color: '#94a0b8', permissions: [], users: 40, protected: true },
    { id: 4, name: 'support', real_name: 'Support', color: '#34d399', permissions: ['admin.tickets.list'], users: 2, protected: false },
    { id: 8, name: 'administrator', real_name: 'Administrator', color: '#6d7cff', permissions: ['admin.root'], users: 1, protected: true },
  ],
};

describe('role permissions', () => {
  const catalogue = {
    data: [
      { name: 'admin.users.list', description: 'List users', group: 'admin.users', source: 'core', enabled: true },
      { name: 'admin.users.edit', description: 'Edit users', group: 'admin.users', source: 'core', enabled: true },
      { name: 'admin.tickets.list', description: 'List tickets', group: 'admin.tickets', source: 'core', enabled: true },
    ],
  };
  const http = {
    'GET /api/admin/permissions': { body: catalogue },
    'GET /api/admin/roles/4/permissions': { body: { role_id: 4, permissions: ['admin.tickets.list'] } },
    'GET /api/admin/roles/4': { body: { role: roles.data[1] } },
    'PUT /api/admin/roles/4/permissions': (call: RecordedHttpCall) => ({ body: { role_id: 4, permissions: (call.body as { permissions: string[] }).permissions } }),
  };

  it('groups by area and saves the ticked set', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/roles/4/permissions', catalogues: { en }, session: ROOT, http });
    await app.findByRole('heading', 'Permissions of Support');
    expect(app.getByText('admin.users')).toBeTruthy();
    await app.click(app.getByRole('button', 'Select all of admin.users'));
    await app.click(app.getByRole('button', en.rolePermissions.save));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PUT')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PUT')?.body).toEqual({ permissions: ['admin.tickets.list', 'admin.users.edit', 'admin.users.list'] });
  });

  it('marks the permissions of a disabled plugin, and still grants and takes them away', async () => {
    const mail = [
      { name: 'admin.mail.templates.edit', description: 'Edit mail templates', group: 'admin.mail.templates', source: 'mail-templates', enabled: false },
      { name: 'admin.mail.templates.list', description: 'List mail templates', group: 'admin.mail.templates', source: 'mail-templates', enabled: false },
    ];
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/roles/4/permissions',
      catalogues: { en },
      session: ROOT,
      http: {
        ...http,
        'GET /api/admin/permissions': { body: { data: [...catalogue.data, ...mail] } },
        'GET /api/admin/roles/4/permissions': { body: { role_id: 4, permissions: ['admin.mail.templates.edit', 'admin.tickets.list'] } },
      },
    });
    const list = (await app.waitFor(() => app.getByLabelText(/List mail templates/))) as HTMLInputElement;
    const edit = app.getByLabelText(/Edit mail templates/) as HTMLInputElement;
    // each of the plugin's permissions is marked, with why; none of the core's is
    for (const input of [list, edit]) {
      expect(input.labels?.[0]?.textContent).toContain(en.rolePermissions.pluginDisabled);
      expect(input.disabled).toBe(false);
    }
    expect((app.getByLabelText(/List users/) as HTMLInputElement).labels?.[0]?.textContent).not.toContain(en.rolePermissions.pluginDisabled);
    const why = 'The plugin “mail-templates” is disabled. The permission can still be granted; it applies again when the plugin is enabled.';
    expect(document.querySelectorAll(`[title="${why}"]`)).toHaveLength(2);
    // held, not lost: it stays ticked; one is granted, the other taken away
    expect(edit.checked).toBe(true);
    await app.click(list);
    await app.click(edit);
    await app.click(app.getByRole('button', en.rolePermissions.save));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PUT')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PUT')?.body).toEqual({ permissions: ['admin.mail.templates.list', 'admin.tickets.list'] });
  });

  it('hides the save button without admin.permissions.edit, even for an admin.roles.edit holder', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/roles/4/permissions',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.permissions.list', 'admin.roles.edit'] },
      http,
    });
    await app.findByText(en.rolePermissions.readOnly);
    expect(app.queryByRole('button', en.rolePermissions.save)).toBeNull();
    // without admin.roles.list the role is named by its id
    expect(app.getByRole('heading', 'Permissions of #4')).toBeTruthy();
  });
});

describe('roles', () => {
  it('lists roles, hides delete for protected ones, and creates a role', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/roles',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/roles': { body: roles } },
    });
    await app.findByText('Support');
    expect(app.getByRole('link', 'Delete Support')).toBeTruthy();
    expect(app.queryByRole('link', 'Delete Administrator')).toBeNull();
  });

  it('creates a role and goes on to its permissions', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/roles/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'POST /api/admin/roles': { status: 201, body: { role: { id: 9, name: 'helpers', real_name: 'Helpers', color: '#6d7cff', permissions: [], users: 0, protected: false } } },
      },
    });
    await app.type(app.getByLabelText(en.roleForm.name), 'Bad Name');
    await app.type(app.getByLabelText(en.roleForm.realName), 'Helpers');
    await app.click(app.getByRole('button', en.roleForm.create));
    await app.findByText(en.validation.roleName);
    await app.type(app.getByLabelText(en.roleForm.name), 'helpers');
    await app.click(app.getByRole('button', en.roleForm.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/roles/9/permissions'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'helpers', real_name: 'Helpers', color: '#6d7cff' });
  });
});
