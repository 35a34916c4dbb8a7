// The staff desk's assigning and ordering, on every dialect: the assignee list is the staff who may
// work tickets (not banned, admin.tickets.view or admin.root) and, per department, only those who
// see it — the same rule as ticket mail; a ticket is assigned only to such staff; the list filters
// by "mine" and "nobody's" and sorts by priority (a CASE over a string column) or by last activity.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import type { TicketTables } from '../server/tables';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const DEPARTMENTS = '/api/admin/departments';

describe.each(testDialects())('assigning and sorting tickets on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let root: SignedInUser;
  let general: number;
  let billing: number;
  /** staff limited to billing, staff of every department, a lister without view, a banned agent */
  let billingAgent: SignedInUser;
  let agent: SignedInUser;
  let lister: SignedInUser;
  let banned: SignedInUser;
  let customer: SignedInUser;

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & TicketTables>;
  type Method = 'GET' | 'POST' | 'PATCH';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  const ticketRow = (id: number) => db().selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function department(name: string, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await call(root, 'POST', DEPARTMENTS, { name, ...extra });
    if (res.statusCode !== 201) throw new Error(`department: ${res.statusCode} ${res.body}`);
    return res.json().department.id;
  }

  async function open(who: SignedInUser, extra: Record<string, unknown> = {}): Promise<number> {
    clock.advance(1000);
    const res = await call(who, 'POST', MINE, { department_id: general, subject: 'Server will not start', priority: 'medium', message: 'It crashes.', ...extra });
    if (res.statusCode !== 201) throw new Error(`open: ${res.statusCode} ${res.body}`);
    return res.json().ticket.id;
  }

  const assignees = async (who: SignedInUser, query = '') => {
    const res = await call(who, 'GET', `${STAFF}/assignees${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { id: number; username: string; uuid: string }[]; me: number };
  };

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2030-03-01T10:00:00.000Z'));
    panel = await startPanel(dialect, { jobs: false, clock });
    root = await userWithRole(panel, 8);
    general = await department('General');
    const staffRole = ['admin.tickets.list', 'admin.tickets.view'];
    const billingRole = await roleWith(panel, staffRole);
    billing = await department('Billing', { role_ids: [billingRole] });
    billingAgent = await userWithRole(panel, billingRole);
    agent = await userWithRole(panel, await roleWith(panel, staffRole));
    lister = await userWithRole(panel, await roleWith(panel, ['admin.tickets.list']));
    const bannedRole = await roleWith(panel, staffRole);
    banned = await userWithRole(panel, bannedRole);
    await panel.services.database.db.updateTable('users').set({ banned: 1 }).where('id', '=', banned.id).execute();
    customer = await userWithRole(panel, 1);
    // the customer may hold at most 3 open tickets by default; this file opens more
    await panel.services.settings.set('tickets_max_open', 100);
    await panel.services.settings.set('rate_limit_tickets_create_per_account', 1_000_000);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('lists the staff who may work tickets — not banned, not customers, not those who only list — and the caller', async () => {
    const everyone = await assignees(agent);
    const ids = everyone.data.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([root.id, agent.id, billingAgent.id]));
    for (const outsider of [lister, banned, customer]) expect(ids).not.toContain(outsider.id);
    expect(everyone.me).toBe(agent.id);
    expect(everyone.data.find((p) => p.id === agent.id)).toMatchObject({ uuid: agent.uuid, username: agent.username });
    // ordered by name, case-insensitively
    const names = everyone.data.map((p) => p.username.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it('lists per department only the staff who see it, the same rule as ticket mail', async () => {
    const ofGeneral = (await assignees(root, `?department_id=${general}`)).data.map((p) => p.id);
    expect(ofGeneral).toEqual(expect.arrayContaining([root.id, agent.id]));
    expect(ofGeneral).not.toContain(billingAgent.id);
    const ofBilling = (await assignees(root, `?department_id=${billing}`)).data.map((p) => p.id);
    expect(ofBilling).toEqual(expect.arrayContaining([root.id, agent.id, billingAgent.id]));
    // a department outside the caller's own, or none at all, is not found
    for (const query of [`?department_id=${general}`, '?department_id=999999']) {
      const res = await call(billingAgent, 'GET', `${STAFF}/assignees${query}`);
      expect(res.statusCode, query).toBe(404);
      expect(res.json().error.code).toBe('DEPARTMENT_NOT_FOUND');
    }
    expect((await call(lister, 'GET', `${STAFF}/assignees`)).statusCode).toBe(403);
    expect((await call(customer, 'GET', `${STAFF}/assignees`)).statusCode).toBe(403);
  });

  it('lists by name the departments the caller works in, and only those', async () => {
    const names = async (who: SignedInUser) => (await call(who, 'GET', `${STAFF}/departments`)).json().data as { id: number; name: string; enabled: boolean }[];
    expect(await names(billingAgent)).toEqual([{ id: billing, name: 'Billing', enabled: true }]);
    const all = (await names(agent)).map((d) => d.id);
    expect(all).toEqual(expect.arrayContaining([general, billing]));
    expect((await names(root)).map((d) => d.id)).toEqual(all);
    expect((await call(lister, 'GET', `${STAFF}/departments`)).statusCode).toBe(403);
  });

  it('assigns only to staff who see the ticket’s department; a refused change changes nothing', async () => {
    const id = await open(customer);
    const refused = async (payload: Record<string, unknown>, code: string) => {
      const res = await call(root, 'PATCH', `${STAFF}/${id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatchObject({ code, field: 'assigned_to' });
    };
    await refused({ assigned_to: billingAgent.id }, 'ASSIGNEE_OUT_OF_SCOPE');
    await refused({ assigned_to: banned.id }, 'NOT_STAFF');
    await refused({ assigned_to: lister.id }, 'NOT_STAFF');
    await refused({ assigned_to: customer.id }, 'NOT_STAFF');
    // moving the ticket away from the assignee's reach in the same change is refused as a whole
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: agent.id })).statusCode).toBe(200);
    await refused({ assigned_to: billingAgent.id, department_id: general, priority: 'urgent' }, 'ASSIGNEE_OUT_OF_SCOPE');
    expect(await ticketRow(id)).toMatchObject({ assigned_to: agent.id, department_id: general, priority: 'medium' });
    // …while moving it into their department with them assigned is fine
    const moved = await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: billingAgent.id, department_id: billing });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().ticket).toMatchObject({ assigned_to: billingAgent.id, department_id: billing });
    // and nobody again
    expect((await call(billingAgent, 'PATCH', `${STAFF}/${id}`, { assigned_to: null })).json().ticket.assigned_to).toBeNull();
  });

  it('unassigns a ticket moved out of its assignee’s reach, and keeps one they still see', async () => {
    const id = await open(customer, { department_id: billing });
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: billingAgent.id })).statusCode).toBe(200);
    const moved = await call(root, 'PATCH', `${STAFF}/${id}`, { department_id: general });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().ticket).toMatchObject({ department_id: general, assigned_to: null });
    const audit = await db()
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'admin.ticket.update')
      .where('target_user_id', '=', customer.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(String(audit.details)).toContain(`${billingAgent.id}→null`);
    // someone who sees every department stays assigned
    await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: agent.id });
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { department_id: billing })).json().ticket).toMatchObject({ department_id: billing, assigned_to: agent.id });
  });

  it('filters the list by the caller’s own tickets and by nobody’s', async () => {
    const [mine, theirs, nobodys] = [await open(customer), await open(customer), await open(customer)];
    await call(agent, 'PATCH', `${STAFF}/${mine}`, { assigned_to: agent.id });
    await call(agent, 'PATCH', `${STAFF}/${theirs}`, { assigned_to: root.id });
    const list = async (who: SignedInUser, query: string) => (await call(who, 'GET', `${STAFF}?per_page=100&${query}`)).json().data.map((t: { id: number }) => t.id);
    const agentsOwn = await list(agent, 'assignee=me');
    expect(agentsOwn).toContain(mine);
    expect(agentsOwn).not.toContain(theirs);
    expect(agentsOwn).not.toContain(nobodys);
    expect(await list(root, 'assignee=me')).toContain(theirs);
    const unassigned = await list(agent, 'assignee=nobody');
    expect(unassigned).toContain(nobodys);
    expect(unassigned).not.toContain(mine);
    expect(unassigned).not.toContain(theirs);
    expect(await list(agent, `assigned_to=${root.id}`)).toEqual(expect.arrayContaining([theirs]));
    const both = await call(agent, 'GET', `${STAFF}?assignee=me&assigned_to=${root.id}`);
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'assignee' });
    expect((await call(agent, 'GET', `${STAFF}?assignee=someone`)).statusCode).toBe(400);
  });

  it('names each ticket’s department in both lists, a disabled department too', async () => {
    const closing = await department(`Closing ${dialect}`);
    const id = await open(customer, { department_id: closing });
    expect((await call(root, 'PATCH', `${DEPARTMENTS}/${closing}`, { enabled: false })).statusCode).toBe(200);
    const mine = (await call(customer, 'GET', `${MINE}?per_page=100`)).json().data.find((t: { id: number }) => t.id === id);
    expect(mine).toMatchObject({ department_id: closing, department_name: `Closing ${dialect}` });
    const staffRow = (await call(agent, 'GET', `${STAFF}?per_page=100&department_id=${closing}`)).json().data[0];
    expect(staffRow).toMatchObject({ id, department_name: `Closing ${dialect}` });
  });

  it('sorts by last activity by default, or by priority (urgent first, then last activity)', async () => {
    const department_id = await department(`Sorting ${dialect}`);
    const ids: Record<string, number> = {};
    for (const [name, priority] of [
      ['oldUrgent', 'urgent'],
      ['low', 'low'],
      ['high', 'high'],
      ['newUrgent', 'urgent'],
      ['medium', 'medium'],
    ] as const) {
      ids[name] = await open(customer, { department_id, priority, subject: `Sorting ${name}` });
    }
    // activity moves the low one to the top of the default order
    clock.advance(1000);
    await call(customer, 'POST', `${MINE}/${ids.low}/replies`, { message: 'Still broken' });
    const order = async (query: string) => (await call(root, 'GET', `${STAFF}?per_page=100&department_id=${department_id}${query}`)).json().data.map((t: { id: number }) => t.id);
    expect(await order('')).toEqual([ids.low, ids.medium, ids.newUrgent, ids.high, ids.oldUrgent]);
    expect(await order('&sort=activity')).toEqual([ids.low, ids.medium, ids.newUrgent, ids.high, ids.oldUrgent]);
    expect(await order('&sort=priority')).toEqual([ids.newUrgent, ids.oldUrgent, ids.high, ids.medium, ids.low]);
    // paging keeps the order
    const page2 = (await call(root, 'GET', `${STAFF}?per_page=2&page=2&sort=priority&department_id=${department_id}`)).json().data.map((t: { id: number }) => t.id);
    expect(page2).toEqual([ids.high, ids.medium]);
    expect((await call(root, 'GET', `${STAFF}?sort=subject`)).statusCode).toBe(400);
  });
});
