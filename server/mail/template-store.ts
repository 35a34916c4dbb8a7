// ctx.mail.templates: the stored mail templates, for whichever plugin edits them. The table stays the
// core mail transport's: plugins send their declared mails (the auth plugin's verify, reset_password…)
// by name whether or not an editor is installed, so those names are protected here, not in the editor.
import type { Kysely } from 'kysely';
import { httpError, type CoreDatabase, type MailTemplate, type MailTemplates, type MailTemplateSummary, type NewMailTemplate } from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import { placeholdersIn, renderTemplate } from './render';
import type { MailTemplateCatalogue } from './template-catalogue';

const nameTaken = () => httpError(409, 'MAIL_TEMPLATE_NAME_TAKEN', 'A mail template with this name already exists.', 'name');

export class MailTemplateStore implements MailTemplates {
  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly declared: MailTemplateCatalogue,
  ) {}

  /** the declared templates' sample values (a getter: a plugin enabled later adds its own) */
  get samplePlaceholders(): Readonly<Record<string, string>> {
    return this.declared.samplePlaceholders();
  }

  async page(page: number, perPage: number): Promise<{ templates: MailTemplateSummary[]; total: number }> {
    const [templates, count] = await Promise.all([
      this.db
        .selectFrom('mail_templates')
        .select(['id', 'name', 'description', 'subject', 'updated_at'])
        .orderBy('name')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('mail_templates')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { templates, total: Number(count.n) };
  }

  async find(id: number): Promise<MailTemplate | null> {
    return (await this.db.selectFrom('mail_templates').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
  }

  private async taken(name: string): Promise<boolean> {
    return (await this.db.selectFrom('mail_templates').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async create(template: NewMailTemplate): Promise<MailTemplate> {
    if (await this.taken(template.name)) throw nameTaken();
    const now = new Date().toISOString();
    try {
      await this.db
        .insertInto('mail_templates')
        .values({ ...template, created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      // a racing request took the name between the check and the insert
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    return this.db.selectFrom('mail_templates').selectAll().where('name', '=', template.name).executeTakeFirstOrThrow();
  }

  async update(id: number, changes: Partial<NewMailTemplate>): Promise<MailTemplate | null> {
    const row = await this.find(id);
    if (!row) return null;
    if (changes.name !== undefined && changes.name !== row.name) {
      if (this.isProtected(row.name)) throw httpError(409, 'MAIL_TEMPLATE_PROTECTED', 'The panel sends this template by name: it cannot be renamed.', 'name');
      if (await this.taken(changes.name)) throw nameTaken();
    }
    try {
      await this.db
        .updateTable('mail_templates')
        .set({ ...changes, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    return this.find(id);
  }

  async delete(id: number): Promise<boolean> {
    const row = await this.find(id);
    if (!row) return false;
    if (this.isProtected(row.name)) throw httpError(409, 'MAIL_TEMPLATE_PROTECTED', 'The panel sends this template by name: it cannot be deleted.');
    const result = await this.db.deleteFrom('mail_templates').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  isProtected(name: string): boolean {
    return this.declared.isDeclared(name);
  }

  placeholdersIn(...texts: string[]): string[] {
    return placeholdersIn(...texts);
  }

  render(parts: { subject: string; html: string; text: string }, values: Readonly<Record<string, string | number>>) {
    return renderTemplate(parts, values);
  }
}
