// /api/admin/users: search and paging, edit (role, names, e-mail, limits, ban), delete, activity —
// with the escalation rules, bad input answered 4xx and nothing changed by a refused request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';
import { activeRootHolders, expectOneWinner, onlyNewRootHolders } from './root-holders';

describe.each(testDialects())('admin users API on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let editor: SignedInUser;
  let target: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect);
    root = await userWithRole(panel, 8);
    const editorRole = await roleWith(panel, ['admin.users.list', 'admin.users.edit', 'admin.users.delete']);
    editor = await userWithRole(panel, editorRole);
    target = await userWithRole(panel, 1);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const req = (method: 'GET' | 'PATCH' | 'DELETE', url: string, who: SignedInUser, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  const userRow = (uuid: string) => panel.services.database.db.selectFrom('users').selectAll().where('uuid', '=', uuid).executeTakeFirst();

  it('lists users with paging and a total, and searches by username, email and uuid', async () => {
    const page1 = (await req('GET', '/api/admin/users?page=1&per_page=2', root)).json();
    expect(page1.data).toHaveLength(2);
    expect(page1.meta).toEqual({ page: 1, per_page: 2, total: expect.any(Number), total_pages: Math.ceil(page1.meta.total / 2) });
    expect(page1.meta.total).toBeGreaterThanOrEqual(3);
    const page2 = (await req('GET', '/api/admin/users?page=2&per_page=2', root)).json();
    expect(page2.data[0].uuid).not.toBe(page1.data[0].uuid);

    for (const term of [target.username.toUpperCase(), target.email, target.uuid.slice(0, 13)]) {
      const found = (await req('GET', `/api/admin/users?search=${encodeURIComponent(term)}`, root)).json();
      expect(found.data.map((u: { uuid: string }) => u.uuid)).toEqual([target.uuid]);
      expect(found.meta.total).toBe(1);
    }
    // LIKE wildcards in the search match themselves
    expect((await req('GET', '/api/admin/users?search=%25', root)).json().meta.total).toBe(0);
    expect(
      (await req('GET', '/api/admin/users?search=_', root)).json().data.every((u: { username: string; email: string }) => u.username.includes('_') || u.email.includes('_')),
    ).toBe(true);
    const one = (await req('GET', `/api/admin/users/${target.uuid}`, root)).json().user;
    expect(one).toMatchObject({ uuid: target.uuid, username: target.username, role: 1, role_name: 'Default', banned: false, ram: 1024, coins: 0 });
    expect(one).not.toHaveProperty('password_hash');
  });

  it('refuses bad paging, bad ids and unknown users', async () => {
    for (const q of ['page=0', 'per_page=0', 'per_page=101', 'page=abc', 'search=' + 'x'.repeat(255)]) {
      const res = await req('GET', `/api/admin/users?${q}`, root);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await req('GET', '/api/admin/users/not-a-uuid', root)).statusCode).toBe(400);
    const missing = await req('GET', '/api/admin/users/00000000-0000-4000-8000-000000000000', root);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.code).toBe('USER_NOT_FOUND');
  });

  it('edits names, e-mail, limits and role, and records it in the audit log', async () => {
    const res = await req('PATCH', `/api/admin/users/${target.uuid}`, editor, { first_name: 'Grace', email: 'Grace.New@Example.com', ram: 4096, server_slots: 3, role: 2 });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ first_name: 'Grace', email: 'Grace.New@Example.com', ram: 4096, server_slots: 3, role: 2, role_name: 'VIP' });
    const row = await userRow(target.uuid);
    expect(row).toMatchObject({ email_lower: 'grace.new@example.com', ram: 4096, role_id: 2 });
    const activity = (await req('GET', `/api/admin/users/${target.uuid}/activity`, editor)).json();
    expect(activity.data[0]).toMatchObject({ action: 'admin.user.update', actor: { uuid: editor.uuid, username: editor.username } });
    expect(activity.data[0].details).toMatchObject({ ram: 4096, role_id: 2, previous_role: 1 });
  });

  it('refuses bad input with 4xx and changes nothing', async () => {
    const before = await userRow(target.uuid);
    const bad: [Record<string, unknown>, number, string, string | undefined][] = [
      [{}, 400, 'VALIDATION_ERROR', undefined],
      [{ ram: -1 }, 400, 'VALIDATION_ERROR', 'ram'],
      [{ ram: 1.5 }, 400, 'VALIDATION_ERROR', 'ram'],
      [{ disk: 'lots' }, 400, 'VALIDATION_ERROR', 'disk'],
      [{ cpu: 3_000_000_000 }, 400, 'VALIDATION_ERROR', 'cpu'],
      [{ email: 'nope' }, 400, 'VALIDATION_ERROR', 'email'],
      [{ username: 'a b' }, 400, 'VALIDATION_ERROR', 'username'],
      [{ first_name: '' }, 400, 'VALIDATION_ERROR', 'first_name'],
      [{ role: 999 }, 400, 'VALIDATION_ERROR', 'role'],
      [{ banned: true }, 400, 'VALIDATION_ERROR', 'ban_reason'],
      [{ ban_reason: 'x' }, 400, 'VALIDATION_ERROR', 'ban_reason'],
      [{ coins: 1000 }, 400, 'COINS_NOT_EDITABLE', 'coins'],
      [{ ram: 1, coins: 5 }, 400, 'COINS_NOT_EDITABLE', 'coins'],
      [{ username: editor.username.toUpperCase() }, 409, 'USERNAME_TAKEN', 'username'],
      [{ email: editor.email.toUpperCase() }, 409, 'EMAIL_TAKEN', 'email'],
    ];
    for (const [payload, status, code, field] of bad) {
      const res = await req('PATCH', `/api/admin/users/${target.uuid}`, root, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error).toMatchObject({ code, ...(field ? { field } : {}) });
    }
    expect(await userRow(target.uuid)).toEqual(before);
  });

  it('bans with a reason (ending the sessions) and unbans', async () => {
    const victim = await userWithRole(panel, 1);
    const res = await req('PATCH', `/api/admin/users/${victim.uuid}`, editor, { banned: true, ban_reason: 'chargeback' });
    expect(res.json().user).toMatchObject({ banned: true, ban_reason: 'chargeback' });
    const session = await panel.app.inject({ url: '/api/user/session', headers: { cookie: victim.cookie } });
    expect(session.statusCode).toBe(401); // the ban revoked the session
    const unban = await req('PATCH', `/api/admin/users/${victim.uuid}`, editor, { banned: false });
    expect(unban.json().user).toMatchObject({ banned: false, ban_reason: null });
    const actions = (await req('GET', `/api/admin/users/${victim.uuid}/activity`, root)).json().data.map((e: { action: string }) => e.action);
    expect(actions.slice(0, 2)).toEqual(['admin.user.unban', 'admin.user.ban']);
  });

  it('keeps administrators from acting above their own permissions', async () => {
    const admin = await userWithRole(panel, 7);
    const before = await userRow(admin.uuid);
    // an editor without admin.root can neither change a root account nor hand out a root role
    for (const [uuid, payload] of [
      [admin.uuid, { first_name: 'Mallory' }],
      [target.uuid, { role: 8 }],
      [admin.uuid, { banned: true, ban_reason: 'x' }],
    ] as const) {
      const res = await req('PATCH', `/api/admin/users/${uuid}`, editor, payload);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('PERMISSION_ESCALATION');
    }
    const del = await req('DELETE', `/api/admin/users/${admin.uuid}`, editor);
    expect(del.json().error.code).toBe('PERMISSION_ESCALATION');
    expect(await userRow(admin.uuid)).toEqual(before);
    // nobody changes their own role, bans or deletes themselves here
    expect((await req('PATCH', `/api/admin/users/${root.uuid}`, root, { role: 1 })).json().error.code).toBe('CANNOT_CHANGE_OWN_ROLE');
    expect((await req('PATCH', `/api/admin/users/${root.uuid}`, root, { banned: true, ban_reason: 'x' })).json().error.code).toBe('CANNOT_BAN_SELF');
    expect((await req('DELETE', `/api/admin/users/${root.uuid}`, root)).json().error.code).toBe('CANNOT_DELETE_SELF');
  });

  it('deletes a user with their sessions, keeping the audit history', async () => {
    const gone = await userWithRole(panel, 1);
    const res = await req('DELETE', `/api/admin/users/${gone.uuid}`, editor);
    expect(res.json()).toEqual({ success: true });
    expect(await userRow(gone.uuid)).toBeUndefined();
    expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: gone.cookie } })).statusCode).toBe(401);
    expect((await req('DELETE', `/api/admin/users/${gone.uuid}`, editor)).statusCode).toBe(404);
    const entry = await panel.services.database.db.selectFrom('audit_log').selectAll().where('action', '=', 'admin.user.delete').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(entry.details)).toMatchObject({ uuid: gone.uuid, username: gone.username });
  });

  describe('the last administrator (two root administrators acting on each other at the same moment)', () => {
    const race = async (payload: Record<string, unknown> | null) => {
      const [first, second] = await onlyNewRootHolders(panel, 2);
      const answers = await Promise.all(
        [
          [first, second],
          [second, first],
        ].map(([who, other]) => req(payload ? 'PATCH' : 'DELETE', `/api/admin/users/${other.uuid}`, who, payload ?? undefined)),
      );
      expectOneWinner(answers);
      const left = await activeRootHolders(panel);
      expect(left).toHaveLength(1);
      expect([first.id, second.id]).toContain(left[0]);
    };

    it('keeps one when they delete each other', () => race(null));
    it('keeps one when they demote each other', () => race({ role: 1 }));
    it('keeps one when they move each other to a role without admin.root', async () => race({ role: await roleWith(panel, ['admin.users.list']) }));
    it('keeps one when they ban each other', () => race({ banned: true, ban_reason: 'mutiny' }));

    it('still moves a root administrator between two root roles', async () => {
      const [first, second] = await onlyNewRootHolders(panel, 2);
      const res = await req('PATCH', `/api/admin/users/${second.uuid}`, first, { role: 7 });
      expect(res.statusCode).toBe(200);
      expect(await activeRootHolders(panel)).toEqual([first.id, second.id]);
    });
  });

  it('changes nothing for a request refused by the permission check', async () => {
    const before = await userRow(target.uuid);
    const plain = await userWithRole(panel, 1);
    expect((await req('PATCH', `/api/admin/users/${target.uuid}`, plain, { ram: 1 })).statusCode).toBe(403);
    expect((await req('DELETE', `/api/admin/users/${target.uuid}`, plain)).statusCode).toBe(403);
    expect(await userRow(target.uuid)).toEqual(before);
  });
});
