// "Also send by mail": once an announcement marked `mail` is live (published now, or a scheduled one
// whose time came), a job queues one mail per account of its audience — not banned, with a confirmed
// address, and accepting announcement mail (the account page's Mail card, ctx.mailPreferences) —
// in batches in account-id order. Each batch is claimed before it is sent by moving mailed_up_to
// with a conditional update: two instances (or two runs) never mail the same account twice.
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { AnnouncementDb } from './tables';

export const MAIL_JOB = 'mail';
export const MAIL_JOB_INTERVAL_MS = 60_000;
/** accounts considered per run and announcement: a large audience is mailed over several runs */
export const MAIL_BATCH = 200;
export const MAIL_TEMPLATE = 'announcement';
export const MAIL_PREFERENCE = 'announcements';

type Ctx = Pick<ServerPluginContext, 'mail' | 'mailPreferences' | 'accounts' | 'clock' | 'log'>;

export class AnnouncementMail {
  constructor(
    private readonly db: AnnouncementDb,
    private readonly ctx: Ctx,
    private readonly batchSize: number = MAIL_BATCH,
  ) {}

  /** One run: a batch for each live announcement still to mail. Answers what it did, for the health page. */
  async run(): Promise<string> {
    if (!(await this.ctx.mail.enabled())) return 'mail is off';
    const now = new Date(this.ctx.clock.now()).toISOString();
    const due = await this.db
      .selectFrom('announcements')
      .select(['id', 'title', 'summary', 'audience', 'mailed_up_to'])
      .where('mail', '=', 1)
      .where('mail_done', '=', 0)
      .where('publish_at', 'is not', null)
      .where('publish_at', '<=', now)
      .where((eb) => eb.or([eb('expire_at', 'is', null), eb('expire_at', '>', now)]))
      .orderBy('id')
      .execute();
    let sent = 0;
    for (const a of due) sent += await this.batch({ ...a, id: Number(a.id), mailed_up_to: Number(a.mailed_up_to) });
    return `${sent} mail(s) queued for ${due.length} announcement(s)`;
  }

  private async batch(a: { id: number; title: string; summary: string; audience: string; mailed_up_to: number }): Promise<number> {
    const roles = a.audience
      .split(',')
      .filter((part) => part !== '')
      .map(Number);
    let query = this.db
      .selectFrom('user_public')
      .select('id')
      .where('id', '>', a.mailed_up_to)
      .where('banned', '=', 0)
      .where('verified', '=', 1)
      .orderBy('id')
      .limit(this.batchSize);
    if (roles.length > 0) query = query.where('role_id', 'in', roles);
    const ids = (await query.execute()).map((row) => Number(row.id));
    const last = ids.at(-1);
    // the claim: only the run that moves the cursor from where it read it sends this batch
    const claimed = await this.db
      .updateTable('announcements')
      .set(last === undefined ? { mail_done: 1 } : { mailed_up_to: last })
      .where('id', '=', a.id)
      .where('mailed_up_to', '=', a.mailed_up_to)
      .where('mail_done', '=', 0)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1 || last === undefined) return 0;
    const recipients = await this.ctx.mailPreferences.accepting(MAIL_PREFERENCE, ids);
    if (recipients.length === 0) return 0;
    const base = await this.ctx.mail.publicUrl();
    let sent = 0;
    for (const userId of recipients) {
      const contact = await this.ctx.accounts.contact(userId);
      if (!contact) continue;
      try {
        await this.ctx.mail.send({
          to: contact.email,
          template: MAIL_TEMPLATE,
          placeholders: {
            first_name: contact.firstName,
            title: a.title,
            summary: a.summary,
            link: `${base}/announcements?id=${a.id}`,
            preferences_link: `${base}/account`,
          },
        });
        sent += 1;
      } catch (error) {
        // the batch is claimed: a mail that could not be queued is logged, never retried as a duplicate
        this.ctx.log.error({ err: error, announcementId: a.id, userId }, 'announcements: a mail could not be queued');
      }
    }
    return sent;
  }
}
