// The tickets plugin on every dialect: customers see and change only their own tickets (never a
// staff note), within the open-ticket limit, the length bounds and the rate limits; status follows
// who spoke; reopening has a deadline; staff see only their role's departments; every staff action
// is audited; a department with tickets cannot be deleted; replied tickets close by themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import type { TicketTables } from '../server/tables';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const DEPARTMENTS = '/api/admin/departments';
const DAY = 86_400_000;

describe.each(testDialects())('tickets on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let root: SignedInUser;
  let general: number;
  let billing: number;

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & TicketTables>;
  type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });

  async function department(name: string, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await call(root, 'POST', DEPARTMENTS, { name, ...extra });
    if (res.statusCode !== 201) throw new Error(`department: ${res.statusCode} ${res.body}`);
    return res.json().department.id;
  }

  async function open(who: SignedInUser, extra: Record<string, unknown> = {}): Promise<number> {
    const res = await call(who, 'POST', MINE, { department_id: general, subject: 'Server will not start', priority: 'high', message: 'It crashes on boot.', ...extra });
    if (res.statusCode !== 201) throw new Error(`open: ${res.statusCode} ${res.body}`);
    return res.json().ticket.id;
  }

  const ticketRow = (id: number) => db().selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2030-03-01T10:00:00.000Z'));
    panel = await startPanel(dialect, { jobs: false, clock });
    root = await userWithRole(panel, 8);
    general = await department('General');
    billing = await department('Billing', { description: 'Payments' });
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('opens a ticket in an enabled department only, within the length bounds, and lists it as the owner sees it', async () => {
    const user = await userWithRole(panel, 1);
    const closedDept = await department('Closed desk', { enabled: false });
    const departments = (await call(user, 'GET', `${MINE}/departments`)).json().data.map((d: { name: string }) => d.name);
    expect(departments).toEqual(expect.arrayContaining(['General', 'Billing']));
    expect(departments).not.toContain('Closed desk');

    const bad = [
      [{ department_id: closedDept }, 'DEPARTMENT_UNAVAILABLE'],
      [{ department_id: 999_999 }, 'DEPARTMENT_UNAVAILABLE'],
      [{ subject: 'ab' }, 'VALIDATION_ERROR'],
      [{ subject: '   ab   ' }, 'VALIDATION_ERROR'],
      [{ subject: 'x'.repeat(201) }, 'VALIDATION_ERROR'],
      [{ message: 'x'.repeat(10_001) }, 'VALIDATION_ERROR'],
      [{ message: '   ' }, 'VALIDATION_ERROR'],
      [{ priority: 'critical' }, 'VALIDATION_ERROR'],
    ] as const;
    for (const [change, code] of bad) {
      const res = await call(user, 'POST', MINE, { department_id: general, subject: 'Valid subject', message: 'Hello', ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().error.code).toBe(code);
    }
    expect(await db().selectFrom('tickets').select('id').where('user_id', '=', user.id).execute()).toHaveLength(0);

    const id = await open(user, { subject: '  Lag spikes  ', priority: 'urgent' });
    const list = (await call(user, 'GET', MINE)).json();
    expect(list.meta).toMatchObject({ page: 1, total: 1 });
    expect(list.data[0]).toMatchObject({ id, subject: 'Lag spikes', priority: 'urgent', status: 'open', unread: false, department_id: general });
    const view = (await call(user, 'GET', `${MINE}/${id}`)).json();
    expect(view.messages).toEqual([expect.objectContaining({ body: 'It crashes on boot.', staff: false, internal: false, author: user.username })]);
    // priority defaults to medium
    const other = await userWithRole(panel, 1);
    const plain = (await call(other, 'POST', MINE, { department_id: billing, subject: 'Invoice', message: 'Where?' })).json();
    expect(plain.ticket.priority).toBe('medium');
  });

  it("hides another user's ticket (404) and every staff note from the customer", async () => {
    const [owner, stranger] = [await userWithRole(panel, 1), await userWithRole(panel, 1)];
    const id = await open(owner);
    for (const [method, url, payload] of [
      ['GET', `${MINE}/${id}`, undefined],
      ['POST', `${MINE}/${id}/replies`, { message: 'hi' }],
      ['POST', `${MINE}/${id}/close`, undefined],
      ['POST', `${MINE}/${id}/reopen`, undefined],
    ] as const) {
      const res = await call(stranger, method, url, payload);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error.code).toBe('TICKET_NOT_FOUND');
    }
    expect((await call(stranger, 'GET', MINE)).json().data).toEqual([]);
    expect((await call(root, 'POST', `${STAFF}/${id}/notes`, { message: 'Customer seems confused' })).statusCode).toBe(200);
    expect((await call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Try restarting' })).statusCode).toBe(200);
    const view = (await call(owner, 'GET', `${MINE}/${id}`)).json();
    expect(view.messages.map((m: { body: string }) => m.body)).toEqual(['It crashes on boot.', 'Try restarting']);
    expect(JSON.stringify(view)).not.toContain('confused');
    const staffView = (await call(root, 'GET', `${STAFF}/${id}`)).json();
    expect(staffView.messages.map((m: { body: string; internal: boolean }) => [m.body, m.internal])).toEqual([
      ['It crashes on boot.', false],
      ['Customer seems confused', true],
      ['Try restarting', false],
    ]);
    expect(staffView.customer).toMatchObject({ uuid: owner.uuid, username: owner.username, banned: false });
  });

  it('moves the status with who spoke, marks unread per side, and refuses replies on a closed ticket', async () => {
    const user = await userWithRole(panel, 1);
    const id = await open(user);
    expect((await ticketRow(id)).status).toBe('open');
    const staffUnread = async () => (await call(root, 'GET', `${STAFF}?search=${id}`)).json().data.find((t: { id: number }) => t.id === id).unread;
    expect(await staffUnread()).toBe(true);
    clock.advance(1000);
    await call(root, 'GET', `${STAFF}/${id}`);
    expect(await staffUnread()).toBe(false);

    clock.advance(1000);
    await call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Which version?' });
    expect((await ticketRow(id)).status).toBe('replied');
    const mineUnread = async () => (await call(user, 'GET', MINE)).json().data[0].unread;
    expect(await mineUnread()).toBe(true);
    clock.advance(1000);
    await call(user, 'GET', `${MINE}/${id}`);
    expect(await mineUnread()).toBe(false);

    // a note changes neither the status nor the customer's marker
    clock.advance(1000);
    await call(root, 'POST', `${STAFF}/${id}/notes`, { message: 'checking' });
    expect((await ticketRow(id)).status).toBe('replied');
    expect(await mineUnread()).toBe(false);

    clock.advance(1000);
    expect((await call(user, 'POST', `${MINE}/${id}/replies`, { message: '1.20' })).statusCode).toBe(200);
    expect((await ticketRow(id)).status).toBe('open');
    for (const status of ['inprogress', 'waiting'] as const) {
      expect((await call(root, 'PATCH', `${STAFF}/${id}`, { status })).json().ticket.status).toBe(status);
    }
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { status: 'replied' })).statusCode).toBe(400);

    expect((await call(user, 'POST', `${MINE}/${id}/close`)).statusCode).toBe(200);
    expect((await ticketRow(id)).status).toBe('closed');
    expect((await call(user, 'POST', `${MINE}/${id}/close`)).json().error.code).toBe('TICKET_CLOSED');
    const messages = (await db().selectFrom('ticket_messages').select('id').where('ticket_id', '=', id).execute()).length;
    const reply = await call(user, 'POST', `${MINE}/${id}/replies`, { message: 'again' });
    expect(reply.statusCode).toBe(409);
    expect(reply.json().error.code).toBe('TICKET_CLOSED');
    expect((await call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'late' })).json().error.code).toBe('TICKET_CLOSED');
    expect((await db().selectFrom('ticket_messages').select('id').where('ticket_id', '=', id).execute()).length).toBe(messages);
    expect((await call(user, 'GET', `${MINE}?status=closed`)).json().data.map((t: { id: number }) => t.id)).toEqual([id]);
    expect((await call(user, 'GET', `${MINE}?status=open`)).json().data).toEqual([]);
  });

  it('reopens within tickets_reopen_days of closing, not after', async () => {
    const user = await userWithRole(panel, 1);
    const [early, late] = [await open(user), await open(user)];
    expect((await call(user, 'POST', `${MINE}/${early}/reopen`)).json().error.code).toBe('TICKET_NOT_CLOSED');
    await call(user, 'POST', `${MINE}/${early}/close`);
    await call(user, 'POST', `${MINE}/${late}/close`);
    clock.advance(6 * DAY);
    expect((await call(user, 'POST', `${MINE}/${early}/reopen`)).statusCode).toBe(200);
    expect((await ticketRow(early)).status).toBe('open');
    clock.advance(2 * DAY);
    const res = await call(user, 'POST', `${MINE}/${late}/reopen`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('REOPEN_EXPIRED');
    expect((await ticketRow(late)).status).toBe('closed');
  });

  it('limits the open tickets of a customer to tickets_max_open', async () => {
    const user = await userWithRole(panel, 1);
    const ids = [await open(user), await open(user), await open(user)];
    const res = await call(user, 'POST', MINE, { department_id: general, subject: 'Fourth one', message: 'Hi' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('TOO_MANY_OPEN_TICKETS');
    await call(user, 'POST', `${MINE}/${ids[0]}/close`);
    const fourth = await open(user);
    // reopening counts as opening
    expect((await call(user, 'POST', `${MINE}/${ids[0]}/reopen`)).json().error.code).toBe('TOO_MANY_OPEN_TICKETS');
    await call(user, 'POST', `${MINE}/${fourth}/close`);
    expect((await call(user, 'POST', `${MINE}/${ids[0]}/reopen`)).statusCode).toBe(200);
  });

  it('keeps tickets_max_open when many tickets are opened at once', async () => {
    const user = await userWithRole(panel, 1);
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => call(user, 'POST', MINE, { department_id: general, subject: `Burst ${i}`, message: 'Hi' })));
    expect(answers.every((res) => [201, 409].includes(res.statusCode))).toBe(true);
    const open = await db().selectFrom('tickets').select('id').where('user_id', '=', user.id).where('status', '!=', 'closed').execute();
    expect(open.length).toBeLessThanOrEqual(3);
    expect(answers.filter((res) => res.statusCode === 201)).toHaveLength(open.length);
  });

  it('rate-limits opening tickets and replying per account', async () => {
    const user = await userWithRole(panel, 1);
    await panel.services.settings.set('rate_limit_tickets_create_per_account', 1);
    await panel.services.settings.set('rate_limit_tickets_reply_per_account', 2);
    try {
      const id = await open(user);
      expect((await call(user, 'POST', MINE, { department_id: general, subject: 'Again', message: 'Hi' })).statusCode).toBe(429);
      expect((await call(user, 'POST', `${MINE}/${id}/replies`, { message: 'one' })).statusCode).toBe(200);
      expect((await call(user, 'POST', `${MINE}/${id}/replies`, { message: 'two' })).statusCode).toBe(200);
      expect((await call(user, 'POST', `${MINE}/${id}/replies`, { message: 'three' })).statusCode).toBe(429);
      // another account has its own budget
      const other = await userWithRole(panel, 1);
      await open(other);
    } finally {
      await panel.services.settings.set('rate_limit_tickets_create_per_account', 1_000_000);
      await panel.services.settings.set('rate_limit_tickets_reply_per_account', 1_000_000);
    }
  });

  it('answers FEATURE_DISABLED on every customer route while allow_tickets is off', async () => {
    const user = await userWithRole(panel, 1);
    await panel.services.settings.set('allow_tickets', false);
    try {
      for (const url of [MINE, `${MINE}/departments`]) {
        const res = await call(user, 'GET', url);
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.json().error.code).toBe('FEATURE_DISABLED');
      }
      expect((await call(user, 'POST', MINE, { department_id: general, subject: 'Nope', message: 'Hi' })).json().error.code).toBe('FEATURE_DISABLED');
    } finally {
      await panel.services.settings.set('allow_tickets', true);
    }
  });

  it('keeps staff to their role’s departments on every route, list and count', async () => {
    const customer = await userWithRole(panel, 1);
    const inGeneral = await open(customer);
    const inBilling = await open(customer, { department_id: billing, subject: 'Refund please' });
    const scopedRole = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view']);
    const wideRole = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view']);
    const scoped = await userWithRole(panel, scopedRole);
    const wide = await userWithRole(panel, wideRole);
    expect((await call(root, 'PATCH', `${DEPARTMENTS}/${billing}`, { role_ids: [scopedRole] })).json().department.role_ids).toEqual([scopedRole]);
    try {
      const seen = async (who: SignedInUser) => (await call(who, 'GET', `${STAFF}?per_page=100`)).json().data.map((t: { id: number }) => t.id);
      expect(await seen(scoped)).toContain(inBilling);
      expect(await seen(scoped)).not.toContain(inGeneral);
      expect(await seen(wide)).toEqual(expect.arrayContaining([inGeneral, inBilling]));
      const counts = async (who: SignedInUser) => (await call(who, 'GET', `${STAFF}/counts`)).json().counts;
      const billingOpen = await db().selectFrom('tickets').select('id').where('department_id', '=', billing).where('status', '=', 'open').execute();
      expect((await counts(scoped)).open).toBe(billingOpen.length);
      expect((await counts(root)).open).toBeGreaterThan(billingOpen.length);

      for (const [method, url, payload] of [
        ['GET', `${STAFF}/${inGeneral}`, undefined],
        ['POST', `${STAFF}/${inGeneral}/replies`, { message: 'hi' }],
        ['POST', `${STAFF}/${inGeneral}/notes`, { message: 'hi' }],
        ['PATCH', `${STAFF}/${inGeneral}`, { priority: 'low' }],
      ] as const) {
        const res = await call(scoped, method, url, payload);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      expect((await ticketRow(inGeneral)).priority).toBe('high');
      // nor may they move a ticket out of their departments' reach into one outside them
      const moved = await call(scoped, 'PATCH', `${STAFF}/${inBilling}`, { department_id: general });
      expect(moved.statusCode).toBe(400);
      expect(Number((await ticketRow(inBilling)).department_id)).toBe(billing);
      expect((await call(scoped, 'GET', `${STAFF}/${inBilling}`)).statusCode).toBe(200);
      // admin.root sees every department, even with its role listed on one
      await call(root, 'PATCH', `${DEPARTMENTS}/${billing}`, { role_ids: [scopedRole, 8] });
      expect(await seen(root)).toEqual(expect.arrayContaining([inGeneral, inBilling]));
      expect((await call(root, 'GET', `${STAFF}/${inGeneral}`)).statusCode).toBe(200);
    } finally {
      await call(root, 'PATCH', `${DEPARTMENTS}/${billing}`, { role_ids: [] });
    }
  });

  it('filters and searches the staff list, and audits every staff action', async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer, { subject: 'Unique zebra subject', priority: 'low' });
    const list = async (query: string) => (await call(root, 'GET', `${STAFF}?per_page=100&${query}`)).json().data.map((t: { id: number }) => t.id);
    expect(await list('search=zebra')).toEqual([id]);
    expect(await list(`search=${customer.username}`)).toEqual([id]);
    expect(await list('search=100%25_')).toEqual([]);
    expect(await list('priority=low')).toContain(id);
    expect(await list('priority=urgent')).not.toContain(id);
    expect(await list(`department_id=${billing}`)).not.toContain(id);
    expect(await list('unanswered=true')).toContain(id);

    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: root.id, priority: 'urgent', department_id: billing })).statusCode).toBe(200);
    expect(await list(`assigned_to=${root.id}`)).toContain(id);
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: 2_000_000_000 })).json().error.code).toBe('UNKNOWN_USER');
    // only staff are assigned, and only to a department that exists; a refused change changes nothing
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: customer.id })).json().error.code).toBe('NOT_STAFF');
    expect((await call(root, 'PATCH', `${STAFF}/${id}`, { department_id: 999_999 })).json().error.code).toBe('DEPARTMENT_UNAVAILABLE');
    expect(await ticketRow(id)).toMatchObject({ assigned_to: root.id, department_id: billing });
    await call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'On it' });
    expect(await list('unanswered=true')).not.toContain(id);
    expect(await list('status=replied')).toContain(id);
    await call(root, 'POST', `${STAFF}/${id}/notes`, { message: 'note' });
    await call(root, 'PATCH', `${STAFF}/${id}`, { status: 'closed' });
    expect((await ticketRow(id)).closed_at).not.toBeNull();
    await call(root, 'PATCH', `${STAFF}/${id}`, { status: 'open' });
    expect(await ticketRow(id)).toMatchObject({ status: 'open', closed_at: null });
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'details'])
      .where('target_user_id', '=', customer.id)
      .where('action', 'like', 'admin.ticket.%')
      .orderBy('id')
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['admin.ticket.update', 'admin.ticket.reply', 'admin.ticket.note', 'admin.ticket.update', 'admin.ticket.update']);
    expect(audit.every((a) => Number(a.actor_user_id) === root.id)).toBe(true);
    expect(String(audit[0].details)).toContain('low→urgent');
  });

  it('closes tickets that waited on the customer for tickets_autoclose_days, and only those', async () => {
    const user = await userWithRole(panel, 1);
    const [waiting, answered] = [await open(user), await open(user)];
    await call(root, 'POST', `${STAFF}/${waiting}/replies`, { message: 'Does it work now?' });
    await call(root, 'POST', `${STAFF}/${answered}/replies`, { message: 'Does it work now?' });
    clock.advance(3 * DAY);
    await call(user, 'POST', `${MINE}/${answered}/replies`, { message: 'Not yet' });
    clock.advance(3 * DAY);
    await panel.services.scheduler.runNow('tickets.autoclose');
    expect((await ticketRow(waiting)).status).toBe('replied');
    clock.advance(DAY + 1000);
    await panel.services.scheduler.runNow('tickets.autoclose');
    expect((await ticketRow(waiting)).status).toBe('closed');
    expect((await ticketRow(answered)).status).toBe('open');
  });

  it('manages departments; one with tickets cannot be deleted (409), an empty one can', async () => {
    const used = await department('Used');
    const unused = await department('Unused');
    await open(await userWithRole(panel, 1), { department_id: used });
    const refused = await call(root, 'DELETE', `${DEPARTMENTS}/${used}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ code: 'DEPARTMENT_HAS_TICKETS', message: expect.stringContaining('disable it instead') });
    expect((await call(root, 'GET', `${DEPARTMENTS}/${used}`)).statusCode).toBe(200);
    expect((await call(root, 'PATCH', `${DEPARTMENTS}/${used}`, { enabled: false })).json().department.enabled).toBe(false);
    expect((await call(root, 'DELETE', `${DEPARTMENTS}/${unused}`)).statusCode).toBe(200);
    expect((await call(root, 'GET', `${DEPARTMENTS}/${unused}`)).statusCode).toBe(404);
    expect((await call(root, 'POST', DEPARTMENTS, { name: '   ' })).statusCode).toBe(400);
    const actions = await db().selectFrom('audit_log').select('action').where('action', 'like', 'admin.ticket_department.%').execute();
    expect(actions.map((a) => a.action)).toEqual(expect.arrayContaining(['admin.ticket_department.create', 'admin.ticket_department.update', 'admin.ticket_department.delete']));
  });
});
