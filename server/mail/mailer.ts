// ctx.mail: renders a template from the database with its placeholders and puts the mail in the
// queue; the mail job sends it. Mail is on when the smtp_host setting is set.
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { CoreDatabase, MailMessage, MailQueueCounts, PluginMail } from '../../sdk/server';
import type { Scheduler } from '../jobs/scheduler';
import type { SettingsStore } from '../settings/store';
import { MailQueue } from './mail-queue';
import { readSmtpSettings } from './mail-settings';
import { renderTemplate } from './render';
import { SmtpSender } from './smtp-transport';
import { MailTemplateCatalogue } from './template-catalogue';
import { MailTemplateStore } from './template-store';

export const MAIL_JOB = 'mail.queue';
/** how often the mail job looks for due mails (a queued mail also asks for a run at once) */
export const MAIL_JOB_INTERVAL_MS = 10_000;

export class Mailer implements PluginMail {
  readonly queue: MailQueue;
  readonly templates: MailTemplateStore;
  /** the templates plugins declare: the plugin host fills it, the store protects them */
  readonly declared: MailTemplateCatalogue;
  private readonly sender = new SmtpSender();

  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly settings: SettingsStore,
    private readonly scheduler: Scheduler,
    /** APP_URL, else the app_url setting; '' when neither is set */
    private readonly appUrl: () => Promise<string>,
  ) {
    this.queue = new MailQueue(db, (smtp, mail) => this.sender.send(smtp, mail));
    this.declared = new MailTemplateCatalogue(db);
    this.templates = new MailTemplateStore(db, this.declared);
    scheduler.every(MAIL_JOB, MAIL_JOB_INTERVAL_MS, () => this.runQueue());
  }

  /**
   * Mail is on when an SMTP server AND the panel's public address are set: links in mail (reset,
   * verify) are built from that address only — never from a request's Host header, which the sender
   * chooses (a forged Host would mail a victim a reset link to the attacker's site).
   */
  async enabled(): Promise<boolean> {
    if (String((await this.settings.get('smtp_host')) ?? '').trim() === '') return false;
    return (await this.appUrl()) !== '';
  }

  /** The queue run the mail job does; with mail off, queued mails wait for a server to be set. */
  async runQueue(now = new Date()): Promise<string> {
    const smtp = await readSmtpSettings(this.settings);
    if (!smtp.host) return 'mail is off (no smtp_host)';
    const { sent, retried, failed } = await this.queue.processDue(smtp, now);
    return `sent ${sent}, retried ${retried}, failed ${failed}`;
  }

  async send(message: MailMessage): Promise<boolean> {
    if (!(await this.enabled())) return false;
    const template = await this.db.selectFrom('mail_templates').select(['subject', 'html', 'text']).where('name', '=', message.template).executeTakeFirst();
    if (!template) throw new Error(`mail template "${message.template}" does not exist`);
    const values = { app_name: String((await this.settings.get('app_name')) ?? ''), app_url: await this.appUrl(), ...message.placeholders };
    const rendered = renderTemplate(template, values);
    await this.queue.enqueue({ to: message.to, template: message.template, ...rendered });
    this.scheduler.kick(MAIL_JOB);
    return true;
  }

  async publicUrl(_request?: FastifyRequest): Promise<string> {
    const configured = await this.appUrl();
    if (!configured) throw new Error('the panel has no public address (APP_URL or the app_url setting): mail links cannot be built');
    return configured.replace(/\/+$/, '');
  }

  async queueCounts(): Promise<MailQueueCounts> {
    const rows = await this.db
      .selectFrom('mail_queue')
      .select((eb) => ['status', eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ['pending', 'failed'])
      .groupBy('status')
      .execute();
    const count = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
    return { pending: count('pending'), failed: count('failed') };
  }

  close(): void {
    this.sender.close();
  }
}
