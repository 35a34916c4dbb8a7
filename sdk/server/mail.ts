// ctx.mail: templated mails through the panel's persistent queue, and the templates they are made
// from (the mail_templates table is the core mail transport's: the panel's own mails must still go
// out when no plugin edits them).
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
   * app_url setting — never the request's Host header, so it needs no request: a job (mail sent
   * with no request behind it) calls it without one. Throws when neither is set (then `enabled()`
   * is false too).
   */
  publicUrl(request?: FastifyRequest): Promise<string>;
  /** The stored templates, for an editor of them. */
  readonly templates: MailTemplates;
  /** How many queued mails wait to be sent and how many gave up after their last attempt. */
  queueCounts(): Promise<MailQueueCounts>;
}

export interface MailQueueCounts {
  pending: number;
  failed: number;
}

/** A stored mail template; placeholders are written ${name}. */
export interface MailTemplate {
  id: number;
  /** what the panel and plugins send it by, e.g. reset_password */
  name: string;
  description: string;
  subject: string;
  html: string;
  text: string;
  created_at: string;
  updated_at: string;
}

export type MailTemplateSummary = Pick<MailTemplate, 'id' | 'name' | 'description' | 'subject' | 'updated_at'>;

export interface MailTemplateParts {
  subject: string;
  html: string;
  text: string;
}

export type NewMailTemplate = Pick<MailTemplate, 'name' | 'description' | 'subject' | 'html' | 'text'>;

/**
 * ctx.mail.templates: read and change the stored templates. Names are unique: create and update
 * throw the http error 409 MAIL_TEMPLATE_NAME_TAKEN (field name) when another template has it. The
 * templates plugins send by name (declared in their plugin.json "mailTemplates": isProtected) are
 * refused a rename or a deletion with 409 MAIL_TEMPLATE_PROTECTED.
 */
export interface MailTemplates {
  /** One page in name order, with the total. */
  page(page: number, perPage: number): Promise<{ templates: MailTemplateSummary[]; total: number }>;
  find(id: number): Promise<MailTemplate | null>;
  create(template: NewMailTemplate): Promise<MailTemplate>;
  /** Applies `changes` (updated_at follows); null when there is no such template. */
  update(id: number, changes: Partial<NewMailTemplate>): Promise<MailTemplate | null>;
  /** True when a template was deleted, false when there was none. */
  delete(id: number): Promise<boolean>;
  /** True for a template a plugin declares and sends by name: it may be edited, not renamed or deleted. */
  isProtected(name: string): boolean;
  /** The ${names} the parts use, in order of first use. */
  placeholdersIn(...texts: string[]): string[];
  /** Fills the placeholders exactly as a sent mail is filled (values HTML-escaped in the HTML part). */
  render(parts: MailTemplateParts, values: Readonly<Record<string, string | number>>): MailTemplateParts;
  /** A sample value for every placeholder the declared templates are sent with (their declarations', for previews). */
  readonly samplePlaceholders: Readonly<Record<string, string>>;
}

/**
 * ctx.mailPreferences: the kinds of mail the plugin declares in plugin.json "mailPreferences", which
 * each account may decline on /account. Mail that is not a direct answer to the account's own action
 * (announcements, digests) goes only to the accounts this keeps.
 */
export interface PluginMailPreferences {
  /**
   * Of `userIds`, those that accept the plugin's preference `key` (their own choice, else the
   * declared default), in the given order. Throws for a key the plugin does not declare.
   */
  accepting(key: string, userIds: readonly number[]): Promise<number[]>;
}
