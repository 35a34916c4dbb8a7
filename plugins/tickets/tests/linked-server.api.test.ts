// A ticket's linked server and the customer card, on every dialect: a customer names one of their own
// servers when opening a ticket (another's or an unknown one: 400 SERVER_NOT_YOURS, nothing written),
// sees it on the ticket; staff see it with its panel link, the customer's servers, name, e-mail, role,
// coins, and check a support PIN without learning it. The servers plugin is optional: switched off,
// tickets still open (no server to choose, none accepted) and the card says the servers are unknown.
import type { Generated, Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { setRolePermissions, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import type { TicketTables } from '../server/tables';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const PANEL = 'https://panel.example.com';

/** the columns of the servers plugin's table a test row fills (its own tables are its business: written here as setup only) */
interface ServerRowsTable {
  id: Generated<number>;
  user_id: number;
  queue_entry_id: number | null;
  panel_id: number;
  identifier: string;
  name: string;
  description: string | null;
  location_id: number;
  egg_id: number;
  ram: number;
  disk: number;
  cpu: number;
  ports: number;
  databases: number;
  backups: number;
  status: 'active' | 'suspended';
  suspended_reason: string | null;
  suspended_at: string | null;
  expires_at: string | null;
  reminded_for: string | null;
  created_at: string;
  updated_at: string;
}

describe.each(testDialects())('linked servers on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let general: number;
  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & TicketTables & { servers: ServerRowsTable }>;
  type Method = 'GET' | 'POST' | 'PATCH';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });

  let serial = 0;
  async function serverOf(user: SignedInUser, name: string): Promise<number> {
    const now = new Date().toISOString();
    await db()
      .insertInto('servers')
      .values({
        user_id: user.id,
        queue_entry_id: null,
        panel_id: (serial += 1),
        identifier: `s${serial.toString().padStart(7, '0')}`,
        name,
        description: null,
        location_id: 1,
        egg_id: 1,
        ram: 1024,
        disk: 1024,
        cpu: 100,
        ports: 1,
        databases: 0,
        backups: 0,
        status: 'active',
        suspended_reason: null,
        suspended_at: null,
        expires_at: null,
        reminded_for: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
    // the newest of the user's servers (every dialect: MySQL has no RETURNING)
    const found = await db().selectFrom('servers').select('id').where('user_id', '=', user.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return Number(found.id);
  }

  async function open(who: SignedInUser, extra: Record<string, unknown> = {}) {
    return call(who, 'POST', MINE, { department_id: general, subject: 'Server will not start', message: 'It crashes on boot.', ...extra });
  }

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    await panel.services.settings.set('pterodactyl_base_url', PANEL);
    root = await userWithRole(panel, 8);
    const res = await call(root, 'POST', '/api/admin/departments', { name: 'General' });
    general = res.json().department.id;
  });
  afterAll(async () => {
    await panel?.close();
  });

  it("offers a customer only their own servers, takes one of them, and refuses another's or an unknown one without writing", async () => {
    const customer = await userWithRole(panel, 1);
    const stranger = await userWithRole(panel, 1);
    const survival = await serverOf(customer, 'Survival');
    const creative = await serverOf(customer, 'Creative');
    const theirs = await serverOf(stranger, 'Theirs');

    const choices = (await call(customer, 'GET', `${MINE}/servers`)).json();
    expect(choices.available).toBe(true);
    expect(choices.data.map((s: { id: number }) => s.id)).toEqual([creative, survival]);
    expect(choices.data[0]).toEqual({ id: creative, name: 'Creative', identifier: expect.any(String) });

    for (const serverId of [theirs, 2_000_000_000]) {
      const refused = await open(customer, { server_id: serverId });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error).toMatchObject({ code: 'SERVER_NOT_YOURS', field: 'server_id' });
    }
    for (const bad of ['1', 0, -1, 1.5, null]) expect((await open(customer, { server_id: bad })).statusCode).toBe(400);
    expect(await db().selectFrom('tickets').select('id').where('user_id', '=', customer.id).execute()).toHaveLength(0);

    const opened = await open(customer, { server_id: survival });
    expect(opened.statusCode).toBe(201);
    const id = opened.json().ticket.id;
    expect(Number((await db().selectFrom('tickets').select('server_id').where('id', '=', id).executeTakeFirstOrThrow()).server_id)).toBe(survival);
    expect((await call(customer, 'GET', `${MINE}/${id}/server`)).json()).toEqual({ server: { id: survival, name: 'Survival', identifier: expect.any(String) } });
    // another customer's ticket is as missing as one that does not exist
    expect((await call(stranger, 'GET', `${MINE}/${id}/server`)).statusCode).toBe(404);
    // a ticket without a server says so
    const plain = (await open(customer)).json().ticket.id;
    expect((await call(customer, 'GET', `${MINE}/${plain}/server`)).json()).toEqual({ server: null });
  });

  it("shows staff the customer's card: name, e-mail, role, coins, the linked server and their servers with panel links", async () => {
    const customer = await userWithRole(panel, 1);
    const survival = await serverOf(customer, 'Survival');
    const id = (await open(customer, { server_id: survival })).json().ticket.id;
    const card = await call(root, 'GET', `${STAFF}/${id}/customer`);
    expect(card.statusCode).toBe(200);
    const body = card.json();
    expect(body.customer).toMatchObject({ uuid: customer.uuid, username: customer.username, email: customer.email, coins: expect.any(Number), has_pin: false });
    expect(typeof body.customer.first_name).toBe('string');
    expect(body.customer.role_name).toEqual(expect.any(String));
    expect(body.linked_server).toMatchObject({ id: survival, owned: true, server: { id: survival, name: 'Survival', status: 'active' } });
    expect(body.linked_server.server.panel_url).toMatch(/^https:\/\/panel\.example\.com\//);
    expect(body.servers.map((s: { id: number }) => s.id)).toEqual([survival]);

    // the server changed hands since: still named, marked as no longer the customer's
    const other = await userWithRole(panel, 1);
    await db().updateTable('servers').set({ user_id: other.id }).where('id', '=', survival).execute();
    const moved = (await call(root, 'GET', `${STAFF}/${id}/customer`)).json();
    expect(moved.linked_server).toMatchObject({ id: survival, owned: false });
    expect(moved.servers).toEqual([]);
    expect((await call(customer, 'GET', `${MINE}/${id}/server`)).json()).toEqual({ server: null });
  });

  it("checks a support PIN without telling it, audited; only within the staff member's departments", async () => {
    const customer = await userWithRole(panel, 1);
    const id = (await open(customer)).json().ticket.id;
    const check = (who: SignedInUser, pin: unknown) => call(who, 'POST', `${STAFF}/${id}/customer/pin`, { pin });
    expect((await check(root, '123456')).json()).toEqual({ matches: false });
    const real = await panel.services.accountChanges.newSupportPin(customer.id);
    expect((await check(root, real)).json()).toEqual({ matches: true });
    const wrong = real === '000000' ? '000001' : '000000';
    expect((await check(root, wrong)).json()).toEqual({ matches: false });
    expect((await call(root, 'GET', `${STAFF}/${id}/customer`)).json().customer.has_pin).toBe(true);
    for (const bad of ['12345', '1234567', 'abcdef', 123456, '']) expect((await check(root, bad)).statusCode).toBe(400);
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'admin.ticket.pin_check')
      .where('target_user_id', '=', customer.id)
      .execute();
    expect(audit).toHaveLength(3);
    expect(JSON.stringify(audit)).not.toContain(real);

    // staff limited to another department see neither the card nor the check
    const elsewhere = (await call(root, 'POST', '/api/admin/departments', { name: 'Elsewhere', role_ids: [4] })).json().department.id;
    await call(root, 'PATCH', `/api/admin/departments/${general}`, { role_ids: [5] });
    try {
      await setRolePermissions(panel, 4, ['admin.tickets.list', 'admin.tickets.view']);
      const scoped = await userWithRole(panel, 4);
      expect((await call(scoped, 'GET', `${STAFF}/${id}/customer`)).statusCode).toBe(404);
      expect((await check(scoped, real)).statusCode).toBe(404);
      expect(elsewhere).toEqual(expect.any(Number));
    } finally {
      await call(root, 'PATCH', `/api/admin/departments/${general}`, { role_ids: [] });
    }
  });

  it('keeps tickets working while the servers plugin is off: no choices, no server accepted, the card says unknown', async () => {
    const customer = await userWithRole(panel, 1);
    const survival = await serverOf(customer, 'Survival');
    const linkedId = (await open(customer, { server_id: survival })).json().ticket.id;
    await panel.services.plugins.setEnabled('servers', false);
    try {
      expect((await call(customer, 'GET', `${MINE}/servers`)).json()).toEqual({ available: false, data: [] });
      const refused = await open(customer, { server_id: survival });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('SERVER_NOT_YOURS');
      expect((await open(customer)).statusCode).toBe(201);
      expect((await call(customer, 'GET', `${MINE}/${linkedId}/server`)).json()).toEqual({ server: null });
      const card = (await call(root, 'GET', `${STAFF}/${linkedId}/customer`)).json();
      expect(card.servers).toBeNull();
      expect(card.linked_server).toEqual({ id: survival, owned: false, server: null });
    } finally {
      await panel.services.plugins.setEnabled('servers', true);
    }
    expect((await call(customer, 'GET', `${MINE}/servers`)).json().available).toBe(true);
  });
});
