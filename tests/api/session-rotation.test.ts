// Sessions after a change of privilege or of what protects the account:
// - an administrator gives a user a role that grants more → every session of that user ends (the new
//   rights start only with a fresh login, password and 2FA included); a pure demotion ends none but
//   applies on the very next request; other edits leave the sessions alone; a ban ends them all;
// - a role's permissions edited → no sign-outs, but every live session of its users feels the
//   change on its next request (permissions are never cached in the session);
// - 2FA turned on → the other sessions end, this one continues under a new token; 2FA turned off →
//   this session's token is replaced, the others stay;
// - password changed → the other sessions end, this one gets a new token.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { totpCode, totpStep } from '../../plugins/auth/server/totp';
import { cookieHeader, PASSWORD, register, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

describe.each(testDialects())('session rotation on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let listRole: number;
  let listAndEditRole: number;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    root = await userWithRole(panel, 8);
    listRole = await roleWith(panel, ['admin.users.list']);
    listAndEditRole = await roleWith(panel, ['admin.users.list', 'admin.users.edit']);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db;
  const sessionOf = (cookie: string) => panel.app.inject({ url: '/api/user/session', headers: { cookie } });
  const adminList = (cookie: string) => panel.app.inject({ url: '/api/admin/users?per_page=1', headers: { cookie } });
  const login = async (username: string) => {
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: username, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    return cookieHeader(res);
  };
  const editUser = (uuid: string, payload: Record<string, unknown>) =>
    panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${uuid}`, payload, headers: { cookie: root.cookie } });
  const liveSessions = async (userId: number) =>
    Number(
      (
        await db()
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .where('revoked_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lastAudit = async (userId: number, action: string) =>
    JSON.parse(
      (await db().selectFrom('audit_log').select('details').where('target_user_id', '=', userId).where('action', '=', action).orderBy('id', 'desc').executeTakeFirstOrThrow())
        .details,
    ) as Record<string, unknown>;

  /** A plain user signed in on two devices. */
  async function userOnTwoDevices(role = 1) {
    const user = await userWithRole(panel, role);
    const second = await login(user.username);
    return { ...user, devices: [user.cookie, second] };
  }

  it('ends every session of a user who is given a role that grants more, so the new rights start with a fresh login', async () => {
    const user = await userOnTwoDevices();
    expect((await adminList(user.devices[0])).statusCode).toBe(403);
    const res = await editUser(user.uuid, { role: listRole });
    expect(res.statusCode, res.body).toBe(200);
    for (const cookie of user.devices) {
      const after = await sessionOf(cookie);
      expect(after.statusCode).toBe(401);
      expect((await adminList(cookie)).statusCode).toBe(401);
    }
    expect(await liveSessions(user.id)).toBe(0);
    expect(await lastAudit(user.id, 'admin.user.update')).toMatchObject({ role_id: listRole, previous_role: 1, sessions_ended: 2 });
    // a fresh login carries the new role
    expect((await adminList(await login(user.username))).statusCode).toBe(200);
  });

  it('counts a sideways move that adds any permission as a gain', async () => {
    const user = await userOnTwoDevices(listRole);
    const otherRole = await roleWith(panel, ['admin.roles.list']);
    expect((await editUser(user.uuid, { role: otherRole })).statusCode).toBe(200);
    expect(await liveSessions(user.id)).toBe(0);
  });

  it('keeps the sessions of a demoted user, whose lost rights are refused on the very next request', async () => {
    const user = await userOnTwoDevices(listAndEditRole);
    expect((await adminList(user.devices[0])).statusCode).toBe(200);
    expect((await editUser(user.uuid, { role: listRole })).statusCode).toBe(200);
    expect(await liveSessions(user.id)).toBe(2);
    const patch = await panel.app.inject({ method: 'PATCH', url: `/api/admin/users/${root.uuid}`, payload: { first_name: 'Nope' }, headers: { cookie: user.devices[1] } });
    expect(patch.statusCode).toBe(403);
    expect((await adminList(user.devices[1])).statusCode).toBe(200);

    expect((await editUser(user.uuid, { role: 1 })).statusCode).toBe(200);
    expect(await liveSessions(user.id)).toBe(2);
    expect((await adminList(user.devices[0])).statusCode).toBe(403);
    expect((await sessionOf(user.devices[0])).statusCode).toBe(200);
    expect(await lastAudit(user.id, 'admin.user.update')).toMatchObject({ role_id: 1, sessions_ended: 0 });
  });

  it('leaves the sessions alone for edits that change no privilege, and ends them all on a ban', async () => {
    const user = await userOnTwoDevices();
    expect((await editUser(user.uuid, { first_name: 'Renamed', ram: 4096, role: 1 })).statusCode).toBe(200);
    expect(await liveSessions(user.id)).toBe(2);
    expect((await editUser(user.uuid, { banned: true, ban_reason: 'spam' })).statusCode).toBe(200);
    expect(await liveSessions(user.id)).toBe(0);
    expect(await lastAudit(user.id, 'admin.user.ban')).toMatchObject({ sessions_ended: 2 });
  });

  it("signs nobody out when a role's permissions change, and every live session feels it on its next request", async () => {
    const role = await roleWith(panel, ['admin.users.list']);
    const user = await userOnTwoDevices(role);
    expect((await adminList(user.devices[0])).statusCode).toBe(200);
    const put = (permissions: string[]) =>
      panel.app.inject({ method: 'PUT', url: `/api/admin/roles/${role}/permissions`, payload: { permissions }, headers: { cookie: root.cookie } });
    expect((await put([])).statusCode).toBe(200);
    expect(await liveSessions(user.id)).toBe(2);
    for (const cookie of user.devices) expect((await adminList(cookie)).statusCode).toBe(403);
    expect((await put(['admin.users.list'])).statusCode).toBe(200);
    for (const cookie of user.devices) expect((await adminList(cookie)).statusCode).toBe(200);
  });

  it('turning 2FA on ends the other sessions and moves this one to a new token', async () => {
    const user = await userOnTwoDevices();
    const [here, elsewhere] = user.devices;
    const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: here } });
    const confirm = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/2fa/setup',
      headers: { cookie: here },
      payload: { code: totpCode(setup.json().secret, totpStep()) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const rotated = cookieHeader(confirm);
    expect(rotated).not.toBe(here);
    expect((await sessionOf(rotated)).statusCode).toBe(200);
    expect((await sessionOf(here)).statusCode).toBe(401);
    expect((await sessionOf(elsewhere)).statusCode).toBe(401);
    expect(await liveSessions(user.id)).toBe(1);
    expect(await lastAudit(user.id, 'auth.2fa_enable')).toMatchObject({ sessions_ended: 1 });
  });

  it('turning 2FA off moves this session to a new token and keeps the others', async () => {
    const user = await userOnTwoDevices();
    const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: user.devices[0] } });
    const secret = setup.json().secret as string;
    const confirm = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/2fa/setup',
      headers: { cookie: user.devices[0] },
      payload: { code: totpCode(secret, totpStep()) },
    });
    const here = cookieHeader(confirm);
    // a second device that signed in with the factor
    await db()
      .updateTable('auth_two_factor' as never)
      .set({ last_used_step: null } as never)
      .where('user_id' as never, '=', user.id as never)
      .execute();
    const pending = await login(user.username);
    const verify = await panel.app.inject({ method: 'POST', url: '/api/user/auth/2fa/verify', headers: { cookie: pending }, payload: { code: totpCode(secret, totpStep()) } });
    expect(verify.statusCode, verify.body).toBe(200);
    const elsewhere = cookieHeader(verify);

    const kill = await panel.app.inject({ url: '/api/auth/2fa/setup/kill', headers: { cookie: here, accept: 'application/json' } });
    expect(kill.statusCode, kill.body).toBe(200);
    const rotated = cookieHeader(kill);
    expect(rotated).toContain('op_session=');
    expect((await sessionOf(here)).statusCode).toBe(401);
    const now = await sessionOf(rotated);
    expect(now.statusCode).toBe(200);
    expect(now.json().user_info.two_fa_enabled).toBe(false);
    expect((await sessionOf(elsewhere)).statusCode).toBe(200);
  });

  it('changing the password ends the other sessions and moves this one to a new token', async () => {
    const account = await register(panel.app);
    const elsewhere = await login(account.body.username);
    const res = await panel.app.inject({
      method: 'POST',
      url: '/api/user/session/password/change',
      headers: { cookie: account.cookie },
      payload: { current_password: PASSWORD, new_password: 'a brand new password' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await sessionOf(cookieHeader(res))).statusCode).toBe(200);
    expect((await sessionOf(account.cookie)).statusCode).toBe(401);
    expect((await sessionOf(elsewhere)).statusCode).toBe(401);
  });
});
