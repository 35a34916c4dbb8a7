// Live ticket pages: real websocket clients against the listening panel. A change to a ticket — a
// staff reply, an internal note, a customer's reply, close, reopen, a staff change — reaches the
// sockets open on that ticket (and no other) as a notice without content; the page's refetch through
// the HTTP API is what shows the change, so a customer never learns a note's text. A socket opens
// only for who may read the ticket (404 before the upgrade otherwise) and ends with the session. With
// Redis, a reply written through one instance reaches a socket held by another.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  MemoryRateLimitStore,
  roleWith,
  secondInstance,
  startPanel,
  TEST_REDIS_URL,
  testDialects,
  testStores,
  userWithRole,
  type SignedInUser,
  type TestPanel,
} from '../../../tests/api/harness';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import { LIVE_REVIEW_MS } from '../server/live-routes';
import { TICKET_LIVE_CLOSE, ticketSocketPath, type TicketLiveMessage } from '../shared/live-protocol';

const MINE = '/api/user/tickets';
const STAFF = '/api/admin/tickets';

type Notice = Extract<TicketLiveMessage, { type: 'changed' }>;

interface Refusal {
  status: number;
  body: string;
}

/** A page's socket: records what the server says; `changes` are the notices after `ready`. */
class LiveClient {
  readonly messages: TicketLiveMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(readonly socket: WebSocket) {
    socket.on('error', () => undefined);
    socket.on('message', (data) => this.messages.push(JSON.parse(String(data)) as TicketLiveMessage));
    this.closed = new Promise((resolve) => socket.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
  }

  /** Opens the socket and waits for `ready`; rejects with a Refusal when the upgrade is answered with an HTTP error. */
  static connect(base: string, path: string, cookie: string | null, headers: Record<string, string> = {}): Promise<LiveClient> {
    const socket = new WebSocket(base.replace(/^http/, 'ws') + path, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
    const client = new LiveClient(socket);
    return new Promise((resolve, reject) => {
      socket.once('open', () => {
        client.waitFor((m) => m.type === 'ready', 'ready').then(() => resolve(client), reject);
      });
      // closed before it was ready: refused after the upgrade (the socket's close code says why)
      void client.closed.then(({ code }) => reject(new Error(`closed ${code}`)));
      socket.once('unexpected-response', (_request, response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => reject({ status: response.statusCode ?? 0, body } satisfies Refusal));
      });
    });
  }

  get changes(): Notice[] {
    return this.messages.filter((m): m is Notice => m.type === 'changed');
  }

  /** Resolves once a message matches; fails after `ms` of real time. */
  async waitFor(match: (message: TicketLiveMessage) => boolean, what: string, ms = 5_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!this.messages.some(match)) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Waits for the next notice after those seen so far. */
  async nextChange(what: string): Promise<Notice> {
    const seen = this.changes.length;
    const deadline = Date.now() + 5_000;
    while (this.changes.length === seen) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.changes[seen];
  }

  close(): void {
    this.socket.close();
  }
}

const refusalOf = (attempt: Promise<LiveClient>): Promise<Refusal> =>
  attempt.then(
    (client) => {
      client.close();
      throw new Error('the socket opened');
    },
    (refusal: Refusal) => refusal,
  );

/** Long enough for a notice to have crossed the bus (for asserting that none came). */
const quietPeriod = () => new Promise((resolve) => setTimeout(resolve, 300));

const listen = async (app: FastifyInstance) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

describe.each(testDialects())('live ticket pages on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let base: string;
  let root: SignedInUser;
  let general: number;
  let billing: number;
  const sockets: LiveClient[] = [];

  type Method = 'GET' | 'POST' | 'PATCH';
  const call = (who: SignedInUser, method: Method, url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  const connect = async (who: SignedInUser | null, path: string, headers: Record<string, string> = {}) => {
    const client = await LiveClient.connect(base, path, who?.cookie ?? null, headers);
    sockets.push(client);
    return client;
  };
  const customerSocket = (who: SignedInUser, id: number) => connect(who, ticketSocketPath('customer', id));
  const staffSocket = (who: SignedInUser, id: number) => connect(who, ticketSocketPath('staff', id));

  async function department(name: string): Promise<number> {
    const res = await call(root, 'POST', '/api/admin/departments', { name });
    if (res.statusCode !== 201) throw new Error(`department: ${res.statusCode} ${res.body}`);
    return res.json().department.id;
  }
  async function open(who: SignedInUser, departmentId = general): Promise<number> {
    const res = await call(who, 'POST', MINE, { department_id: departmentId, subject: 'Server will not start', priority: 'high', message: 'It crashes on boot.' });
    if (res.statusCode !== 201) throw new Error(`open: ${res.statusCode} ${res.body}`);
    return res.json().ticket.id;
  }
  const expectOk = async (request: ReturnType<typeof call>) => {
    const res = await request;
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    clock = new ManualClock(Date.now());
    panel = await startPanel(dialect, { jobs: false, clock });
    base = await listen(panel.app);
    root = await userWithRole(panel, 8);
    general = await department('General');
    billing = await department('Billing');
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await panel?.close();
  });

  it("brings a staff reply to the customer's page: a notice, then the page's own read shows it", async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    const page = await customerSocket(customer, id);
    await expectOk(call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Try turning it off and on.' }));
    const notice = await page.nextChange('the reply');
    // the notice names the ticket and nothing of it
    expect(notice).toEqual({ type: 'changed', id, at: expect.any(String) });
    expect(Object.keys(notice).sort()).toEqual(['at', 'id', 'type']);
    const view = (await call(customer, 'GET', `${MINE}/${id}`)).json();
    expect(view.messages.map((m: { body: string }) => m.body)).toContain('Try turning it off and on.');
  });

  it("tells the customer's page about an internal note, whose refetch still has no note", async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    const page = await customerSocket(customer, id);
    const desk = await staffSocket(root, id);
    await expectOk(call(root, 'POST', `${STAFF}/${id}/notes`, { message: 'Customer is on the old plan — secret' }));
    await page.nextChange('the note');
    await desk.waitFor((m) => m.type === 'changed', 'the note on the staff page');
    expect(JSON.stringify(page.messages)).not.toContain('secret');
    const view = (await call(customer, 'GET', `${MINE}/${id}`)).json();
    expect(view.messages.map((m: { body: string }) => m.body)).toEqual(['It crashes on boot.']);
    const staffView = (await call(root, 'GET', `${STAFF}/${id}`)).json();
    expect(staffView.messages.map((m: { body: string }) => m.body)).toContain('Customer is on the old plan — secret');
  });

  it("brings every kind of change to the staff page — the customer's reply, close, reopen, a staff change — and only that ticket's", async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    const other = await open(customer);
    const desk = await staffSocket(root, id);
    const steps: Array<[string, () => ReturnType<typeof call>]> = [
      ['a customer reply', () => call(customer, 'POST', `${MINE}/${id}/replies`, { message: 'Still broken' })],
      ['a close', () => call(customer, 'POST', `${MINE}/${id}/close`)],
      ['a reopen', () => call(customer, 'POST', `${MINE}/${id}/reopen`)],
      ['a staff change', () => call(root, 'PATCH', `${STAFF}/${id}`, { priority: 'urgent' })],
    ];
    for (const [what, step] of steps) {
      await expectOk(step());
      expect((await desk.nextChange(what)).id).toBe(id);
    }
    const before = desk.changes.length;
    // another ticket, a read and a refused write change nothing on this page
    await expectOk(call(customer, 'POST', `${MINE}/${other}/replies`, { message: 'Other ticket' }));
    await expectOk(call(root, 'GET', `${STAFF}/${id}`));
    expect((await call(customer, 'POST', `${MINE}/${id}/reopen`)).statusCode).toBe(409);
    await quietPeriod();
    expect(desk.changes.length).toBe(before);
  });

  it("opens a customer's socket only on their own ticket, signed in, from the panel's origin, with tickets on", async () => {
    const customer = await userWithRole(panel, 1);
    const stranger = await userWithRole(panel, 1);
    const id = await open(customer);
    const refused = await refusalOf(customerSocket(stranger, id));
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.body).error.code).toBe('TICKET_NOT_FOUND');
    expect((await refusalOf(customerSocket(stranger, 2_000_000))).status).toBe(404);
    expect((await refusalOf(connect(null, `${MINE}/${id}/socket`))).status).toBe(401);
    expect((await refusalOf(connect(customer, `${MINE}/${id}/socket`, { origin: 'https://evil.example' }))).status).toBe(403);
    expect((await refusalOf(connect(customer, `${MINE}/0/socket`))).status).toBe(400);
    expect((await refusalOf(connect(customer, `${MINE}/abc/socket`))).status).toBe(400);
    // a customer cannot listen on the staff side either
    expect((await refusalOf(staffSocket(customer, id))).status).toBe(403);
    await panel.services.settings.set('allow_tickets', false);
    try {
      const off = await refusalOf(customerSocket(customer, id));
      expect(off.status).toBe(403);
      expect(JSON.parse(off.body).error.code).toBe('FEATURE_DISABLED');
    } finally {
      await panel.services.settings.set('allow_tickets', true);
    }
    expect((await customerSocket(customer, id)).messages).toEqual([{ type: 'ready' }]);
  });

  it("opens a staff socket only within the staff member's departments (404 outside), and with admin.tickets.view", async () => {
    const customer = await userWithRole(panel, 1);
    const inBilling = await open(customer, billing);
    const inGeneral = await open(customer, general);
    const role = await roleWith(panel, ['admin.tickets.list', 'admin.tickets.view']);
    expect((await call(root, 'PATCH', `/api/admin/departments/${billing}`, { role_ids: [role] })).statusCode).toBe(200);
    const scoped = await userWithRole(panel, role);
    try {
      expect((await refusalOf(staffSocket(scoped, inGeneral))).status).toBe(404);
      const page = await staffSocket(scoped, inBilling);
      await expectOk(call(customer, 'POST', `${MINE}/${inBilling}/replies`, { message: 'Billing question' }));
      await page.nextChange('the reply in scope');
      // moved out of the staff member's departments: the notice still comes, the read answers 404
      await expectOk(call(root, 'PATCH', `${STAFF}/${inBilling}`, { department_id: general }));
      await page.nextChange('the move');
      expect((await call(scoped, 'GET', `${STAFF}/${inBilling}`)).statusCode).toBe(404);
      const lister = await userWithRole(panel, await roleWith(panel, ['admin.tickets.list']));
      expect((await refusalOf(staffSocket(lister, inBilling))).status).toBe(403);
    } finally {
      await call(root, 'PATCH', `/api/admin/departments/${billing}`, { role_ids: [] });
    }
  });

  it('tells the page of a ticket the auto-close job closed', async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    await expectOk(call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Does it work now?' }));
    const page = await customerSocket(customer, id);
    clock.advance(8 * 86_400_000);
    // counted before the run: the notice may arrive while runNow is still finishing
    const seen = page.changes.length;
    await panel.services.scheduler.runNow('tickets.autoclose');
    await page.waitFor(() => page.changes.length > seen, 'the auto-close');
    expect(page.changes[seen].id).toBe(id);
    expect((await call(customer, 'GET', `${MINE}/${id}`)).json().ticket.status).toBe('closed');
  });

  it('closes the socket when its session ends, and when the page speaks', async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    const page = await customerSocket(customer, id);
    await expectOk(call(customer, 'POST', '/api/user/auth/logout'));
    expect((await page.closed).code).toBe(TICKET_LIVE_CLOSE.SESSION_ENDED);

    const again = await userWithRole(panel, 1);
    const talker = await customerSocket(again, await open(again));
    talker.socket.send('hello');
    expect((await talker.closed).code).toBe(TICKET_LIVE_CLOSE.PROTOCOL);
  });

  it('closes the open sockets when allow_tickets is turned off, at the next review', async () => {
    const customer = await userWithRole(panel, 1);
    const page = await customerSocket(customer, await open(customer));
    await panel.services.settings.set('allow_tickets', false);
    try {
      clock.advance(LIVE_REVIEW_MS);
      expect((await page.closed).code).toBe(TICKET_LIVE_CLOSE.FEATURE_OFF);
    } finally {
      await panel.services.settings.set('allow_tickets', true);
    }
  });

  it('keeps one account to 20 sockets at once on an instance', async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    const pages = await Promise.all(Array.from({ length: 20 }, () => customerSocket(customer, id)));
    const oneTooMany = await LiveClient.connect(base, ticketSocketPath('customer', id), customer.cookie).catch((error: unknown) => error);
    expect(String(oneTooMany)).toContain(`closed ${TICKET_LIVE_CLOSE.TOO_MANY}`);
    pages[0].close();
    await pages[0].closed;
    // one left: there is room again (once the server has seen that close too)
    const deadline = Date.now() + 5_000;
    let reopened: LiveClient | null = null;
    while (!reopened && Date.now() < deadline) reopened = await customerSocket(customer, id).catch(() => null);
    expect(reopened?.messages).toEqual([{ type: 'ready' }]);
  });

  it('refuses new sockets with 404 while the plugin is off, and serves them again once it is on', async () => {
    const customer = await userWithRole(panel, 1);
    const id = await open(customer);
    expect((await call(root, 'POST', '/api/admin/plugins/tickets/disable')).statusCode).toBe(200);
    try {
      expect((await refusalOf(customerSocket(customer, id))).status).toBe(404);
    } finally {
      expect((await call(root, 'POST', '/api/admin/plugins/tickets/enable')).statusCode).toBe(200);
    }
    const page = await customerSocket(customer, id);
    await expectOk(call(root, 'POST', `${STAFF}/${id}/replies`, { message: 'Back on' }));
    await page.nextChange('the reply after enabling');
  });
});

describe.each(testDialects().filter(() => testStores().includes('redis')))('live ticket pages across two instances sharing Redis (%s)', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let second: FastifyInstance;
  let one: string;
  let two: string;
  const sockets: LiveClient[] = [];

  beforeAll(async () => {
    // rate-limit counts stay in-process: the sign-ups here never touch the shared per-IP counters
    clock = new ManualClock(Date.now());
    panel = await startPanel(dialect, { jobs: false, clock, rateLimitStore: new MemoryRateLimitStore(), env: { REDIS_URL: TEST_REDIS_URL() } });
    second = await secondInstance(panel, { jobs: false, clock, rateLimitStore: new MemoryRateLimitStore() });
    one = await listen(panel.app);
    two = await listen(second);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await second?.close();
    await panel?.close();
  });

  it('brings a reply written through one instance to sockets held by the other', async () => {
    expect(panel.services.broadcast.backend).toBe('redis');
    const root = await userWithRole(panel, 8);
    const customer = await userWithRole(panel, 1);
    const created = await panel.app.inject({ method: 'POST', url: '/api/admin/departments', payload: { name: 'General' }, headers: { cookie: root.cookie } });
    const department = created.json().department.id as number;
    const opened = await panel.app.inject({
      method: 'POST',
      url: MINE,
      payload: { department_id: department, subject: 'Across instances', message: 'Hello' },
      headers: { cookie: customer.cookie },
    });
    const id = opened.json().ticket.id as number;
    const onTwo = await LiveClient.connect(two, `${MINE}/${id}/socket`, customer.cookie);
    const deskOnOne = await LiveClient.connect(one, `${STAFF}/${id}/socket`, root.cookie);
    sockets.push(onTwo, deskOnOne);

    // written through instance one, heard on instance two (and by instance one's own socket)
    const reply = await panel.app.inject({ method: 'POST', url: `${STAFF}/${id}/replies`, payload: { message: 'From instance one' }, headers: { cookie: root.cookie } });
    expect(reply.statusCode).toBe(200);
    expect((await onTwo.nextChange('the reply on the other instance')).id).toBe(id);
    await deskOnOne.waitFor((m) => m.type === 'changed', 'the reply on the same instance');

    // and the other way round, once each
    const answer = await second.inject({ method: 'POST', url: `${MINE}/${id}/replies`, payload: { message: 'From instance two' }, headers: { cookie: customer.cookie } });
    expect(answer.statusCode).toBe(200);
    await deskOnOne.waitFor((m) => m.type === 'changed' && deskOnOne.changes.length === 2, 'the customer reply from instance two');
    await quietPeriod();
    expect(deskOnOne.changes).toHaveLength(2);
    expect(onTwo.changes).toHaveLength(2);

    // signed out through instance one: the core relays session.ended through Redis, so instance two
    // ends the socket at once, without waiting for its review
    const logout = await panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', headers: { cookie: customer.cookie } });
    expect(logout.statusCode).toBe(200);
    expect((await onTwo.closed).code).toBe(TICKET_LIVE_CLOSE.SESSION_ENDED);
    expect(deskOnOne.socket.readyState).toBe(WebSocket.OPEN);
  });
});
