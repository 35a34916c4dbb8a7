// The mail template form's checks: the same rules as the server's schema (server/admin-routes.ts),
// which stays the authority.
export interface MailTemplateFormValues {
  name: string;
  description: string;
  subject: string;
  html: string;
  text: string;
}

export type MailTemplateFormProblems = Partial<Record<keyof MailTemplateFormValues, string>>;

export const EMPTY_MAIL_TEMPLATE: MailTemplateFormValues = { name: '', description: '', subject: '', html: '', text: '' };

const NAME_PATTERN = /^[a-z0-9][a-z0-9_.-]*$/;
const MAX = { name: 64, description: 255, subject: 255, html: 100_000, text: 100_000 } as const;
/** ${name}: the placeholder syntax the server renders */
const PLACEHOLDER = /\$\{([a-zA-Z_][a-zA-Z0-9_]{0,63})\}/g;

/** i18n keys (admin namespace) of the problems, per field. */
export function checkMailTemplateForm(values: MailTemplateFormValues): MailTemplateFormProblems {
  const problems: MailTemplateFormProblems = {};
  if (values.name === '') problems.name = 'validation.required';
  else if (!NAME_PATTERN.test(values.name)) problems.name = 'validation.templateName';
  if (values.subject.trim() === '') problems.subject = 'validation.required';
  if (values.html.trim() === '') problems.html = 'validation.required';
  for (const key of Object.keys(MAX) as (keyof MailTemplateFormValues)[]) {
    if (!problems[key] && values[key].length > MAX[key]) problems[key] = 'validation.tooLong';
  }
  return problems;
}

/** The fields that differ from `before` (a new template: all of them). */
export function mailTemplateChanges(before: MailTemplateFormValues | null, values: MailTemplateFormValues): Partial<MailTemplateFormValues> {
  const out: Partial<MailTemplateFormValues> = {};
  const next = { ...values, description: values.description.trim(), subject: values.subject.trim() };
  for (const key of ['name', 'description', 'subject', 'html', 'text'] as const) if (!before || before[key] !== next[key]) out[key] = next[key];
  return out;
}

/** The ${names} used in the subject and bodies, each once, in order of appearance. */
export function placeholdersIn(values: Pick<MailTemplateFormValues, 'subject' | 'html' | 'text'>): string[] {
  const seen = new Set<string>();
  for (const text of [values.subject, values.html, values.text]) for (const m of text.matchAll(PLACEHOLDER)) seen.add(m[1]);
  return [...seen];
}
