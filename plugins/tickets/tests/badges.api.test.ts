// The tickets plugin's sidebar counts on every dialect (GET /api/user/nav-badges): a customer's
// `tickets.unread` counts their tickets with a staff answer they have not opened since (a staff note
// never counts); staff's `tickets.awaiting` counts the tickets of their departments where the
// customer spoke last and no staff member has opened it since — scoped staff only their role's
// departments. allow_tickets off takes the customer's count away; the plugin disabled takes both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setRolePermissions, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { ManualClock } from '../../../tests/fixtures/manual-clock';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const DEPARTMENTS = '/api/admin/departments';
const BADGES = '/api/user/nav-badges';
const UNREAD = 'tickets.unread';
const AWAITING = 'tickets.awaiting';
/** a spec role number (2–8 are admin-type: only they see the staff page's nav item) */
const SCOPED_ROLE = 3;

describe.each(testDialects())('ticket badges on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let root: SignedInUser;
  let general: number;
  let billing: number;

  type Method = 'GET' | 'POST' | 'PATCH';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => {
    // each step a moment after the last: "since" compares the times the desk stamps
    clock.advance(1000);
    return panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  };
  const badges = async (who: SignedInUser): Promise<Record<string, number>> => {
    const res = await panel.app.inject({ url: BADGES, headers: { cookie: who.cookie } });
    expect(res.statusCode).toBe(200);
    const all = res.json().badges as Record<string, number>;
    return Object.fromEntries(Object.entries(all).filter(([key]) => key.startsWith('tickets.')));
  };

  async function department(name: string): Promise<number> {
    const res = await call(root, 'POST', DEPARTMENTS, { name });
    if (res.statusCode !== 201) throw new Error(`department: ${res.statusCode} ${res.body}`);
    return res.json().department.id;
  }
  async function open(who: SignedInUser, departmentId: number): Promise<number> {
    const res = await call(who, 'POST', MINE, { department_id: departmentId, subject: 'Server will not start', priority: 'high', message: 'It crashes on boot.' });
    if (res.statusCode !== 201) throw new Error(`open: ${res.statusCode} ${res.body}`);
    return res.json().ticket.id;
  }
  const ok = async (res: Promise<{ statusCode: number; body: string }>) => {
    const done = await res;
    expect(done.statusCode, done.body).toBeLessThan(300);
  };

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2030-03-01T10:00:00.000Z'));
    panel = await startPanel(dialect, { jobs: false, clock });
    root = await userWithRole(panel, 8);
    general = await department('General');
    billing = await department('Billing');
  });
  afterAll(async () => {
    await panel?.close();
  });

  it("follows replies and reads: the customer's unread answers, the desk's unread customer messages", async () => {
    const customer = await userWithRole(panel, 1);
    const other = await userWithRole(panel, 1);
    const before = (await badges(root))[AWAITING];
    const id = await open(customer, general);
    expect(await badges(customer)).toEqual({ [UNREAD]: 0 });
    expect((await badges(root))[AWAITING]).toBe(before + 1);
    // staff open it: no longer unread for the desk, though still unanswered
    await ok(call(root, 'GET', `${STAFF}/${id}`));
    expect((await badges(root))[AWAITING]).toBe(before);
    // the customer writes again: back on the desk's count
    await ok(call(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Still broken.' }));
    expect((await badges(root))[AWAITING]).toBe(before + 1);
    // a staff note is no answer: nothing for the customer, and the desk still owes one
    await ok(call(root, 'POST', `${STAFF}/${id}/notes`, { message: 'Looks like a bad mod.' }));
    expect(await badges(customer)).toEqual({ [UNREAD]: 0 });
    // staff answer: the customer has one unread, the desk nothing (the customer did not speak last)
    await ok(call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Please try now.' }));
    expect(await badges(customer)).toEqual({ [UNREAD]: 1 });
    expect((await badges(root))[AWAITING]).toBe(before);
    // another customer's count is their own
    expect(await badges(other)).toEqual({ [UNREAD]: 0 });
    // the customer opens it: read
    await ok(call(customer, 'GET', `${MINE}/${id}`));
    expect(await badges(customer)).toEqual({ [UNREAD]: 0 });
    // two answers on two tickets count two
    const second = await open(customer, general);
    await ok(call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Anything else?' }));
    await ok(call(root, 'POST', `${STAFF}/${second}/replies`, { message: 'On it.' }));
    expect(await badges(customer)).toEqual({ [UNREAD]: 2 });
  });

  it("counts for scoped staff only their role's departments", async () => {
    await setRolePermissions(panel, SCOPED_ROLE, ['admin.tickets.list', 'admin.tickets.view']);
    const scoped = await userWithRole(panel, SCOPED_ROLE);
    const customer = await userWithRole(panel, 1);
    await ok(call(root, 'PATCH', `${DEPARTMENTS}/${billing}`, { role_ids: [SCOPED_ROLE] }));
    try {
      const rootBefore = (await badges(root))[AWAITING];
      const scopedBefore = (await badges(scoped))[AWAITING];
      await open(customer, general);
      expect((await badges(scoped))[AWAITING]).toBe(scopedBefore);
      await open(customer, billing);
      expect((await badges(scoped))[AWAITING]).toBe(scopedBefore + 1);
      expect((await badges(root))[AWAITING]).toBe(rootBefore + 2);
      // staff without the list permission do not see the page, so get no count
      await setRolePermissions(panel, SCOPED_ROLE, ['admin.tickets.view']);
      expect(await badges(scoped)).toEqual({ [UNREAD]: 0 });
    } finally {
      await call(root, 'PATCH', `${DEPARTMENTS}/${billing}`, { role_ids: [] });
    }
  });

  it("drops the customer's count while allow_tickets is off, and every ticket count while the plugin is disabled", async () => {
    const customer = await userWithRole(panel, 1);
    await panel.services.settings.set('allow_tickets', false);
    try {
      expect(await badges(customer)).toEqual({});
      expect(await badges(root)).toHaveProperty([AWAITING]);
    } finally {
      await panel.services.settings.set('allow_tickets', true);
    }
    await panel.services.plugins.setEnabled('tickets', false);
    try {
      expect(await badges(customer)).toEqual({});
      expect(await badges(root)).toEqual({});
    } finally {
      await panel.services.plugins.setEnabled('tickets', true);
    }
    expect(await badges(customer)).toEqual({ [UNREAD]: 0 });
  });
});
