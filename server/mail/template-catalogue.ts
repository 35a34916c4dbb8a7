// The mail templates plugins declare: plugin.json "mailTemplates" names each one with its description
// and placeholders, and its default texts are files in the plugin's folder (mail/<name>.subject.txt,
// .html, .txt). The panel sends them by name, so a name belongs to one plugin (a later plugin
// declaring it again is refused), a declared template is stored when it is missing — never over an
// administrator's edits — and cannot be renamed or deleted. The core sends no mail of its own: every
// template the panel sends is some plugin's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { CoreDatabase } from '../../sdk/server';
import type { ManifestMailTemplate } from '../../sdk/types';
import { isUniqueViolation } from '../db/connect';
import { placeholdersIn } from './render';

/** filled by the mailer for every mail: a template uses them without declaring them */
const ALWAYS_FILLED: ReadonlySet<string> = new Set(['app_name', 'app_url']);

export interface DeclaredMailTemplate {
  plugin: string;
  name: string;
  description: string;
  subject: string;
  html: string;
  text: string;
  /** placeholder → the sample value the administrators' preview shows */
  placeholders: Readonly<Record<string, string>>;
}

/** One text of a template; a final line break is the editor's, not the template's. */
function readPart(dir: string, file: string): string | null {
  try {
    return readFileSync(join(dir, 'mail', file), 'utf8').replace(/\r?\n$/, '');
  } catch {
    return null;
  }
}

export class MailTemplateCatalogue {
  private readonly byName = new Map<string, DeclaredMailTemplate>();
  private samples: Readonly<Record<string, string>> | null = null;

  constructor(private readonly db: Kysely<CoreDatabase>) {}

  /** Reads a plugin's declared templates from its folder `dir`; a readable reason when it may not declare them. */
  read(plugin: string, dir: string, declarations: readonly ManifestMailTemplate[]): DeclaredMailTemplate[] | string {
    const templates: DeclaredMailTemplate[] = [];
    for (const { name, description, placeholders } of declarations) {
      const owner = this.byName.get(name)?.plugin;
      if (owner !== undefined && owner !== plugin) return `its mail template "${name}" is already declared by plugin "${owner}"`;
      const parts = { subject: `${name}.subject.txt`, html: `${name}.html`, text: `${name}.txt` };
      const texts: Record<keyof typeof parts, string> = { subject: '', html: '', text: '' };
      for (const part of ['subject', 'html', 'text'] as const) {
        const content = readPart(dir, parts[part]);
        if (content === null) return `its mail template "${name}" has no readable mail/${parts[part]}`;
        texts[part] = content;
      }
      if (/[\r\n]/.test(texts.subject) || texts.subject.length > 255) return `the subject of its mail template "${name}" must be one line of at most 255 characters`;
      const undeclared = placeholdersIn(texts.subject, texts.html, texts.text).find((p) => !ALWAYS_FILLED.has(p) && !Object.hasOwn(placeholders, p));
      if (undeclared !== undefined) return `its mail template "${name}" uses \${${undeclared}}, which its placeholders do not declare`;
      templates.push({ plugin, name, description, ...texts, placeholders });
    }
    return templates;
  }

  declare(plugin: string, templates: readonly DeclaredMailTemplate[]): void {
    this.forget(plugin);
    for (const template of templates) this.byName.set(template.name, template);
    this.samples = null;
  }

  /** A plugin that failed after loading: its names are free again. */
  forget(plugin: string): void {
    for (const [name, template] of this.byName) if (template.plugin === plugin) this.byName.delete(name);
    this.samples = null;
  }

  /** True when a plugin sends a template by this name. */
  isDeclared(name: string): boolean {
    return this.byName.has(name);
  }

  /** Sample values for the preview: every declared placeholder, the first declaration's value where two differ. */
  samplePlaceholders(): Readonly<Record<string, string>> {
    if (this.samples === null) {
      const samples: Record<string, string> = {};
      for (const template of this.byName.values()) {
        for (const [placeholder, value] of Object.entries(template.placeholders)) if (!Object.hasOwn(samples, placeholder)) samples[placeholder] = value;
      }
      this.samples = Object.freeze(samples);
    }
    return this.samples;
  }

  /** Stores the declared templates of `plugins` that are missing; an existing row is left as it is. */
  async seed(plugins: Iterable<string>): Promise<void> {
    const ids = new Set(plugins);
    const declared = [...this.byName.values()].filter((t) => ids.has(t.plugin));
    if (declared.length === 0) return;
    const present = await this.db
      .selectFrom('mail_templates')
      .select('name')
      .where(
        'name',
        'in',
        declared.map((t) => t.name),
      )
      .execute();
    const stored = new Set(present.map((r) => r.name));
    for (const { name, description, subject, html, text } of declared) {
      if (stored.has(name)) continue;
      const now = new Date().toISOString();
      try {
        await this.db.insertInto('mail_templates').values({ name, description, subject, html, text, created_at: now, updated_at: now }).execute();
      } catch (error) {
        // another instance (or an administrator) stored it first: theirs stands
        if (!isUniqueViolation(error)) throw error;
      }
    }
  }
}
