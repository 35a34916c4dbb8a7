// Ticket mail through a real SMTP server, on every dialect: a new ticket and a customer's reply reach
// the department's staff (or the assignee), a staff answer and a staff close reach the customer —
// never staff of another department, a role that turned ticket mail off, or the author; an internal
// note mails nobody; a mail that cannot be queued does not fail the request.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { deliverQueued, startSmtpServer, useSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../tests/api/smtp-server';
import { EXCERPT_LENGTH } from '../server/notifications';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const DEPARTMENTS = '/api/admin/departments';
const MAIL_ROLES = '/api/admin/departments/mail-roles';
const APP_URL = 'https://panel.example.com';

describe.each(testDialects())('ticket mail on %s', (dialect) => {
  let panel: TestPanel;
  let smtp: TestSmtpServer;
  let root: SignedInUser;
  /** staff limited to General, staff limited to Billing, staff of every department whose role turned mail off */
  let alice: SignedInUser;
  let bob: SignedInUser;
  let quiet: SignedInUser;
  let plain: SignedInUser;
  let quietRole: number;
  let general: number;
  let billing: number;

  type Method = 'GET' | 'POST' | 'PATCH' | 'PUT';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  const db = () => panel.services.database.db;

  async function ok(who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) {
    const res = await call(who, method, url, payload);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  }

  async function open(who: SignedInUser, department: number, message = 'It crashes on boot.'): Promise<number> {
    return (await ok(who, 'POST', MINE, { department_id: department, subject: 'Server will not start', priority: 'high', message })).json().ticket.id;
  }

  /** Every mail queued since the last call, delivered; exactly `count` were queued. */
  async function mails(count: number): Promise<ReceivedMail[]> {
    const delivered = count === 0 ? [] : await deliverQueued(panel, smtp, count);
    const queued = await db().selectFrom('mail_queue').select(['to_address', 'template']).execute();
    expect(queued, JSON.stringify(queued)).toHaveLength(count);
    await db().deleteFrom('mail_queue').execute();
    return delivered;
  }
  const recipients = (list: ReceivedMail[]) => list.flatMap((m) => m.to).sort();
  const emails = (...who: SignedInUser[]) => who.map((w) => w.email).sort();

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    smtp = await startSmtpServer();
    await useSmtpServer(panel.services.settings, smtp);
    await panel.services.settings.set('app_url', APP_URL);
    root = await userWithRole(panel, 8);
    const generalRole = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view'], 'General desk');
    const billingRole = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view'], 'Billing desk');
    quietRole = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view'], 'Quiet desk');
    const otherRole = await roleWith(panel, ['admin.departments.list'], 'Not staff');
    alice = await userWithRole(panel, generalRole);
    bob = await userWithRole(panel, billingRole);
    quiet = await userWithRole(panel, quietRole);
    plain = await userWithRole(panel, otherRole);
    general = (await ok(root, 'POST', DEPARTMENTS, { name: 'General', role_ids: [generalRole] })).json().department.id;
    billing = (await ok(root, 'POST', DEPARTMENTS, { name: 'Billing', role_ids: [billingRole] })).json().department.id;
    await ok(root, 'PUT', `${MAIL_ROLES}/${quietRole}`, { mail: false });
    await db().deleteFrom('mail_queue').execute();
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    await db().deleteFrom('mail_queue').execute();
  });

  it("mails a new ticket to its department's staff only, with an escaped excerpt and the staff link", async () => {
    const customer = await userWithRole(panel, 1);
    await mails(2); // the customer's welcome and verify mails
    const message = `<b>Help</b> & "now"\nsecond line ${'x'.repeat(EXCERPT_LENGTH)}`;
    const id = await open(customer, general, message);
    const sent = await mails(2);
    expect(recipients(sent)).toEqual(emails(root, alice));
    const mail = sent[0];
    expect(mail.subject).toBe(`New ticket #${id} in General: Server will not start`);
    expect(mail.text).toContain(`${customer.username} opened a ticket in General`);
    expect(mail.text).toContain('<b>Help</b> & "now"\nsecond line');
    expect(mail.text).toContain(`${APP_URL}/mc-admin/tickets/${id}`);
    expect(mail.text).toContain('x…');
    expect(mail.text).not.toContain('x'.repeat(EXCERPT_LENGTH));
    expect(mail.html).toContain('&lt;b&gt;Help&lt;/b&gt; &amp; &quot;now&quot;');
    expect(mail.html).not.toContain('<b>Help</b>');
    expect(mail.html).toContain(`href="${APP_URL}/mc-admin/tickets/${id}"`);

    await open(customer, billing);
    expect(recipients(await mails(2))).toEqual(emails(root, bob));
  });

  it('does not mail staff about a ticket they opened themselves', async () => {
    await open(alice, general);
    expect(recipients(await mails(1))).toEqual(emails(root));
  });

  it("mails a customer's reply to the department's staff, or to the assignee alone", async () => {
    const customer = await userWithRole(panel, 1);
    await mails(2);
    const id = await open(customer, billing);
    await mails(2);

    await ok(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Still broken.' });
    const unassigned = await mails(2);
    expect(recipients(unassigned)).toEqual(emails(root, bob));
    expect(unassigned[0].subject).toBe(`Ticket #${id} has a new reply: Server will not start`);
    expect(unassigned[0].text).toContain('Still broken.');

    await ok(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: bob.id });
    await mails(0);
    await ok(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Any news?' });
    expect(recipients(await mails(1))).toEqual(emails(bob));

    // an assignee who no longer sees the ticket's department: its staff instead
    await ok(root, 'PATCH', `${STAFF}/${id}`, { department_id: general });
    await ok(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Moved?' });
    expect(recipients(await mails(2))).toEqual(emails(root, alice));
    await ok(root, 'PATCH', `${STAFF}/${id}`, { department_id: billing });

    // an assignee whose role turned ticket mail off gets none, and nobody gets it in their place
    await ok(root, 'PATCH', `${STAFF}/${id}`, { assigned_to: quiet.id });
    await ok(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Hello?' });
    await mails(0);
  });

  it('mails a staff answer to the customer with their link, and an internal note to nobody', async () => {
    const customer = await userWithRole(panel, 1);
    await mails(2);
    const id = await open(customer, general);
    await mails(2);

    await ok(alice, 'POST', `${STAFF}/${id}/notes`, { message: 'Customer owes us money, careful.' });
    await mails(0);

    await ok(alice, 'POST', `${STAFF}/${id}/replies`, { message: 'Please try again now.' });
    const [answer] = await mails(1);
    expect(answer.to).toEqual([customer.email]);
    expect(answer.subject).toBe(`New answer to your ticket #${id}: Server will not start`);
    expect(answer.text).toContain('Please try again now.');
    expect(answer.text).toContain(`${APP_URL}/ticket/${id}`);
    expect(answer.text).not.toContain('careful');
    expect(answer.html).not.toContain('careful');
  });

  it('mails the customer when staff close the ticket, not when the customer closes it', async () => {
    const customer = await userWithRole(panel, 1);
    await mails(2);
    const first = await open(customer, general);
    const second = await open(customer, general);
    await mails(4);

    await ok(alice, 'PATCH', `${STAFF}/${first}`, { status: 'closed' });
    const [closed] = await mails(1);
    expect(closed.to).toEqual([customer.email]);
    expect(closed.subject).toBe(`Your ticket #${first} has been closed`);
    expect(closed.text).toContain(`${APP_URL}/ticket/${first}`);
    expect(closed.text).toContain('within 7 days');
    // changing a closed ticket's priority is not closing it again
    await ok(alice, 'PATCH', `${STAFF}/${first}`, { priority: 'low' });
    await mails(0);

    await ok(customer, 'POST', `${MINE}/${second}/close`);
    await mails(0);
  });

  it('lets departments editors turn ticket mail on and off per role (on by default)', async () => {
    const list = (await ok(root, 'GET', MAIL_ROLES)).json().data as { role_id: number; role_name: string | null; mail: boolean }[];
    expect(list.find((r) => r.role_id === quietRole)).toEqual({ role_id: quietRole, role_name: 'Quiet desk', mail: false });
    expect(list.find((r) => r.role_id === 8)?.mail).toBe(true);
    // accounts without ticket rights are not staff
    expect(list.map((r) => r.role_id)).not.toContain(1);

    expect((await call(plain, 'PUT', `${MAIL_ROLES}/${quietRole}`, { mail: true })).statusCode).toBe(403);
    for (const bad of [{ mail: 'yes' }, {}, { mail: true, extra: 1 }]) {
      const res = await call(root, 'PUT', `${MAIL_ROLES}/${quietRole}`, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await call(root, 'PUT', `${MAIL_ROLES}/0`, { mail: true })).statusCode).toBe(400);

    const customer = await userWithRole(panel, 1);
    await mails(2);
    await ok(root, 'PUT', `${MAIL_ROLES}/${quietRole}`, { mail: true });
    await ok(root, 'PUT', `${MAIL_ROLES}/${quietRole}`, { mail: true });
    await open(customer, general);
    expect(recipients(await mails(3))).toEqual(emails(root, alice, quiet));

    await ok(root, 'PUT', `${MAIL_ROLES}/8`, { mail: false });
    await ok(root, 'PUT', `${MAIL_ROLES}/${quietRole}`, { mail: false });
    await open(customer, general);
    expect(recipients(await mails(1))).toEqual(emails(alice));
    await ok(root, 'PUT', `${MAIL_ROLES}/8`, { mail: true });
    const audit = await db().selectFrom('audit_log').select('action').where('action', '=', 'admin.ticket_mail_role.update').execute();
    expect(audit.length).toBeGreaterThanOrEqual(5);
  });

  it('answers the request even when its mail cannot be queued', async () => {
    const customer = await userWithRole(panel, 1);
    await mails(2);
    const template = await db().selectFrom('mail_templates').selectAll().where('name', '=', 'ticket_created').executeTakeFirstOrThrow();
    await db().deleteFrom('mail_templates').where('name', '=', 'ticket_created').execute();
    try {
      const id = await open(customer, general);
      expect(id).toBeGreaterThan(0);
      await mails(0);
    } finally {
      const { id: _id, ...rest } = template;
      await db().insertInto('mail_templates').values(rest).execute();
    }
  });
});
