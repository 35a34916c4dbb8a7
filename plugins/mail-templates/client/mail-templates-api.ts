// The shapes the mail templates API answers, its addresses, the screens' addresses and permissions.
import { ADMIN_API } from '@orepanel/sdk';

export interface MailTemplateSummary {
  id: number;
  name: string;
  description: string;
  subject: string;
  /** a seeded template the panel sends by name: editable, not renamed or deleted */
  protected: boolean;
  updated_at: string;
}

export interface MailTemplate extends MailTemplateSummary {
  html: string;
  text: string;
  /** the ${names} the template uses */
  placeholders: string[];
  created_at: string;
}

export interface MailPreview {
  subject: string;
  html: string;
  text: string;
  /** every value the preview used, by placeholder name */
  placeholders: Record<string, string>;
}

export const mailUrl = {
  mailTemplates: () => `${ADMIN_API}/mail-templates`,
  mailTemplate: (id: string | number) => `${ADMIN_API}/mail-templates/${encodeURIComponent(String(id))}`,
  mailTemplatePreview: (id: string | number) => `${ADMIN_API}/mail-templates/${encodeURIComponent(String(id))}/preview`,
};

export const mailPath = {
  mailTemplates: '/mc-admin/mail-templates',
  mailTemplateCreate: '/mc-admin/mail-templates/create',
  mailTemplateEdit: (id: number | string) => `/mc-admin/mail-templates/${id}/edit`,
  mailTemplateDelete: (id: number | string) => `/mc-admin/mail-templates/${id}/delete`,
};

/** The permissions the screens check inside (the routes carry theirs in plugin.json). */
export const MAIL_PERMISSIONS = Object.freeze({
  mailTemplatesList: 'admin.mail.templates.list',
  mailTemplatesCreate: 'admin.mail.templates.create',
  mailTemplatesEdit: 'admin.mail.templates.edit',
  mailTemplatesDelete: 'admin.mail.templates.delete',
});
