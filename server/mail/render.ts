// Filling a template's ${placeholders}. Values are escaped in the HTML part (a user's first name is
// input from anyone who registers: it must never become markup in a mail) and kept as they are in
// the text part; the subject is one line (no CR/LF, so it can never add a header).

export type Placeholders = Readonly<Record<string, string | number>>;

export interface TemplateParts {
  subject: string;
  html: string;
  text: string;
}

const PLACEHOLDER = /\$\{([a-zA-Z_][a-zA-Z0-9_]{0,63})\}/g;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch]);
}

/** Replaces each known ${name}; an unknown one stays as written, so an author sees the typo. */
export function fill(template: string, values: Placeholders, escape: (value: string) => string): string {
  return template.replace(PLACEHOLDER, (whole, name: string) => (Object.hasOwn(values, name) ? escape(String(values[name])) : whole));
}

export function renderTemplate(parts: TemplateParts, values: Placeholders): TemplateParts {
  return {
    subject: fill(parts.subject, values, (v) => v)
      .replace(/[\r\n]+/g, ' ')
      .slice(0, 255),
    html: fill(parts.html, values, escapeHtml),
    text: fill(parts.text, values, (v) => v),
  };
}

/** The ${names} a template uses, in order of first use. */
export function placeholdersIn(...texts: string[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) for (const m of text.matchAll(PLACEHOLDER)) seen.add(m[1]);
  return [...seen];
}
