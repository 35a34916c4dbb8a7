// Department webhooks: a department may send its tickets' events (a new ticket, a reply from either
// side, closing) to one outgoing webhook, Discord's or a signed JSON POST (webhook-payloads.ts).
//
// An event is queued after its change committed (ticket_webhook_deliveries) and sent by the
// tickets.webhooks job, so a slow or dead receiver never slows or fails the customer's request.
// Several panel instances share the queue: a delivery is claimed with one conditional UPDATE before
// it is sent, so no two instances send it. A refused attempt is retried after 1, 5 and 30 minutes,
// then given up; the department's webhook shows how its last delivery ended. Delivery is
// at-least-once (an instance dying after the receiver answered sends it again once its claim runs
// out): a JSON receiver can tell by the delivery id header.
//
// Internal notes are never an event: nothing calls enqueue for them.
import { randomBytes } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { insertUnlessTaken, type ServerPluginContext } from '@orepanel/sdk/server';
import { excerpt } from './notifications';
import type { TicketDb } from './tables';
import { assertPublicHost, checkWebhookUrl, guardedLookup, parseWebhookUrl, WebhookAddressError } from './webhook-address';
import { bodyOf, signature, SIGNATURE_HEADER, TIMESTAMP_HEADER, WEBHOOK_EVENTS, type SentEvent, type WebhookEvent, type WebhookFacts, type WebhookKind } from './webhook-payloads';

export const WEBHOOK_JOB = 'webhooks';
/** how often the job looks for due deliveries (a queued one also asks for a run at once) */
export const WEBHOOK_JOB_INTERVAL_MS = 15_000;
export const WEBHOOK_TIMEOUT_MS = 5_000;
/** the waits after the 1st, 2nd and 3rd failed attempt; the 4th failure gives up */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 30 * 60_000] as const;
/** how long a claim holds: well over the timeout, so a live sender is never overtaken */
const LEASE_MS = 60_000;
const BATCH = 20;
/** a given-up delivery is kept this long for inspection, then deleted */
const FAILED_KEPT_MS = 30 * 86_400_000;
export const SECRET_LIMITS = { minLength: 16, maxLength: 256 } as const;
export const ALLOW_PRIVATE_SETTING = 'tickets_webhooks_allow_private';

export type DeliveryStatus = 'ok' | 'retrying' | 'failed';

export interface WebhookView {
  department_id: number;
  /** null when it was sealed with another SECRET_KEY: it must be entered again */
  url: string | null;
  kind: WebhookKind;
  enabled: boolean;
  events: WebhookEvent[];
  /** whether a signing secret is stored (the secret itself is never sent back) */
  secret_set: boolean;
  last_status: DeliveryStatus | null;
  last_at: string | null;
  last_error: string | null;
  updated_at: string;
}

export interface WebhookInput {
  url: string;
  kind: WebhookKind;
  enabled: boolean;
  events: WebhookEvent[];
  /** a new secret; null removes it; absent keeps the stored one */
  secret?: string | null;
}

export interface AttemptResult {
  ok: boolean;
  /** the receiver's HTTP status; null when none answered */
  status: number | null;
  error: string | null;
}

type WebhookRow = {
  department_id: number;
  url: string;
  kind: string;
  secret: string | null;
  enabled: number;
  events: string;
  last_status: string | null;
  last_at: string | null;
  last_error: string | null;
  updated_at: string;
};

const eventsOf = (list: string): WebhookEvent[] => WEBHOOK_EVENTS.filter((e) => list.split(',').includes(e));
const describe = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

export class TicketWebhooks {
  /** this process's name on the claims it takes */
  private readonly owner = randomBytes(12).toString('hex');

  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: TicketDb,
  ) {}

  private nowIso(offsetMs = 0): string {
    return new Date(this.ctx.clock.now() + offsetMs).toISOString();
  }

  private async allowPrivate(): Promise<boolean> {
    return (await this.ctx.settings.get(ALLOW_PRIVATE_SETTING)) === true;
  }

  private row(departmentId: number) {
    return this.db.selectFrom('ticket_department_webhooks').selectAll().where('department_id', '=', departmentId).executeTakeFirst() as Promise<WebhookRow | undefined>;
  }

  private view(row: WebhookRow): WebhookView {
    return {
      department_id: Number(row.department_id),
      url: this.ctx.secrets.open(row.url),
      kind: row.kind as WebhookKind,
      enabled: Number(row.enabled) === 1,
      events: eventsOf(row.events),
      secret_set: row.secret !== null,
      last_status: row.last_status as DeliveryStatus | null,
      last_at: row.last_at,
      last_error: row.last_error,
      updated_at: row.updated_at,
    };
  }

  // ---- the administrator's side -----------------------------------------------------------------

  async get(departmentId: number): Promise<WebhookView | null> {
    const row = await this.row(departmentId);
    return row ? this.view(row) : null;
  }

  /** Creates or replaces the department's webhook; a bad address or a JSON webhook without a secret is a 400. */
  async save(departmentId: number, input: WebhookInput): Promise<WebhookView> {
    try {
      await checkWebhookUrl(input.url, await this.allowPrivate());
    } catch (error) {
      if (error instanceof WebhookAddressError) throw this.ctx.httpError(400, error.code, error.message, 'url');
      throw error;
    }
    const existing = await this.row(departmentId);
    const secret = input.secret === undefined ? (existing?.secret ?? null) : input.secret === null ? null : this.ctx.secrets.seal(input.secret);
    if (input.kind === 'json' && secret === null) {
      throw this.ctx.httpError(400, 'WEBHOOK_SECRET_REQUIRED', 'A JSON webhook is signed: give it a secret.', 'secret');
    }
    const values = {
      url: this.ctx.secrets.seal(input.url),
      kind: input.kind,
      secret,
      enabled: input.enabled ? 1 : 0,
      events: WEBHOOK_EVENTS.filter((e) => input.events.includes(e)).join(','),
      updated_at: this.nowIso(),
    };
    const update = () => this.db.updateTable('ticket_department_webhooks').set(values).where('department_id', '=', departmentId).executeTakeFirst();
    if (!existing || Number((await update()).numUpdatedRows) === 0) {
      // none yet (or MySQL counting an unchanged row as not updated): add it, or, when a racing
      // save added it first, set ours over it — never a second row, never a unique-key error
      const row = { ...values, department_id: departmentId, last_status: null, last_at: null, last_error: null, created_at: values.updated_at };
      await insertUnlessTaken(this.ctx.dialect, this.db.insertInto('ticket_department_webhooks').values(row)).execute();
      await update();
    }
    return (await this.get(departmentId))!;
  }

  /** Deletes the webhook and its waiting deliveries; false when there was none. */
  async remove(departmentId: number): Promise<boolean> {
    await this.db.deleteFrom('ticket_webhook_deliveries').where('department_id', '=', departmentId).execute();
    const result = await this.db.deleteFrom('ticket_department_webhooks').where('department_id', '=', departmentId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Sends a test event now, enabled or not, and answers how the receiver took it (nothing is queued). */
  async test(departmentId: number, department: string): Promise<AttemptResult | null> {
    const row = await this.row(departmentId);
    if (!row) return null;
    const facts: WebhookFacts = {
      ticket: { id: 0, subject: 'Test ticket', department, priority: 'medium', status: 'open', url: null },
      customer: '',
      message: 'This is a test event from the panel: new tickets and replies of this department will arrive here.',
      at: this.nowIso(),
    };
    return this.attempt(row, 'test', facts, `test-${randomBytes(6).toString('hex')}`);
  }

  // ---- events -----------------------------------------------------------------------------------

  /**
   * Queues `event` of ticket `ticketId` for its department's webhook, when it has one that is on and
   * sends that event. Call it after the change committed; it never throws (a failure is logged).
   */
  async enqueue(event: WebhookEvent, ticketId: number, message: string | null = null): Promise<void> {
    try {
      const ticket = await this.db
        .selectFrom('tickets as t')
        .innerJoin('ticket_departments as d', 'd.id', 't.department_id')
        .leftJoin('user_public as u', 'u.id', 't.user_id')
        .select(['t.id', 't.subject', 't.priority', 't.status', 't.department_id', 'd.name as department', 'u.username'])
        .where('t.id', '=', ticketId)
        .executeTakeFirst();
      if (!ticket) return;
      const departmentId = Number(ticket.department_id);
      const hook = await this.row(departmentId);
      if (!hook || Number(hook.enabled) !== 1 || !eventsOf(hook.events).includes(event)) return;
      const facts: WebhookFacts = {
        ticket: {
          id: Number(ticket.id),
          subject: ticket.subject,
          department: ticket.department,
          priority: ticket.priority,
          status: ticket.status,
          url: await this.ticketUrl(ticketId),
        },
        customer: ticket.username ?? '',
        message: message === null ? null : excerpt(message),
        at: this.nowIso(),
      };
      const now = this.nowIso();
      await this.db
        .insertInto('ticket_webhook_deliveries')
        .values({
          department_id: departmentId,
          event,
          payload: JSON.stringify(facts),
          next_attempt_at: now,
          lease_until: null,
          lease_owner: null,
          last_error: null,
          created_at: now,
        })
        .execute();
      this.ctx.jobs.kick(WEBHOOK_JOB);
    } catch (error) {
      this.ctx.log.error({ err: error, event, ticketId }, 'tickets: a webhook delivery could not be queued');
    }
  }

  /** the staff page of the ticket, or null while the panel has no public address */
  private async ticketUrl(ticketId: number): Promise<string | null> {
    try {
      return `${await this.ctx.mail.publicUrl()}/mc-admin/tickets/${ticketId}`;
    } catch {
      return null;
    }
  }

  // ---- the queue --------------------------------------------------------------------------------

  /** Takes the claim on one due delivery; false when another instance holds it or it is gone. */
  private async claim(id: number): Promise<boolean> {
    const now = this.nowIso();
    const result = await this.db
      .updateTable('ticket_webhook_deliveries')
      .set({ lease_until: this.nowIso(LEASE_MS), lease_owner: this.owner })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Sends every delivery due now (the tickets.webhooks job). */
  async processDue(): Promise<string> {
    const counts = { sent: 0, retried: 0, failed: 0, dropped: 0 };
    const now = this.nowIso();
    await this.db.deleteFrom('ticket_webhook_deliveries').where('status', '=', 'failed').where('created_at', '<', this.nowIso(-FAILED_KEPT_MS)).execute();
    const due = await this.db
      .selectFrom('ticket_webhook_deliveries')
      .select(['id', 'department_id', 'event', 'payload', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const delivery of due) {
      if (!(await this.claim(delivery.id))) continue;
      const mine = () => this.db.updateTable('ticket_webhook_deliveries').where('id', '=', delivery.id).where('lease_owner', '=', this.owner);
      const hook = await this.row(Number(delivery.department_id));
      const event = delivery.event as WebhookEvent;
      // turned off or changed since the event: it is no longer wanted
      if (!hook || Number(hook.enabled) !== 1 || !eventsOf(hook.events).includes(event)) {
        await this.db.deleteFrom('ticket_webhook_deliveries').where('id', '=', delivery.id).where('lease_owner', '=', this.owner).execute();
        counts.dropped++;
        continue;
      }
      const result = await this.attempt(hook, event, JSON.parse(delivery.payload) as WebhookFacts, String(delivery.id));
      const attempts = Number(delivery.attempts) + 1;
      const at = this.nowIso();
      let status: DeliveryStatus;
      if (result.ok) {
        await this.db.deleteFrom('ticket_webhook_deliveries').where('id', '=', delivery.id).where('lease_owner', '=', this.owner).execute();
        status = 'ok';
        counts.sent++;
      } else if (attempts > RETRY_DELAYS_MS.length) {
        await mine().set({ status: 'failed', attempts, lease_until: null, last_error: result.error }).execute();
        status = 'failed';
        counts.failed++;
      } else {
        await mine()
          .set({ attempts, next_attempt_at: this.nowIso(RETRY_DELAYS_MS[attempts - 1]), lease_until: null, last_error: result.error })
          .execute();
        status = 'retrying';
        counts.retried++;
      }
      await this.db
        .updateTable('ticket_department_webhooks')
        .set({ last_status: status, last_at: at, last_error: result.ok ? null : result.error })
        .where('department_id', '=', Number(delivery.department_id))
        .execute();
    }
    return `sent ${counts.sent}, retried ${counts.retried}, failed ${counts.failed}, dropped ${counts.dropped}`;
  }

  // ---- sending ----------------------------------------------------------------------------------

  /** One POST of `event` to the webhook; never throws. */
  private async attempt(hook: WebhookRow, event: SentEvent, facts: WebhookFacts, deliveryId: string): Promise<AttemptResult> {
    const address = this.ctx.secrets.open(hook.url);
    if (address === null) return { ok: false, status: null, error: 'The address was sealed with another SECRET_KEY: enter it again.' };
    const kind = hook.kind as WebhookKind;
    const body = bodyOf(kind, event, facts);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'Orepanel-Webhook/1',
      'x-orepanel-event': `ticket.${event}`,
      'x-orepanel-delivery': deliveryId,
    };
    if (kind === 'json') {
      const secret = hook.secret === null ? null : this.ctx.secrets.open(hook.secret);
      if (secret === null) return { ok: false, status: null, error: 'The signing secret is missing or was sealed with another SECRET_KEY: set it again.' };
      const timestamp = Math.floor(this.ctx.clock.now() / 1000);
      headers[TIMESTAMP_HEADER] = String(timestamp);
      headers[SIGNATURE_HEADER] = signature(secret, timestamp, body);
    }
    try {
      const allowPrivate = await this.allowPrivate();
      const url = parseWebhookUrl(address, allowPrivate);
      assertPublicHost(url, allowPrivate);
      const { status, text } = await post(url, body, headers, allowPrivate);
      if (status >= 200 && status < 300) return { ok: true, status, error: null };
      return { ok: false, status, error: `HTTP ${status}${text ? `: ${text}` : ''}`.slice(0, 500) };
    } catch (error) {
      return { ok: false, status: null, error: describe(error) };
    }
  }
}

/** Most of a refusal's body kept for the administrator to read. */
const ANSWER_KEPT = 300;

/**
 * POSTs `body`, connecting only to checked addresses (guardedLookup), following no redirect (a 3xx
 * is a failure: it could point anywhere), within WEBHOOK_TIMEOUT_MS overall.
 */
function post(url: URL, body: string, headers: Record<string, string>, allowPrivate: boolean): Promise<{ status: number; text: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(allowPrivate),
        agent: false,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      },
      (response: IncomingMessage) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          if (text.length < ANSWER_KEPT) text += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: text.slice(0, ANSWER_KEPT).trim() }));
        response.on('error', reject);
      },
    );
    request.on('error', (error) => reject(error.name === 'AbortError' ? new Error(`No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s.`) : error));
    request.end(body);
  });
}
