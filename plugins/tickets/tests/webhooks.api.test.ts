// Department webhooks on every dialect, against a local HTTP stand-in: the Discord shape (an embed
// that pings nobody), the JSON kind's HMAC signature, retries after 1, 5 and 30 minutes on the manual
// clock and giving up after the last, a private or loopback address refused unless the setting
// allows it (when saved and again when sent), the secret never sent back or stored in the clear, an
// internal note never sent; and the auto-close job mailing the customer (SMTP stand-in).
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CoreDatabase } from '@orepanel/sdk/server';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { deliverQueued, startSmtpServer, useSmtpServer, type TestSmtpServer } from '../../../tests/api/smtp-server';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import type { TicketTables } from '../server/tables';
import { guardedLookup, isPublicAddress } from '../server/webhook-address';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';
const DEPARTMENTS = '/api/admin/departments';
const APP_URL = 'https://panel.example.com';
const SECRET = 'whsec-0123456789abcdef-secret';
const MINUTE = 60_000;
const DAY = 86_400_000;

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** The receiver: records every POST and answers the next status queued (200 when none is). */
async function startReceiver() {
  const received: Received[] = [];
  const statuses: number[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      const status = statuses.shift() ?? 200;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(status >= 300 ? 'receiver says no' : '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    received,
    statuses,
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('the webhook address guard', () => {
  it('treats loopback, private, link-local, mapped and reserved addresses as not public', () => {
    for (const ip of [
      '127.0.0.1',
      '10.2.3.4',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
    ]) {
      expect(isPublicAddress(ip), ip).toBe(false);
    }
    for (const ip of ['1.1.1.1', '162.159.128.233', '2606:4700::6810:84e5', '::ffff:8.8.8.8']) expect(isPublicAddress(ip), ip).toBe(true);
  });

  it('refuses a name resolving to this host when private addresses are not allowed, at connection time', async () => {
    const lookup = (allow: boolean) =>
      new Promise<{ error: Error | null; addresses: unknown }>((resolve) => guardedLookup(allow)('localhost', { all: true }, (error, addresses) => resolve({ error, addresses })));
    const refused = await lookup(false);
    expect(refused.error?.message).toMatch(/private or local address/);
    const allowed = await lookup(true);
    expect(allowed.error).toBeNull();
    expect(allowed.addresses).toEqual(expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]));
  });
});

describe.each(testDialects())('department webhooks on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let smtp: TestSmtpServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let root: SignedInUser;
  let viewer: SignedInUser;
  let general: number;

  const db = () => panel.services.database.db as unknown as Kysely<CoreDatabase & TicketTables>;
  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  const hookUrl = (department: number) => `${DEPARTMENTS}/${department}/webhook`;
  const allowPrivate = (on: boolean) => panel.services.settings.set('tickets_webhooks_allow_private', on);
  const runWebhooks = () => panel.services.scheduler.runNow('tickets.webhooks');
  const deliveries = () => db().selectFrom('ticket_webhook_deliveries').selectAll().orderBy('id').execute();
  const webhookRow = (department: number) => db().selectFrom('ticket_department_webhooks').selectAll().where('department_id', '=', department).executeTakeFirstOrThrow();

  async function ok(who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) {
    const res = await call(who, method, url, payload);
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  }

  async function department(name: string): Promise<number> {
    return (await ok(root, 'POST', DEPARTMENTS, { name })).json().department.id;
  }

  async function open(who: SignedInUser, departmentId: number, extra: Record<string, unknown> = {}): Promise<number> {
    return (await ok(who, 'POST', MINE, { department_id: departmentId, subject: 'Server will not start', priority: 'high', message: 'It crashes on boot.', ...extra })).json()
      .ticket.id;
  }

  function verify(request: Received): boolean {
    const timestamp = String(request.headers['x-orepanel-timestamp']);
    const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex')}`;
    return request.headers['x-orepanel-signature'] === expected;
  }

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2030-03-01T10:00:00.000Z'));
    panel = await startPanel(dialect, { jobs: false, clock });
    smtp = await startSmtpServer();
    await useSmtpServer(panel.services.settings, smtp);
    await panel.services.settings.set('app_url', APP_URL);
    receiver = await startReceiver();
    root = await userWithRole(panel, 8);
    viewer = await userWithRole(panel, await roleWith(panel, ['admin.departments.list', 'admin.tickets.list', 'admin.tickets.view'], 'Hook viewer'));
    general = await department('General');
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
    await receiver?.close();
  });
  beforeEach(async () => {
    await allowPrivate(true);
    receiver.received.length = 0;
    receiver.statuses.length = 0;
  });
  afterEach(async () => {
    await db().deleteFrom('ticket_webhook_deliveries').execute();
    await db().deleteFrom('mail_queue').execute();
  });

  it('refuses a private or loopback address (and http://) unless the setting allows it, and changes nothing', async () => {
    const dept = await department('Guarded');
    await allowPrivate(false);
    const body = { kind: 'discord', enabled: true, events: ['created'] };
    const refusals: [string, string][] = [
      [receiver.url(), 'WEBHOOK_URL_NOT_HTTPS'],
      ['https://127.0.0.1/hook', 'WEBHOOK_HOST_PRIVATE'],
      ['https://localhost/hook', 'WEBHOOK_HOST_PRIVATE'],
      ['https://10.1.2.3/hook', 'WEBHOOK_HOST_PRIVATE'],
      ['https://169.254.169.254/latest/meta-data', 'WEBHOOK_HOST_PRIVATE'],
      ['https://[::1]/hook', 'WEBHOOK_HOST_PRIVATE'],
      ['https://[::ffff:127.0.0.1]/hook', 'WEBHOOK_HOST_PRIVATE'],
      ['https://user:pass@example.com/hook', 'WEBHOOK_URL_CREDENTIALS'],
      ['ftp://example.com/hook', 'WEBHOOK_URL_INVALID'],
      ['not a url', 'WEBHOOK_URL_INVALID'],
    ];
    for (const [url, code] of refusals) {
      const res = await call(root, 'PUT', hookUrl(dept), { ...body, url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toMatchObject({ code, field: 'url' });
    }
    expect((await ok(root, 'GET', hookUrl(dept))).json().webhook).toBeNull();

    // allowed when saved, refused when sent: the address is checked again on every delivery,
    // on the addresses the connection itself resolves (here: a name for this host)
    await allowPrivate(true);
    await ok(root, 'PUT', hookUrl(dept), { ...body, url: `https://localhost:${receiver.port}/hook` });
    await allowPrivate(false);
    const customer = await userWithRole(panel, 1);
    await open(customer, dept);
    await runWebhooks();
    expect(receiver.received).toHaveLength(0);
    const row = await webhookRow(dept);
    expect(row.last_status).toBe('retrying');
    expect(row.last_error).toMatch(/private or local address/);
  });

  it('stores the secret and the address sealed and never sends the secret back', async () => {
    const dept = await department('Secretive');
    const url = receiver.url('/secret-hook');
    const withoutSecret = await call(root, 'PUT', hookUrl(dept), { url, kind: 'json', enabled: true, events: ['created'] });
    expect(withoutSecret.statusCode).toBe(400);
    expect(withoutSecret.json().error).toMatchObject({ code: 'WEBHOOK_SECRET_REQUIRED', field: 'secret' });
    for (const secret of ['short', 'has spaces in it, sixteen+', 'x'.repeat(257)]) {
      expect((await call(root, 'PUT', hookUrl(dept), { url, kind: 'json', enabled: true, events: ['created'], secret })).statusCode, secret).toBe(400);
    }

    const saved = await ok(root, 'PUT', hookUrl(dept), { url, kind: 'json', enabled: true, events: ['created', 'closed'], secret: SECRET });
    expect(saved.body).not.toContain(SECRET);
    expect(saved.json().webhook).toMatchObject({ url, kind: 'json', enabled: true, events: ['created', 'closed'], secret_set: true, last_status: null });
    const read = await ok(root, 'GET', hookUrl(dept));
    expect(read.body).not.toContain(SECRET);
    expect(read.json().webhook.secret_set).toBe(true);
    const row = await webhookRow(dept);
    expect(row.secret).not.toContain(SECRET);
    expect(row.url).not.toContain('secret-hook');

    // absent: kept; null: removed (a discord webhook needs none)
    expect((await ok(root, 'PUT', hookUrl(dept), { url, kind: 'json', enabled: false, events: ['created'] })).json().webhook.secret_set).toBe(true);
    expect((await call(root, 'PUT', hookUrl(dept), { url, kind: 'json', enabled: true, events: ['created'], secret: null })).statusCode).toBe(400);
    expect((await ok(root, 'PUT', hookUrl(dept), { url, kind: 'discord', enabled: true, events: ['created'], secret: null })).json().webhook.secret_set).toBe(false);

    const actions = await db().selectFrom('audit_log').select(['action', 'details']).where('action', 'like', 'admin.ticket_webhook.%').execute();
    expect(actions.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(actions)).not.toContain(SECRET);
    expect(JSON.stringify(actions)).not.toContain('secret-hook');
  });

  it('keeps one webhook per department when several saves race', async () => {
    const dept = await department('Racing');
    const saves = await Promise.all(
      [1, 2, 3, 4, 5].map((n) => call(root, 'PUT', hookUrl(dept), { url: receiver.url(`/race-${n}`), kind: 'discord', enabled: true, events: ['created'] })),
    );
    expect(saves.map((res) => res.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const rows = await db().selectFrom('ticket_department_webhooks').select('id').where('department_id', '=', dept).execute();
    expect(rows).toHaveLength(1);
  });

  it('sends signed JSON events that verify, and never an internal note', async () => {
    const dept = await department('Signed');
    await ok(root, 'PUT', hookUrl(dept), {
      url: receiver.url('/json'),
      kind: 'json',
      enabled: true,
      events: ['created', 'customer_replied', 'staff_replied', 'closed'],
      secret: SECRET,
    });
    const customer = await userWithRole(panel, 1);
    const id = await open(customer, dept, { message: 'Help me please' });
    await runWebhooks();
    expect(receiver.received).toHaveLength(1);
    const [created] = receiver.received;
    expect(created.path).toBe('/json');
    expect(created.headers['content-type']).toBe('application/json');
    expect(created.headers['x-orepanel-event']).toBe('ticket.created');
    expect(created.headers['x-orepanel-timestamp']).toBe(String(Math.floor(clock.now() / 1000)));
    expect(verify(created)).toBe(true);
    expect(verify({ ...created, body: created.body.replace('Help', 'Halp') })).toBe(false);
    expect(JSON.parse(created.body)).toEqual({
      event: 'ticket.created',
      ticket: { id, subject: 'Server will not start', department: 'Signed', priority: 'high', status: 'open', url: `${APP_URL}/mc-admin/tickets/${id}` },
      customer: customer.username,
      message: 'Help me please',
      at: new Date(clock.now()).toISOString(),
    });

    await ok(viewer, 'POST', `${STAFF}/${id}/notes`, { message: 'Internal: customer owes us money' });
    expect(await deliveries()).toHaveLength(0);
    await ok(viewer, 'POST', `${STAFF}/${id}/replies`, { message: 'Try again now' });
    await ok(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Still broken' });
    await ok(customer, 'POST', `${MINE}/${id}/close`);
    await runWebhooks();
    const bodies = receiver.received.slice(1).map((r) => JSON.parse(r.body) as { event: string; message: string | null });
    expect(bodies.map((b) => [b.event, b.message])).toEqual([
      ['ticket.staff_replied', 'Try again now'],
      ['ticket.customer_replied', 'Still broken'],
      ['ticket.closed', null],
    ]);
    expect(receiver.received.every(verify)).toBe(true);
    expect(receiver.received.map((r) => r.body).join()).not.toContain('owes us money');
    expect(await deliveries()).toHaveLength(0);
    expect((await webhookRow(dept)).last_status).toBe('ok');
  });

  it('sends a Discord embed within its limits that pings nobody, only for the events chosen', async () => {
    const dept = await department('Discord desk');
    await ok(root, 'PUT', hookUrl(dept), { url: receiver.url('/discord'), kind: 'discord', enabled: true, events: ['created'] });
    const customer = await userWithRole(panel, 1);
    const subject = `@everyone ${'s'.repeat(190)}`;
    const id = await open(customer, dept, { subject, priority: 'urgent', message: `<@&123> ${'m'.repeat(5000)}` });
    await ok(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Not sent: not chosen' });
    await runWebhooks();
    expect(receiver.received).toHaveLength(1);
    const sent = JSON.parse(receiver.received[0].body);
    expect(receiver.received[0].headers['x-orepanel-signature']).toBeUndefined();
    expect(sent.content).toBe(`New ticket #${id} in Discord desk`);
    expect(sent.allowed_mentions).toEqual({ parse: [] });
    expect(sent.embeds).toHaveLength(1);
    const [embed] = sent.embeds;
    expect(embed.title).toBe(`#${id} ${subject}`);
    expect(embed.title.length).toBeLessThanOrEqual(256);
    expect(embed.url).toBe(`${APP_URL}/mc-admin/tickets/${id}`);
    expect(embed.color).toBe(0xe74c3c);
    expect(embed.description.startsWith('<@&123> mmm')).toBe(true);
    expect(embed.description.length).toBeLessThanOrEqual(4096);
    expect(embed.fields).toEqual([
      { name: 'Department', value: 'Discord desk', inline: true },
      { name: 'Priority', value: 'urgent', inline: true },
      { name: 'Customer', value: customer.username, inline: true },
    ]);

    // turned off: nothing more is queued, and what waited is dropped
    await open(customer, dept);
    await ok(root, 'PUT', hookUrl(dept), { url: receiver.url('/discord'), kind: 'discord', enabled: false, events: ['created'] });
    await open(customer, dept);
    expect(await deliveries()).toHaveLength(1);
    await runWebhooks();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries()).toHaveLength(0);
  });

  it('retries a refused delivery after 1 minute and succeeds; gives up after 1, 5 and 30 minutes of refusals', async () => {
    const dept = await department('Flaky');
    await ok(root, 'PUT', hookUrl(dept), { url: receiver.url('/flaky'), kind: 'json', enabled: true, events: ['created'], secret: SECRET });
    const customer = await userWithRole(panel, 1);

    receiver.statuses.push(500);
    await open(customer, dept);
    await runWebhooks();
    expect(receiver.received).toHaveLength(1);
    let [waiting] = await deliveries();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1, last_error: 'HTTP 500: receiver says no' });
    expect(await webhookRow(dept)).toMatchObject({ last_status: 'retrying', last_error: 'HTTP 500: receiver says no' });
    clock.advance(MINUTE - 1000);
    await runWebhooks();
    expect(receiver.received).toHaveLength(1);
    clock.advance(1000);
    await runWebhooks();
    expect(receiver.received).toHaveLength(2);
    // the same delivery, the same id for the receiver to recognise
    expect(receiver.received[1].headers['x-orepanel-delivery']).toBe(receiver.received[0].headers['x-orepanel-delivery']);
    expect(receiver.received[1].body).toBe(receiver.received[0].body);
    expect(verify(receiver.received[1])).toBe(true);
    expect(await deliveries()).toHaveLength(0);
    expect(await webhookRow(dept)).toMatchObject({ last_status: 'ok', last_error: null });

    receiver.received.length = 0;
    receiver.statuses.push(500, 502, 429, 503, 200);
    await open(customer, dept);
    await runWebhooks();
    for (const wait of [MINUTE, 5 * MINUTE, 30 * MINUTE]) {
      clock.advance(wait);
      await runWebhooks();
    }
    expect(receiver.received).toHaveLength(4);
    [waiting] = await deliveries();
    expect(waiting).toMatchObject({ status: 'failed', attempts: 4, last_error: 'HTTP 503: receiver says no' });
    expect((await webhookRow(dept)).last_status).toBe('failed');
    clock.advance(DAY);
    await runWebhooks();
    expect(receiver.received).toHaveLength(4);
  });

  it('leaves a delivery another instance has claimed until its claim runs out, then sends it once', async () => {
    const dept = await department('Shared');
    await ok(root, 'PUT', hookUrl(dept), { url: receiver.url('/shared'), kind: 'discord', enabled: true, events: ['created'] });
    await open(await userWithRole(panel, 1), dept);
    // what another panel instance's claim looks like while it sends
    const claimedUntil = new Date(clock.now() + MINUTE).toISOString();
    await db().updateTable('ticket_webhook_deliveries').set({ lease_until: claimedUntil, lease_owner: 'another-instance' }).execute();
    await runWebhooks();
    expect(receiver.received).toHaveLength(0);
    clock.advance(MINUTE + 1000);
    await runWebhooks();
    await runWebhooks();
    expect(receiver.received).toHaveLength(1);
    expect(await deliveries()).toHaveLength(0);
  });

  it('answers the request even when the receiver is down, and retries later', async () => {
    const dept = await department('Down');
    const down = await startReceiver();
    await down.close();
    await ok(root, 'PUT', hookUrl(dept), { url: down.url(), kind: 'discord', enabled: true, events: ['created'] });
    const id = await open(await userWithRole(panel, 1), dept);
    expect(id).toBeGreaterThan(0);
    await runWebhooks();
    const [waiting] = await deliveries();
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
    expect(waiting.last_error).toMatch(/ECONNREFUSED/);
  });

  it('gives up an attempt after 5 seconds without an answer', async () => {
    const hanging = createServer(() => undefined);
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const dept = await department('Slow');
      await ok(root, 'PUT', hookUrl(dept), { url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`, kind: 'discord', enabled: true, events: ['created'] });
      const started = Date.now();
      const result = (await ok(root, 'POST', `${hookUrl(dept)}/test`)).json();
      expect(result).toEqual({ ok: false, status: null, error: 'No answer within 5 s.' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(4900);
      expect(Date.now() - started).toBeLessThan(8000);
    } finally {
      hanging.closeAllConnections();
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
  }, 20_000);

  it('sends a test event and reports how the receiver took it; 404 without a webhook; needs admin.departments.edit', async () => {
    const dept = await department('Tested');
    expect((await call(root, 'POST', `${hookUrl(dept)}/test`)).statusCode).toBe(404);
    expect((await call(root, 'DELETE', hookUrl(dept))).statusCode).toBe(404);
    expect((await call(root, 'GET', hookUrl(999_999))).statusCode).toBe(404);
    await ok(root, 'PUT', hookUrl(dept), { url: receiver.url('/test'), kind: 'json', enabled: false, events: [], secret: SECRET });

    const passed = await ok(root, 'POST', `${hookUrl(dept)}/test`);
    expect(passed.json()).toEqual({ ok: true, status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(JSON.parse(receiver.received[0].body)).toMatchObject({ event: 'ticket.test', ticket: { department: 'Tested' } });
    expect(verify(receiver.received[0])).toBe(true);

    receiver.statuses.push(404);
    expect((await ok(root, 'POST', `${hookUrl(dept)}/test`)).json()).toEqual({ ok: false, status: 404, error: 'HTTP 404: receiver says no' });
    // a redirect could point anywhere: it is not followed, the attempt fails
    receiver.statuses.push(302);
    expect((await ok(root, 'POST', `${hookUrl(dept)}/test`)).json()).toMatchObject({ ok: false, status: 302 });
    expect(receiver.received).toHaveLength(3);
    expect(await deliveries()).toHaveLength(0);

    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await call(viewer, method, hookUrl(dept), method === 'PUT' ? { url: receiver.url(), kind: 'discord', enabled: true, events: [] } : undefined);
      expect(res.statusCode, method).toBe(403);
    }
    expect((await call(viewer, 'POST', `${hookUrl(dept)}/test`)).statusCode).toBe(403);

    expect((await ok(root, 'DELETE', hookUrl(dept))).json()).toEqual({ success: true });
    expect((await ok(root, 'GET', hookUrl(dept))).json().webhook).toBeNull();
    const actions = (await db().selectFrom('audit_log').select('action').where('action', 'like', 'admin.ticket_webhook.%').execute()).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['admin.ticket_webhook.update', 'admin.ticket_webhook.test', 'admin.ticket_webhook.delete']));
  });

  it("mails the customer when their ticket closes by itself, and tells the department's webhook", async () => {
    const dept = await department('Auto');
    await ok(root, 'PUT', hookUrl(dept), { url: receiver.url('/auto'), kind: 'json', enabled: true, events: ['closed'], secret: SECRET });
    const customer = await userWithRole(panel, 1);
    const id = await open(customer, dept);
    await ok(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Does it work now?' });
    await db().deleteFrom('mail_queue').execute();
    clock.advance(7 * DAY + 1000);
    await panel.services.scheduler.runNow('tickets.autoclose');
    const [mail] = await deliverQueued(panel, smtp, 1);
    expect(mail.to).toEqual([customer.email]);
    expect(mail.subject).toBe(`Your ticket #${id} was closed after 7 days without an answer`);
    expect(mail.text).toContain(`${APP_URL}/ticket/${id}`);
    expect(mail.text).toContain('within 7 days');

    await runWebhooks();
    expect(receiver.received.map((r) => JSON.parse(r.body).event)).toEqual(['ticket.closed']);
    // a second pass closes nothing more and mails nobody
    await db().deleteFrom('mail_queue').execute();
    await panel.services.scheduler.runNow('tickets.autoclose');
    expect(await db().selectFrom('mail_queue').select('id').execute()).toHaveLength(0);
  });
});
