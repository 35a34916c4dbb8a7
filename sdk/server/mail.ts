// ctx.mail: templated mails through the panel's persistent queue.
import type { FastifyRequest } from 'fastify';

export interface MailMessage {
  to: string;
  /** a mail template's name, e.g. reset_password */
  template: string;
  /** values for the template's ${placeholders}; app_name and app_url are always filled */
  placeholders?: Readonly<Record<string, string | number>>;
}

/** ctx.mail: templates from the database, a persistent queue with retries, SMTP from the settings. */
export interface PluginMail {
  /** True when mail is on: the smtp_host setting and the panel's public address (APP_URL or app_url) are set. */
  enabled(): Promise<boolean>;
  /**
   * Renders the template (placeholder values are HTML-escaped in the HTML part) and queues the
   * mail. Resolves false, queuing nothing, when mail is off. Throws when the template is missing.
   */
  send(message: MailMessage): Promise<boolean>;
  /**
   * The panel's public address for links in mails, without a trailing slash: APP_URL, else the
   * app_url setting — never the request's Host header. Throws when neither is set (then
   * `enabled()` is false too).
   */
  publicUrl(request: FastifyRequest): Promise<string>;
}
