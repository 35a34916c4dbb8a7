// What a department webhook sends: a Discord message (an embed, within Discord's limits, that pings
// nobody) or a plain JSON event signed with the webhook's secret:
//   X-Orepanel-Timestamp: <unix seconds>
//   X-Orepanel-Signature: sha256=<hex HMAC-SHA256 of `${timestamp}.${body}` with the secret>
// A receiver recomputes the HMAC over the raw body and refuses an old timestamp (a replay).
import { createHmac } from 'node:crypto';

export const WEBHOOK_KINDS = ['discord', 'json'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/** the events a webhook may send, as an administrator picks them */
export const WEBHOOK_EVENTS = ['created', 'customer_replied', 'staff_replied', 'closed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
/** the test an administrator sends from the department's page */
export type SentEvent = WebhookEvent | 'test';

export const SIGNATURE_HEADER = 'x-orepanel-signature';
export const TIMESTAMP_HEADER = 'x-orepanel-timestamp';

/** The ticket as it was when the event happened. */
export interface WebhookFacts {
  ticket: { id: number; subject: string; department: string; priority: string; status: string; url: string | null };
  customer: string;
  /** an excerpt of the message (never an internal note); null for events without one */
  message: string | null;
  /** when it happened (ISO) */
  at: string;
}

/** Discord's limits (https://discord.com/developers/docs/resources/message#embed-object-embed-limits) */
const DISCORD = { content: 2000, title: 256, description: 4096, fieldValue: 1024 } as const;
const PRIORITY_COLORS: Record<string, number> = { low: 0x95a5a6, medium: 0x3498db, high: 0xe67e22, urgent: 0xe74c3c };

const HEADLINES: Record<SentEvent, (f: WebhookFacts) => string> = {
  created: (f) => `New ticket #${f.ticket.id} in ${f.ticket.department}`,
  customer_replied: (f) => `${f.customer || 'The customer'} replied to ticket #${f.ticket.id}`,
  staff_replied: (f) => `Staff answered ticket #${f.ticket.id}`,
  closed: (f) => `Ticket #${f.ticket.id} was closed`,
  test: () => 'A test from the panel: this webhook works',
};

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

export function discordBody(event: SentEvent, facts: WebhookFacts): string {
  const { ticket } = facts;
  const field = (name: string, value: string) => ({ name, value: cut(value || '—', DISCORD.fieldValue), inline: true });
  const embed: Record<string, unknown> = {
    title: cut(`#${ticket.id} ${ticket.subject}`, DISCORD.title),
    color: PRIORITY_COLORS[ticket.priority] ?? PRIORITY_COLORS.medium,
    fields: [field('Department', ticket.department), field('Priority', ticket.priority), field('Customer', facts.customer)],
    timestamp: facts.at,
  };
  if (ticket.url) embed.url = ticket.url;
  if (facts.message) embed.description = cut(facts.message, DISCORD.description);
  // a subject or message with @everyone, a role or a user mention pings nobody
  return JSON.stringify({ content: cut(HEADLINES[event](facts), DISCORD.content), embeds: [embed], allowed_mentions: { parse: [] } });
}

export function jsonBody(event: SentEvent, facts: WebhookFacts): string {
  return JSON.stringify({ event: `ticket.${event}`, ticket: facts.ticket, customer: facts.customer, message: facts.message, at: facts.at });
}

export function bodyOf(kind: WebhookKind, event: SentEvent, facts: WebhookFacts): string {
  return kind === 'discord' ? discordBody(event, facts) : jsonBody(event, facts);
}

/** The signature header's value for `body` sent at `timestamp` (unix seconds). */
export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}
