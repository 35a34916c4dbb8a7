// Issue 11 "must show", in chromium against the BUILT panel with mail through a real local SMTP
// server: an administrator sets up two departments (Technical, Billing) through the admin API, each
// with one staff role limited to it; a customer opens a ticket in Technical on /ticket/create with a
// screenshot chosen in the file picker; the Technical staff member finds it on /mc-admin/tickets and opens it (the
// picture shows), the Billing one neither sees it in the list nor can open its address or the
// picture, nor can another customer; Technical adds an internal note and replies; the customer's
// page (never reloaded) shows the reply within seconds, pushed over its socket while polling would
// take 10 s, and never the note; the customer replies (another screenshot pasted into the box) and
// closes, which the staff page shows by itself. The mails each step sends arrive at the SMTP server, and the note is in none of them; the
// Technical department's webhook (a local HTTP stand-in) receives a JSON POST per event, signed with
// its secret, and none for the note, while Billing's hears nothing.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page, WebSocket } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../tests/api/smtp-server';
import en from '../locales/en.json';
import { launchBrowser, mainText, signInThroughApi, ROOT, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const run = promisify(execFile);
const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
/**
 * A ticket's open page hears of a change over its socket and reads the ticket again: well within this,
 * while its fallback, polling, asks only every 10 s.
 */
const LIVE = { timeout: 3_000 };
/** seeded staff roles (the admin area is for stored roles 2–8): Support works Technical, Support LVL 3 Billing */
const TECH_ROLE = 4;
const BILLING_ROLE = 5;
const STAFF_PERMISSIONS = ['admin.tickets.list', 'admin.tickets.view'];

const SUBJECT = 'Server crashes on boot';
const FIRST_MESSAGE = 'My server stops right after the world loads.';
const NOTE = 'Internal: the node had a full disk, cleaned it up.';
const REPLY = 'We freed space on the node; please start your server again.';
const CUSTOMER_REPLY = 'It starts now, thank you!';
/** a real 12×12 orange PNG, the customer's "screenshot" */
const SCREENSHOT = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAwAAAAMCAIAAADZF8uwAAAAE0lEQVR42mN4ViFHEDGMKhqMigDZk9XBxC2WTwAAAABJRU5ErkJggg==', 'base64');
const WEBHOOK_SECRET = 'e2e-webhook-secret-0123456789';
const WEBHOOK_EVENTS = ['created', 'customer_replied', 'staff_replied', 'closed'];

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
const names = { admin: uniqueName('admin'), tech: uniqueName('tech'), billing: uniqueName('billing'), steve: uniqueName('steve'), alex: uniqueName('alex') };
type Who = keyof typeof names;
const probes: Partial<Record<Who, PageProbe>> = {};
const departments = { technical: 0, billing: 0 };
let ticketId = 0;
/** the screenshot's key among the ticket's attachments */
let screenshotKey = '';
/** the websockets each page opened, with the frames the server sent on them */
const sockets: Partial<Record<Who, { url: string; frames: string[] }[]>> = {};

const emailOf = (who: Who) => `${names[who]}@example.com`;

/** One POST the webhook stand-in received. */
interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface WebhookReceiver {
  url: string;
  posts: ReceivedPost[];
  close(): Promise<void>;
}

/** The webhook stand-in: a local HTTP server that keeps every POST as it came (raw body, for the signature). */
async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const posts: ReceivedPost[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      posts.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, posts, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Whether a POST carries the signature the secret gives: sha256 HMAC of `${timestamp}.${raw body}`. */
function signedWith(post: ReceivedPost, secret: string): boolean {
  const timestamp = String(post.headers['x-orepanel-timestamp'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${post.body}`).digest('hex')}`;
  return /^\d+$/.test(timestamp) && post.headers['x-orepanel-signature'] === expected;
}

/** `orepanel user create` against the test's data directory, before the panel starts. */
async function createAccount(who: Who, role: number): Promise<void> {
  const args = ['user', 'create', '--username', names[who], '--email', emailOf(who), '--password', PASSWORD, '--role', String(role)];
  await run(process.execPath, [join(ROOT, 'bin', 'orepanel.mjs'), ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' } });
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  receiver = await startWebhookReceiver();
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-tickets-'));
  // the first account migrates the fresh database; the others can then be made side by side
  await createAccount('admin', 8);
  await Promise.all([createAccount('tech', TECH_ROLE), createAccount('billing', BILLING_ROLE), createAccount('steve', 1), createAccount('alex', 1)]);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  probes.admin = await signInThroughApi(browser, panel.url, names.admin, PASSWORD);
  await call('admin', 'PATCH', '/api/admin/settings', {
    values: {
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_encryption: 'none',
      smtp_from: 'Orepanel Tests <panel@example.com>',
      // mail links point at the panel itself (mail is off without a public address)
      app_url: panel.url,
      // four browsers on one IP address
      rate_limit_per_minute: 5000,
      // the webhook stand-in listens on the loopback address
      tickets_webhooks_allow_private: true,
    },
  });
  for (const role of [TECH_ROLE, BILLING_ROLE]) await call('admin', 'PUT', `/api/admin/roles/${role}/permissions`, { permissions: STAFF_PERMISSIONS });
  // the role-department limits of the tickets plugin: each staff role sees its department only
  departments.technical = (
    (await call('admin', 'POST', '/api/admin/departments', { name: 'Technical', description: 'Servers that do not start, lag, mods.', role_ids: [TECH_ROLE] })) as {
      department: { id: number };
    }
  ).department.id;
  departments.billing = (
    (await call('admin', 'POST', '/api/admin/departments', { name: 'Billing', description: 'Coins, payments, invoices.', role_ids: [BILLING_ROLE] })) as {
      department: { id: number };
    }
  ).department.id;
  // Technical posts signed JSON to the stand-in; Billing too, at another path, to show it hears nothing of Technical's ticket
  for (const [id, path] of [
    [departments.technical, '/technical'],
    [departments.billing, '/billing'],
  ] as const) {
    await call('admin', 'PUT', `/api/admin/departments/${id}/webhook`, {
      url: `${receiver.url}${path}`,
      kind: 'json',
      enabled: true,
      events: WEBHOOK_EVENTS,
      secret: WEBHOOK_SECRET,
    });
  }
  // staff sign in after their roles got the permissions: the dashboard stores them for the guards
  await Promise.all(
    (['tech', 'billing', 'steve', 'alex'] as const).map(async (who) => {
      probes[who] = await signInThroughApi(browser, panel.url, names[who], PASSWORD);
    }),
  );
  recordSockets('steve');
  recordSockets('tech');
}, 180_000);

afterAll(async () => {
  for (const probe of Object.values(probes)) expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  await smtp?.close();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Keeps the sockets `who`'s page opens and what the server says on them. */
function recordSockets(who: Who): void {
  const list: { url: string; frames: string[] }[] = [];
  sockets[who] = list;
  pageOf(who).on('websocket', (socket: WebSocket) => {
    const entry = { url: new URL(socket.url()).pathname, frames: [] as string[] };
    list.push(entry);
    socket.on('framereceived', (frame) => entry.frames.push(String(frame.payload)));
  });
}

/** The frames the server sent on `who`'s sockets at `path`, each parsed. */
function framesAt(who: Who, path: string): { type: string }[] {
  return (sockets[who] ?? []).filter((s) => s.url === path).flatMap((s) => s.frames.map((f) => JSON.parse(f) as { type: string }));
}

/** Leaves a mark in the page's window: a reload or a full navigation would wipe it. */
async function markPage(who: Who): Promise<void> {
  await pageOf(who).evaluate(() => {
    (window as Window & { e2eNotReloaded?: boolean }).e2eNotReloaded = true;
  });
}

function stillMarked(who: Who): Promise<boolean> {
  return pageOf(who).evaluate(() => (window as Window & { e2eNotReloaded?: boolean }).e2eNotReloaded === true);
}

function pageOf(who: Who): Page {
  const probe = probes[who];
  if (!probe) throw new Error(`${who} is not signed in`);
  return probe.page;
}

/** A request from inside `who`'s page (their cookies), answering status and text. */
function request(who: Who, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return pageOf(who).evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    { method, path, body },
  );
}

/** A request that must succeed; its JSON answer. */
async function call(who: Who, method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await request(who, method, path, body);
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return JSON.parse(answer.text) as unknown;
}

async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${panel.url}${path}`);
  await page.getByRole('main').getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
}

/** The width of the picture `name` on the page's main region once loaded (0 while loading or broken). */
function naturalWidth(page: Page, name: string): Promise<number> {
  return page
    .getByRole('main')
    .getByRole('img', { name })
    .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));
}

/** Waits for a mail to `to` whose subject matches, and returns it. */
async function mailTo(to: string, subject: RegExp, timeoutMs = 20_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = smtp.mails.find((m) => m.to.includes(to) && subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}; got: ${smtp.mails.map((m) => `${m.to.join(',')}: ${m.subject}`).join(' | ')}`);
    await smtp.waitForMails(smtp.mails.length + 1, Math.max(1, deadline - Date.now())).catch(() => undefined);
  }
}

/** the ticket mails `who` got (sign-in notices and the like aside) */
const ticketMailsTo = (who: Who) => smtp.mails.filter((m) => m.to.includes(emailOf(who)) && /ticket #\d+/i.test(m.subject));

describe('the support desk through its pages', () => {
  it('a customer opens a ticket in Technical on /ticket/create and lands on it', async () => {
    const steve = pageOf('steve');
    await open(steve, '/ticket/create', 'Open a ticket');
    await steve.getByLabel('Department').selectOption({ label: 'Technical' });
    await steve.getByLabel('Priority').selectOption({ label: 'High' });
    await steve.getByLabel('Subject').fill(SUBJECT);
    await steve.getByLabel('Message').fill(FIRST_MESSAGE);
    // chosen with the page's file picker; the chosen file shows with its preview
    await steve.locator('input[type="file"]').setInputFiles({ name: 'crash.png', mimeType: 'image/png', buffer: SCREENSHOT });
    const chosen = steve.getByRole('list', { name: 'Attachments' }).getByRole('listitem').filter({ hasText: 'crash.png' });
    await expect.poll(() => chosen.locator('img').evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0)), WAIT).toBe(12);
    await steve.getByRole('button', { name: 'Open the ticket' }).click();
    await steve.waitForURL(/\/ticket\/\d+$/, WAIT);
    ticketId = Number(new URL(steve.url()).pathname.split('/').pop());
    await markPage('steve');
    await steve.getByRole('main').getByRole('heading', { name: SUBJECT, level: 1 }).waitFor(WAIT);
    expect(await mainText(steve)).toContain(FIRST_MESSAGE);
    await expect.poll(() => naturalWidth(steve, 'crash.png'), WAIT).toBe(12);
    // the Technical staff hear of it; the Billing staff do not
    const created = await mailTo(emailOf('tech'), new RegExp(`^New ticket #${ticketId} in Technical: ${SUBJECT}$`));
    expect(created.text).toContain(FIRST_MESSAGE);
    expect(created.text).toContain(`${panel.url}/mc-admin/tickets/${ticketId}`);
    expect(ticketMailsTo('billing')).toEqual([]);
  });

  it('the Technical staff member finds it on /mc-admin/tickets and opens it', async () => {
    const tech = pageOf('tech');
    await open(tech, '/mc-admin/tickets', 'Tickets');
    const link = tech.getByRole('link', { name: `#${ticketId} ${SUBJECT}` });
    await link.waitFor(WAIT);
    expect(await mainText(tech)).toContain(names.steve);
    await link.click();
    await tech
      .getByRole('main')
      .getByRole('heading', { name: `#${ticketId} ${SUBJECT}`, level: 1 })
      .waitFor(WAIT);
    expect(await mainText(tech)).toContain(FIRST_MESSAGE);
    // the customer's screenshot shows inline, the real picture (12×12), not a broken image
    await expect.poll(() => naturalWidth(tech, 'crash.png'), WAIT).toBe(12);
    const view = (await call('tech', 'GET', `/api/admin/tickets/${ticketId}`)) as { messages: { body: string; attachments: { key: string; name: string; type: string }[] }[] };
    const attachment = view.messages.find((m) => m.body === FIRST_MESSAGE)?.attachments[0];
    expect(attachment).toMatchObject({ name: 'crash.png', type: 'image/png' });
    screenshotKey = attachment?.key ?? '';
  });

  it('the Billing staff member does not see it in the list, and its address is not found', async () => {
    const billing = pageOf('billing');
    await open(billing, '/mc-admin/tickets', 'Tickets');
    await expect.poll(() => mainText(billing), WAIT).toContain('No tickets yet.');
    expect(await mainText(billing)).not.toContain(SUBJECT);
    await open(billing, `/mc-admin/tickets/${ticketId}`, 'Ticket');
    await expect.poll(() => mainText(billing), WAIT).toContain(en.staff.errors.TICKET_NOT_FOUND);
    expect(await mainText(billing)).not.toContain(SUBJECT);
    // the API says the same: out of scope is not found, and writing is refused too
    expect((await request('billing', 'GET', `/api/admin/tickets/${ticketId}`)).status).toBe(404);
    expect((await request('billing', 'POST', `/api/admin/tickets/${ticketId}/replies`, { message: 'hello' })).status).toBe(404);
  });

  it('the screenshot is served to its customer and the Technical staff, and is not found for Billing staff or another customer', async () => {
    const fetchFile = (who: Who, side: 'user' | 'admin') =>
      pageOf(who).evaluate(
        async (path) => {
          const res = await fetch(path);
          return { status: res.status, type: res.headers.get('content-type') ?? '' };
        },
        `/api/${side}/tickets/${ticketId}/attachments/${encodeURIComponent(screenshotKey)}`,
      );
    expect(screenshotKey).not.toBe('');
    expect(await fetchFile('steve', 'user')).toMatchObject({ status: 200, type: expect.stringContaining('image/png') });
    expect(await fetchFile('tech', 'admin')).toMatchObject({ status: 200, type: expect.stringContaining('image/png') });
    expect((await fetchFile('billing', 'admin')).status).toBe(404);
    expect((await fetchFile('alex', 'user')).status).toBe(404);
  });

  it('Technical adds an internal note and replies; the customer sees the reply at once without a reload, never the note', async () => {
    const tech = pageOf('tech');
    const steve = pageOf('steve');
    // the customer's page stays open from the first step: no goto, no reload from here on
    expect(new URL(steve.url()).pathname).toBe(`/ticket/${ticketId}`);
    await markPage('tech');
    const customerSocket = `/api/user/tickets/${ticketId}/socket`;
    // its socket listens (else the page would be polling)
    await expect.poll(() => framesAt('steve', customerSocket).map((f) => f.type), WAIT).toContain('ready');
    const changes = () => framesAt('steve', customerSocket).filter((f) => f.type === 'changed').length;
    const rereads = () => steve.waitForResponse((r) => r.request().method() === 'GET' && new URL(r.url()).pathname === `/api/user/tickets/${ticketId}`, WAIT);

    // a note changes the ticket too: the customer's page is told and reads it again, and shows no note
    const afterNote = rereads();
    await tech.getByLabel('Internal note', { exact: true }).fill(NOTE);
    await tech.getByRole('button', { name: 'Add internal note' }).click();
    const note = tech.locator('li[data-internal="true"]', { hasText: NOTE });
    await note.waitFor(WAIT);
    expect(await note.innerText()).toContain('Internal note — customers never see this');
    const reread = await afterNote;
    expect(await reread.text()).not.toContain(NOTE);
    expect(await mainText(steve)).not.toContain(NOTE);

    const told = changes();
    await tech.getByLabel('Reply to the customer', { exact: true }).fill(REPLY);
    await Promise.all([
      tech.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/admin/tickets/${ticketId}/replies`) && r.ok(), WAIT),
      tech.getByRole('button', { name: 'Send reply' }).click(),
    ]);
    // pushed: on the customer's page within a few seconds of the reply being stored, not after a 10 s poll
    await expect.poll(() => mainText(steve), LIVE).toContain(REPLY);
    expect(changes()).toBeGreaterThan(told);
    expect(await stillMarked('steve')).toBe(true);
    await tech.locator('li:not([data-internal])', { hasText: REPLY }).waitFor(WAIT);
    expect(await mainText(steve)).not.toContain(NOTE);
    // nor does the customer's API answer carry it
    const view = await request('steve', 'GET', `/api/user/tickets/${ticketId}`);
    expect(view.status).toBe(200);
    expect(view.text).toContain(REPLY);
    expect(view.text).not.toContain(NOTE);

    const answered = await mailTo(emailOf('steve'), new RegExp(`^New answer to your ticket #${ticketId}: ${SUBJECT}$`));
    expect(answered.text).toContain(REPLY);
    expect(answered.text).toContain(`${panel.url}/ticket/${ticketId}`);
  });

  it('the customer replies and closes the ticket; staff are mailed the reply; the note was mailed to nobody', async () => {
    const steve = pageOf('steve');
    await steve.getByLabel('Your reply', { exact: true }).fill(CUSTOMER_REPLY);
    // a second screenshot pasted into the reply box, as the page offers ("paste a screenshot")
    await steve.getByLabel('Your reply', { exact: true }).evaluate((box, base64) => {
      const data = new DataTransfer();
      data.items.add(new File([Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0))], 'after.png', { type: 'image/png' }));
      box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, SCREENSHOT.toString('base64'));
    await steve.getByRole('list', { name: 'Attachments' }).getByText('after.png').waitFor(WAIT);
    await steve.getByRole('button', { name: 'Send the reply' }).click();
    await steve.locator('li', { hasText: CUSTOMER_REPLY }).waitFor(WAIT);

    await steve.getByRole('main').getByRole('button', { name: 'Close the ticket' }).click();
    await steve.getByRole('dialog').getByRole('button', { name: 'Close the ticket' }).click();
    await expect.poll(() => mainText(steve), WAIT).toContain('This ticket is closed');
    expect(await steve.getByLabel('Your reply', { exact: true }).count()).toBe(0);
    await steve.getByRole('main').getByRole('button', { name: 'Reopen the ticket' }).waitFor(WAIT);

    const replied = await mailTo(emailOf('tech'), new RegExp(`^Ticket #${ticketId} has a new reply: ${SUBJECT}$`));
    expect(replied.text).toContain(CUSTOMER_REPLY);
    // the staff page, open since the reply, shows the customer's answer and the closed state by itself
    const tech = pageOf('tech');
    expect(framesAt('tech', `/api/admin/tickets/${ticketId}/socket`).map((f) => f.type)).toContain('ready');
    await expect.poll(() => mainText(tech), LIVE).toContain(CUSTOMER_REPLY);
    await expect.poll(() => naturalWidth(tech, 'after.png'), WAIT).toBe(12);
    await tech.getByRole('button', { name: 'Reopen ticket' }).waitFor(LIVE);
    expect(await stillMarked('tech')).toBe(true);

    expect(ticketMailsTo('billing')).toEqual([]);
    for (const mail of smtp.mails) {
      expect(mail.text, `${mail.subject} to ${mail.to.join(',')}`).not.toContain(NOTE);
      expect(mail.html, `${mail.subject} to ${mail.to.join(',')}`).not.toContain('full disk');
    }
  });

  it("Technical's webhook received a signed JSON POST for each event, none for the note; Billing's received nothing", async () => {
    const technical = () => receiver.posts.filter((p) => p.path === '/technical');
    const eventOf = (post: ReceivedPost) => (JSON.parse(post.body) as { event: string }).event;
    // closing is the last event: once it is in, every earlier one was sent before it
    await expect.poll(() => technical().map(eventOf), WAIT).toContain('ticket.closed');
    const posts = technical();
    expect(posts.map(eventOf).sort()).toEqual(['ticket.closed', 'ticket.created', 'ticket.customer_replied', 'ticket.staff_replied']);
    for (const post of posts) {
      expect(signedWith(post, WEBHOOK_SECRET), `${eventOf(post)} is signed with the department's secret`).toBe(true);
      expect(signedWith(post, `${WEBHOOK_SECRET}x`)).toBe(false);
      expect(post.headers['x-orepanel-event']).toBe(eventOf(post));
      const body = JSON.parse(post.body) as { ticket: { id: number; subject: string; department: string }; customer: string; message: string | null };
      expect(body.ticket).toMatchObject({ id: ticketId, subject: SUBJECT, department: 'Technical' });
      expect(body.customer).toBe(names.steve);
      expect(post.body).not.toContain('full disk');
    }
    const messageOf = (event: string) => (JSON.parse(posts.find((p) => eventOf(p) === event)?.body ?? '{}') as { message: string | null }).message;
    expect(messageOf('ticket.created')).toBe(FIRST_MESSAGE);
    expect(messageOf('ticket.staff_replied')).toBe(REPLY);
    expect(messageOf('ticket.customer_replied')).toBe(CUSTOMER_REPLY);
    expect(receiver.posts.filter((p) => p.path === '/billing')).toEqual([]);
  });
});
