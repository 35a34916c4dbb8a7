// The persistent mail queue. A mail is rendered when it is queued (what the user was sent does not
// change if a template is edited later) and sent by the mail job. Several panel instances share the
// table: each mail is claimed with one atomic conditional UPDATE that takes a lease, so only one
// instance sends it; a failed attempt is retried with exponential backoff, up to MAX_ATTEMPTS.
// Delivery is at-least-once: an instance that dies after the SMTP server accepted a mail but before
// it marked the row leaves it to be sent again when the lease runs out.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { CoreDatabase } from '../../sdk/server';
import type { SmtpSettings } from './mail-settings';
import type { OutgoingMail } from './smtp-transport';

/** attempts before a mail is given up as failed */
export const MAX_ATTEMPTS = 5;
/** the wait after the first failed attempt; doubled after each further one (1, 2, 4, 8 minutes) */
export const FIRST_RETRY_DELAY_MS = 60_000;
/** how long a claim holds: longer than the SMTP timeouts, so a live sender is never overtaken */
export const LEASE_MS = 120_000;
/** mails claimed per run */
const BATCH = 20;

export interface QueuedMail extends OutgoingMail {
  template: string;
}

export interface QueueRunResult {
  sent: number;
  retried: number;
  failed: number;
}

export function retryDelayMs(attempts: number): number {
  return FIRST_RETRY_DELAY_MS * 2 ** Math.max(0, attempts - 1);
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).slice(0, 500);
}

export class MailQueue {
  /** this process's name on the leases it takes */
  readonly owner = randomBytes(12).toString('hex');

  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly send: (settings: SmtpSettings, mail: OutgoingMail) => Promise<void>,
  ) {}

  async enqueue(mail: QueuedMail, now = new Date()): Promise<void> {
    const iso = now.toISOString();
    await this.db
      .insertInto('mail_queue')
      .values({
        to_address: mail.to,
        template: mail.template,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        next_attempt_at: iso,
        lease_until: null,
        lease_owner: null,
        last_error: null,
        sent_at: null,
        created_at: iso,
      })
      .execute();
  }

  /** Takes the lease on one due mail; false when another instance holds it or it is done. */
  private async claim(id: number, now: Date): Promise<boolean> {
    const iso = now.toISOString();
    const result = await this.db
      .updateTable('mail_queue')
      .set({ lease_until: new Date(now.getTime() + LEASE_MS).toISOString(), lease_owner: this.owner })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', iso)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', iso)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Sends every mail that is due at `now` (the mail job calls it; tests pass their own clock). */
  async processDue(settings: SmtpSettings, now = new Date()): Promise<QueueRunResult> {
    const result: QueueRunResult = { sent: 0, retried: 0, failed: 0 };
    const iso = now.toISOString();
    const due = await this.db
      .selectFrom('mail_queue')
      .select(['id', 'to_address', 'subject', 'html', 'text', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', iso)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', iso)]))
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const mail of due) {
      if (!(await this.claim(mail.id, now))) continue;
      const mine = this.db.updateTable('mail_queue').where('id', '=', mail.id).where('lease_owner', '=', this.owner);
      try {
        await this.send(settings, { to: mail.to_address, subject: mail.subject, html: mail.html, text: mail.text });
        await mine.set({ status: 'sent', sent_at: new Date().toISOString(), attempts: mail.attempts + 1, lease_until: null, last_error: null }).execute();
        result.sent++;
      } catch (error) {
        const attempts = mail.attempts + 1;
        if (attempts >= MAX_ATTEMPTS) {
          await mine.set({ status: 'failed', attempts, lease_until: null, last_error: describe(error) }).execute();
          result.failed++;
        } else {
          const next = new Date(now.getTime() + retryDelayMs(attempts)).toISOString();
          await mine.set({ attempts, next_attempt_at: next, lease_until: null, last_error: describe(error) }).execute();
          result.retried++;
        }
      }
    }
    return result;
  }
}
