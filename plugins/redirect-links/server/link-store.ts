// The redirect links: named external addresses an administrator adds to the navigation
// (/mc-admin/redirect-links). Read by the admin API (admin-routes.ts) and by the public list the
// navigation shows them from (nav-routes.ts). No cache: every instance reads the table, so a change
// shows everywhere at once.
import type { Kysely } from 'kysely';
import { insertedId, type DatabaseDialect, type PluginReadableDatabase } from '@orepanel/sdk/server';
import type { RedirectLinksTable, RedirectLinkTables } from './tables';

/** A link as the APIs answer it. */
export interface RedirectLink {
  id: number;
  name: string;
  url: string;
  icon: string | null;
  /** smaller first in the navigation; equal orders by name */
  order: number;
  created_at: string;
  updated_at: string;
}

export interface RedirectLinkInput {
  name: string;
  url: string;
  icon: string | null;
  order: number;
}

type Row = Omit<RedirectLinksTable, 'id'> & { id: number };

const present = (row: Row): RedirectLink => ({
  id: Number(row.id),
  name: row.name,
  url: row.url,
  icon: row.icon,
  order: Number(row.sort_order),
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export class RedirectLinkStore {
  constructor(
    private readonly db: Kysely<PluginReadableDatabase & RedirectLinkTables>,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** Every link in navigation order. */
  async all(): Promise<RedirectLink[]> {
    const rows = await this.db.selectFrom('redirect_links').selectAll().orderBy('sort_order').orderBy('name').orderBy('id').execute();
    return rows.map(present);
  }

  /** One page of the links in navigation order, with the total. */
  async page(page: number, perPage: number): Promise<{ links: RedirectLink[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom('redirect_links')
        .selectAll()
        .orderBy('sort_order')
        .orderBy('name')
        .orderBy('id')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      this.db
        .selectFrom('redirect_links')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { links: rows.map(present), total: Number(count.n) };
  }

  async find(id: number): Promise<RedirectLink | null> {
    const row = await this.db.selectFrom('redirect_links').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? present(row) : null;
  }

  async create(input: RedirectLinkInput): Promise<RedirectLink> {
    const now = new Date().toISOString();
    const values = { name: input.name, url: input.url, icon: input.icon, sort_order: input.order, created_at: now, updated_at: now };
    const id = await insertedId(this.dialect, this.db.insertInto('redirect_links').values(values));
    const created = await this.find(id);
    if (!created) throw new Error(`redirect link ${id} vanished right after its insert`);
    return created;
  }

  /** Applies `changes`; null when there is no such link. */
  async update(id: number, changes: Partial<RedirectLinkInput>): Promise<RedirectLink | null> {
    const set: Partial<Omit<RedirectLinksTable, 'id'>> = { updated_at: new Date().toISOString() };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.url !== undefined) set.url = changes.url;
    if (changes.icon !== undefined) set.icon = changes.icon;
    if (changes.order !== undefined) set.sort_order = changes.order;
    const result = await this.db.updateTable('redirect_links').set(set).where('id', '=', id).executeTakeFirst();
    // MySQL counts only rows that really changed; the row may exist with the same values
    if (Number(result.numUpdatedRows) === 0 && !(await this.find(id))) return null;
    return this.find(id);
  }

  /** True when a link was deleted. */
  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('redirect_links').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
