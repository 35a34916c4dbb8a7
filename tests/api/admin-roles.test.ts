// /api/admin/roles and /api/admin/permissions: CRUD with unique names, protected roles, roles in
// use, the permissions of a role (catalogue-checked, no escalation, 7/8 keep admin.root), and the
// role cache reloaded so sessions see a change on their next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORE_PERMISSIONS, permissionCatalogue } from '../../server/auth/permission-catalogue';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';
import { activeRootHolders, expectOneWinner, onlyNewRootHolders } from './root-holders';

describe('permission catalogue', () => {
  it('holds the core’s own permissions, once each (a feature’s are its plugin’s)', () => {
    const names = CORE_PERMISSIONS.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    const expected = [
      'admin.root',
      'admin.users.list',
      'admin.users.edit',
      'admin.users.delete',
      ...['roles', 'permissions'].flatMap((a) => ['create', 'edit', 'delete', 'list'].map((v) => `admin.${a}.${v}`)),
      'admin.settings.view',
      'admin.settings.edit',
      'admin.plugins.edit',
      'admin.plugins.list',
      'user.permission.alt',
      'user.permission.vpn',
      'user.permission.adblocker',
    ];
    expect([...names].sort()).toEqual([...expected].sort());
  });

  it('adds what plugins declare, without letting them redescribe a core permission', () => {
    const list = permissionCatalogue([
      {
        id: 'tickets',
        permissions: [
          { name: 'tickets.staff.reply', description: 'Reply as staff' },
          { name: 'admin.root', description: 'mine' },
        ],
      },
    ]);
    expect(list.find((p) => p.name === 'tickets.staff.reply')).toEqual({ name: 'tickets.staff.reply', description: 'Reply as staff', group: 'tickets.staff', source: 'tickets' });
    expect(list.filter((p) => p.name === 'admin.root')).toEqual([expect.objectContaining({ source: 'core' })]);
  });

  it('groups a plugin’s permission with the shortest group of the same plugin it extends', () => {
    const list = permissionCatalogue([
      {
        id: 'queue',
        permissions: [{ name: 'admin.queue.list' }, { name: 'admin.queue.logs.view' }, { name: 'admin.queue.logs.extra.view' }, { name: 'admin.other.thing.view' }],
      },
    ]);
    const groupOf = (name: string) => list.find((p) => p.name === name)?.group;
    expect(['admin.queue.list', 'admin.queue.logs.view', 'admin.queue.logs.extra.view', 'admin.other.thing.view'].map(groupOf)).toEqual([
      'admin.queue',
      'admin.queue',
      'admin.queue',
      'admin.other.thing',
    ]);
  });
});

describe.each(testDialects())('admin roles API on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let manager: SignedInUser;
  let managerRole: number;

  beforeAll(async () => {
    panel = await startPanel(dialect);
    root = await userWithRole(panel, 8);
    managerRole = await roleWith(panel, [
      'admin.roles.list',
      'admin.roles.create',
      'admin.roles.edit',
      'admin.roles.delete',
      'admin.permissions.list',
      'admin.permissions.edit',
      'admin.users.list',
    ]);
    manager = await userWithRole(panel, managerRole);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const req = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, who: SignedInUser, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  const roleCount = async () =>
    Number(
      (
        await panel.services.database.db
          .selectFrom('roles')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('serves the catalogue to admins', async () => {
    const res = await req('GET', '/api/admin/permissions', manager);
    expect(res.statusCode).toBe(200);
    const names = res.json().data.map((p: { name: string }) => p.name);
    expect(names).toEqual(expect.arrayContaining(['admin.root', 'admin.users.list', 'admin.server.queue.logs.view', 'user.permission.vip']));
    // spec §6's strings, each once, owned by the plugin that enforces it (the same strings as before)
    const entries = res.json().data as { name: string; group: string; source: string }[];
    expect(new Set(names).size).toBe(names.length);
    const owner = (name: string) => entries.find((p) => p.name === name);
    expect(owner('admin.locations.create')).toEqual({
      name: 'admin.locations.create',
      description: 'Create locations',
      group: 'admin.locations',
      source: 'server-catalog',
      enabled: true,
    });
    expect(owner('admin.nests.list')).toMatchObject({ description: 'List egg categories (nests)', group: 'admin.nests', source: 'server-catalog' });
    expect(owner('admin.egg.delete')).toMatchObject({ description: 'Delete eggs', group: 'admin.egg', source: 'server-catalog' });
    expect(owner('admin.servers.edit')).toMatchObject({ description: 'Edit servers', group: 'admin.servers', source: 'servers' });
    expect(owner('admin.server.queue.logs.view')).toEqual({
      name: 'admin.server.queue.logs.view',
      description: 'View the server queue logs',
      group: 'admin.server.queue',
      source: 'servers',
      enabled: true,
    });
    expect(owner('user.permission.vip')).toMatchObject({ description: 'Create servers on VIP eggs or locations', group: 'user.permission', source: 'servers' });
    expect(owner('admin.sso.create')).toMatchObject({ group: 'admin.sso', source: 'auth' });
    expect(owner('user.permission.alt')).toMatchObject({ source: 'core' });
    // the support desk's strings, as the core listed them before issue 10, now the tickets plugin's
    expect(owner('admin.tickets.view')).toMatchObject({ description: 'View ticket details', group: 'admin.tickets', source: 'tickets' });
    expect(owner('admin.departments.delete')).toMatchObject({ description: 'Delete ticket departments', group: 'admin.departments', source: 'tickets' });
    // issue 12's content plugins declare theirs (spec §6's strings)
    expect(owner('admin.announcements.create')).toMatchObject({ group: 'admin.announcements', source: 'announcements' });
    expect(owner('admin.images.delete')).toMatchObject({ group: 'admin.images', source: 'images' });
    // issue 13: the backups plugin declares spec §6's admin.backups strings
    expect(owner('admin.backups.list')).toMatchObject({ group: 'admin.backups', source: 'backups' });
    expect(names.filter((n: string) => n.startsWith('admin.backups.')).sort()).toEqual(['admin.backups.create', 'admin.backups.delete', 'admin.backups.list']);
    // a plugin's own permissions (its plugin.json `permissions`) are listed too, shown as its own
    const redeem = res.json().data.filter((p: { group: string }) => p.group === 'admin.redeem.codes');
    expect(redeem).toEqual(
      ['create', 'edit', 'delete', 'list'].map((verb) => ({
        name: `admin.redeem.codes.${verb}`,
        description: `${verb[0].toUpperCase()}${verb.slice(1)} redeem codes`,
        group: 'admin.redeem.codes',
        source: 'earn-redeem',
        enabled: true,
      })),
    );
    // the admin areas an administrator may switch off declare theirs; the core keeps its own areas'
    expect(owner('admin.dashboard.components.system.overview')).toMatchObject({
      description: "See the dashboard's system overview component",
      group: 'admin.dashboard',
      source: 'admin-dashboard',
    });
    expect(owner('admin.health.view')).toMatchObject({ description: 'View the health page', group: 'admin.health', source: 'admin-health' });
    expect(owner('admin.mail.templates.list')).toMatchObject({ description: 'List mail templates', group: 'admin.mail.templates', source: 'mail-templates' });
    expect(owner('admin.redirect.links.edit')).toMatchObject({ description: 'Edit redirect links', group: 'admin.redirect.links', source: 'redirect-links' });
    for (const name of ['admin.users.list', 'admin.roles.edit', 'admin.permissions.list', 'admin.settings.edit', 'admin.plugins.edit']) {
      expect(owner(name), name).toMatchObject({ source: 'core', enabled: true });
    }
  });

  it('marks a disabled plugin’s permissions as such, and they stay grantable', async () => {
    const mail = (data: { name: string; enabled: boolean }[]) => data.filter((p) => p.name.startsWith('admin.mail.templates.'));
    expect((await req('POST', '/api/admin/plugins/mail-templates/disable', root)).statusCode).toBe(200);
    try {
      const off = await req('GET', '/api/admin/permissions', manager);
      expect(off.statusCode).toBe(200);
      expect(mail(off.json().data).map((p) => [p.name, p.enabled])).toEqual(['create', 'edit', 'delete', 'list'].map((v) => [`admin.mail.templates.${v}`, false]));
      expect(off.json().data.find((p: { name: string }) => p.name === 'admin.users.list')).toMatchObject({ enabled: true });
      // granted and taken away while the plugin is off: the role keeps exactly what was chosen
      const role = await roleWith(panel, ['admin.users.list']);
      const granted = await req('PUT', `/api/admin/roles/${role}/permissions`, root, { permissions: ['admin.mail.templates.list', 'admin.users.list'] });
      expect(granted.statusCode).toBe(200);
      expect(granted.json().permissions).toEqual(['admin.mail.templates.list', 'admin.users.list']);
      const revoked = await req('PUT', `/api/admin/roles/${role}/permissions`, root, { permissions: ['admin.users.list'] });
      expect(revoked.json().permissions).toEqual(['admin.users.list']);
    } finally {
      expect((await req('POST', '/api/admin/plugins/mail-templates/enable', root)).statusCode).toBe(200);
    }
    const on = await req('GET', '/api/admin/permissions', manager);
    expect(mail(on.json().data).every((p) => p.enabled)).toBe(true);
  });

  it('lists the seeded roles with their permissions and user counts', async () => {
    const list = (await req('GET', '/api/admin/roles', manager)).json().data;
    expect(list.slice(0, 8).map((r: { real_name: string }) => r.real_name)).toEqual([
      'Default',
      'VIP',
      'Support Buddy',
      'Support',
      'Support LVL 3',
      'Support LVL 4',
      'Admin',
      'Administrator',
    ]);
    expect(list[7]).toMatchObject({ id: 8, permissions: ['admin.root'], users: 1, protected: true, color: '#808080' });
    expect(list[0]).toMatchObject({ id: 1, protected: true });
    expect(list[1]).toMatchObject({ id: 2, protected: false });
  });

  it('creates, renames and deletes a role; names are unique', async () => {
    const created = await req('POST', '/api/admin/roles', manager, { name: 'moderator', real_name: 'Moderator', color: '#ff0000' });
    expect(created.statusCode).toBe(201);
    const id = created.json().role.id;
    expect(created.json().role).toMatchObject({ name: 'moderator', real_name: 'Moderator', color: '#ff0000', permissions: [], users: 0 });
    const dup = await req('POST', '/api/admin/roles', manager, { name: 'moderator', real_name: 'Again' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'ROLE_NAME_TAKEN', field: 'name' });
    expect((await req('PATCH', `/api/admin/roles/${id}`, manager, { name: 'vip' })).json().error.code).toBe('ROLE_NAME_TAKEN');
    const renamed = await req('PATCH', `/api/admin/roles/${id}`, manager, { real_name: 'Mods' });
    expect(renamed.json().role.real_name).toBe('Mods');
    expect((await req('DELETE', `/api/admin/roles/${id}`, manager)).json()).toEqual({ success: true });
    expect((await req('GET', `/api/admin/roles/${id}`, manager)).statusCode).toBe(404);
  });

  it('refuses bad role input and changes nothing', async () => {
    const before = await roleCount();
    for (const payload of [
      {},
      { name: 'Bad Name', real_name: 'x' },
      { name: 'ok', real_name: '' },
      { name: 'ok', real_name: 'x', color: 'red' },
      { name: 'a'.repeat(65), real_name: 'x' },
    ]) {
      const res = await req('POST', '/api/admin/roles', manager, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await req('PATCH', '/api/admin/roles/2', manager, {})).statusCode).toBe(400);
    expect((await req('GET', '/api/admin/roles/abc', manager)).statusCode).toBe(400);
    expect(await roleCount()).toBe(before);
  });

  it('protects role 1, root roles and roles in use', async () => {
    expect((await req('DELETE', '/api/admin/roles/1', root)).json().error.code).toBe('ROLE_PROTECTED');
    expect((await req('DELETE', '/api/admin/roles/8', root)).json().error.code).toBe('ROLE_PROTECTED');
    const used = await roleWith(panel, []);
    await userWithRole(panel, used);
    const res = await req('DELETE', `/api/admin/roles/${used}`, manager);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ROLE_IN_USE');
    expect((await req('GET', `/api/admin/roles/${used}`, manager)).statusCode).toBe(200);
  });

  it('changing a role’s permissions needs admin.permissions.edit (spec §6), not admin.roles.edit', async () => {
    const target = await roleWith(panel, ['admin.users.list']);
    const editor = await userWithRole(panel, await roleWith(panel, ['admin.roles.list', 'admin.roles.edit', 'admin.permissions.list', 'admin.users.list']));
    const refused = await req('PUT', `/api/admin/roles/${target}/permissions`, editor, { permissions: [] });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('PERMISSION_DENIED');
    // seeing needs list only
    expect((await req('GET', `/api/admin/roles/${target}/permissions`, editor)).json().permissions).toEqual(['admin.users.list']);
    // admin.permissions.edit without admin.roles.edit may change them (within what it holds)
    const granter = await userWithRole(panel, await roleWith(panel, ['admin.permissions.list', 'admin.permissions.edit', 'admin.users.list']));
    const saved = await req('PUT', `/api/admin/roles/${target}/permissions`, granter, { permissions: [] });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().permissions).toEqual([]);
    // and it still cannot rename the role
    expect((await req('PATCH', `/api/admin/roles/${target}`, granter, { real_name: 'Renamed' })).statusCode).toBe(403);
  });

  it('reads and replaces a role’s permissions; sessions see the change at once', async () => {
    const roleId = await roleWith(panel, []);
    const member = await userWithRole(panel, roleId);
    const put = await req('PUT', `/api/admin/roles/${roleId}/permissions`, manager, { permissions: ['admin.roles.list', 'admin.users.list'] });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ role_id: roleId, permissions: ['admin.roles.list', 'admin.users.list'] });
    expect((await req('GET', `/api/admin/roles/${roleId}/permissions`, manager)).json().permissions).toEqual(['admin.roles.list', 'admin.users.list']);
    const session = (await panel.app.inject({ url: '/api/user/session', headers: { cookie: member.cookie } })).json();
    expect(session.permissions).toEqual(['admin.roles.list', 'admin.users.list']);
    expect((await req('GET', '/api/admin/roles', member)).statusCode).toBe(200);

    await req('PUT', `/api/admin/roles/${roleId}/permissions`, manager, { permissions: ['admin.users.list'] });
    expect((await req('GET', '/api/admin/roles', member)).statusCode).toBe(403);
    const entry = await panel.services.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'admin.role.permissions')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details)).toEqual({ role_id: roleId, added: '', removed: 'admin.roles.list' });
  });

  it('refuses unknown permissions, escalation and taking admin.root from roles 7 and 8', async () => {
    const roleId = await roleWith(panel, ['admin.users.list']);
    const cases: [SignedInUser, number, string[], number, string][] = [
      [manager, roleId, ['admin.users.list', 'admin.nope.view'], 400, 'UNKNOWN_PERMISSION'],
      [manager, roleId, ['admin.root'], 403, 'PERMISSION_ESCALATION'],
      [manager, roleId, ['admin.users.list', 'admin.settings.edit'], 403, 'PERMISSION_ESCALATION'],
      [manager, managerRole, ['admin.root', 'admin.roles.edit'], 403, 'PERMISSION_ESCALATION'],
      [root, 8, [], 409, 'ROLE_ROOT_LOCKED'],
      [root, 7, ['admin.users.list'], 409, 'ROLE_ROOT_LOCKED'],
    ];
    for (const [who, id, permissions, status, code] of cases) {
      const res = await req('PUT', `/api/admin/roles/${id}/permissions`, who, { permissions });
      expect(res.statusCode, `${id} ${permissions.join(',')}`).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    expect((await req('PUT', `/api/admin/roles/${roleId}/permissions`, manager, { permissions: [5] })).statusCode).toBe(400);
    expect((await req('PUT', `/api/admin/roles/${roleId}/permissions`, manager, {})).statusCode).toBe(400);
    expect((await req('PUT', `/api/admin/roles/${roleId}/permissions`, manager, { permissions: ['a.b', 'a.b'] })).statusCode).toBe(400);
    expect((await req('GET', `/api/admin/roles/${roleId}/permissions`, manager)).json().permissions).toEqual(['admin.users.list']);
    expect((await req('GET', '/api/admin/roles/8/permissions', manager)).json().permissions).toEqual(['admin.root']);
    // a string the role already holds stays when nobody declares it (any more, or yet: a feature whose
    // plugin was removed), so the role's other changes can be saved; it cannot be added anew
    const holder = await roleWith(panel, ['admin.users.list', 'admin.retired.list']);
    const kept = await req('PUT', `/api/admin/roles/${holder}/permissions`, manager, { permissions: ['admin.retired.list', 'admin.roles.list', 'admin.users.list'] });
    expect(kept.statusCode).toBe(200);
    expect(kept.json().permissions).toEqual(['admin.retired.list', 'admin.roles.list', 'admin.users.list']);
    expect((await req('PUT', `/api/admin/roles/${roleId}/permissions`, manager, { permissions: ['admin.retired.list', 'admin.users.list'] })).json().error).toMatchObject({
      code: 'UNKNOWN_PERMISSION',
    });
    // a manager without admin.root cannot edit or delete a role holding more than they do
    expect((await req('PATCH', '/api/admin/roles/8', manager, { color: '#000000' })).json().error.code).toBe('PERMISSION_ESCALATION');
  });

  it('refuses to take admin.root from the role of the last administrator', async () => {
    await onlyNewRootHolders(panel, 0);
    const rootRole = await roleWith(panel, ['admin.root']);
    const last = await userWithRole(panel, rootRole);
    const res = await req('PUT', `/api/admin/roles/${rootRole}/permissions`, last, { permissions: ['admin.users.list'] });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('LAST_ADMINISTRATOR');
    expect((await req('GET', `/api/admin/roles/${rootRole}/permissions`, last)).json().permissions).toEqual(['admin.root']);
    expect(await activeRootHolders(panel)).toEqual([last.id]);

    // with an administrator elsewhere it is an ordinary change
    const [other] = await onlyNewRootHolders(panel, 1);
    await panel.services.database.db.updateTable('users').set({ role_id: rootRole }).where('id', '=', last.id).execute();
    expect((await req('PUT', `/api/admin/roles/${rootRole}/permissions`, other, { permissions: ['admin.users.list'] })).statusCode).toBe(200);
    expect(await activeRootHolders(panel)).toEqual([other.id]);
  });

  it('keeps one administrator when two take admin.root from each other’s role at the same moment', async () => {
    await onlyNewRootHolders(panel, 0);
    const roles = [await roleWith(panel, ['admin.root']), await roleWith(panel, ['admin.root'])];
    const admins = [await userWithRole(panel, roles[0]), await userWithRole(panel, roles[1])];
    const answers = await Promise.all([
      req('PUT', `/api/admin/roles/${roles[1]}/permissions`, admins[0], { permissions: [] }),
      req('PUT', `/api/admin/roles/${roles[0]}/permissions`, admins[1], { permissions: [] }),
    ]);
    expectOneWinner(answers);
    expect(await activeRootHolders(panel)).toHaveLength(1);
  });
});
