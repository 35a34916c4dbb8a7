// The egg categories (the panel's nests) as administrators manage them. A category's eggs repeat its
// nest id, so the nest of a category that holds eggs cannot change, and a category is deleted only
// when it holds none — in the same statement that deletes it, and the foreign key has the last word.
import type { Updateable } from 'kysely';
import type { HttpError, ServerPluginContext } from '@orepanel/sdk/server';
import { categoryView, columnsOf, logBroken, nameContains, pageOf, type CategoryView, type PageOf, type Paging } from './catalog-rows';
import type { CatalogDb, CatalogEggCategoriesTable } from './tables';

export interface NewCategory {
  name: string;
  description: string | null;
  panel_nest_id: number;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
}

export type CategoryChanges = Partial<NewCategory>;

export class EggCategories {
  constructor(
    private readonly db: CatalogDb,
    private readonly ctx: ServerPluginContext,
  ) {}

  private views(rows: Parameters<typeof categoryView>[0][]): CategoryView[] {
    return logBroken(rows.map(categoryView), 'catalog_egg_categories', this.ctx.log);
  }

  private now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  notFound(): HttpError {
    return this.ctx.httpError(404, 'CATEGORY_NOT_FOUND', 'There is no such egg category.');
  }

  private linkTaken(panelId: number): HttpError {
    return this.ctx.httpError(409, 'CATEGORY_LINK_TAKEN', `Panel nest ${panelId} is already linked to another egg category.`, 'panel_nest_id');
  }

  private hasEggs(count: number): HttpError {
    return this.ctx.httpError(409, 'CATEGORY_HAS_EGGS', `This category still holds ${count} egg(s): delete or move them first.`);
  }

  /** the categories with their egg counts */
  private withCounts() {
    return this.db
      .selectFrom('catalog_egg_categories')
      .selectAll('catalog_egg_categories')
      .select((eb) =>
        eb.selectFrom('catalog_eggs').select(eb.fn.countAll<number | string>().as('n')).whereRef('catalog_eggs.category_id', '=', 'catalog_egg_categories.id').as('egg_count'),
      );
  }

  async list(paging: Paging): Promise<PageOf<CategoryView>> {
    const search = paging.search.trim();
    let rowsQuery = this.withCounts();
    let countQuery = this.db.selectFrom('catalog_egg_categories');
    if (search !== '') {
      const asId = /^\d{1,9}$/.test(search) ? Number(search) : null;
      rowsQuery = rowsQuery.where((eb) =>
        asId === null
          ? nameContains('catalog_egg_categories.name', search)
          : eb.or([nameContains('catalog_egg_categories.name', search), eb('catalog_egg_categories.panel_nest_id', '=', asId)]),
      );
      countQuery = countQuery.where((eb) => (asId === null ? nameContains('name', search) : eb.or([nameContains('name', search), eb('panel_nest_id', '=', asId)])));
    }
    const [rows, count] = await Promise.all([
      rowsQuery
        .orderBy('catalog_egg_categories.name')
        .orderBy('catalog_egg_categories.id')
        .limit(paging.perPage)
        .offset((paging.page - 1) * paging.perPage)
        .execute(),
      countQuery.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageOf(this.views(rows), Number(count.n), paging);
  }

  async all(): Promise<CategoryView[]> {
    return this.views(await this.withCounts().orderBy('catalog_egg_categories.name').orderBy('catalog_egg_categories.id').execute());
  }

  async find(id: number): Promise<CategoryView | null> {
    const row = await this.withCounts().where('catalog_egg_categories.id', '=', id).executeTakeFirst();
    return row ? this.views([row])[0] : null;
  }

  async get(id: number): Promise<CategoryView> {
    const found = await this.find(id);
    if (!found) throw this.notFound();
    return found;
  }

  private async linkedTo(panelId: number, exceptId: number | null): Promise<boolean> {
    let query = this.db.selectFrom('catalog_egg_categories').select('id').where('panel_nest_id', '=', panelId);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async assertLinkFree(panelId: number, exceptId: number | null): Promise<void> {
    if (await this.linkedTo(panelId, exceptId)) throw this.linkTaken(panelId);
  }

  async create(input: NewCategory): Promise<CategoryView> {
    await this.assertLinkFree(input.panel_nest_id, null);
    const now = this.now();
    try {
      await this.db
        .insertInto('catalog_egg_categories')
        .values({ ...columnsOf(input), created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      if (await this.linkedTo(input.panel_nest_id, null)) throw this.linkTaken(input.panel_nest_id);
      throw error;
    }
    const { id } = await this.db.selectFrom('catalog_egg_categories').select('id').where('panel_nest_id', '=', input.panel_nest_id).executeTakeFirstOrThrow();
    return this.get(Number(id));
  }

  async update(id: number, changes: CategoryChanges): Promise<CategoryView> {
    const set: Updateable<CatalogEggCategoriesTable> = { ...columnsOf(changes), updated_at: this.now() };
    let query = this.db.updateTable('catalog_egg_categories').set(set).where('id', '=', id);
    // the eggs repeat the nest id: a nest changes only while no egg (or one already of the new nest)
    // would be left behind — compared in the statement that saves, so an egg added meanwhile counts
    if (changes.panel_nest_id !== undefined) {
      const nest = changes.panel_nest_id;
      query = query.where((eb) =>
        eb.not(eb.exists(eb.selectFrom('catalog_eggs').select('catalog_eggs.id').where('catalog_eggs.category_id', '=', id).where('catalog_eggs.panel_nest_id', '!=', nest))),
      );
    }
    let updated: bigint;
    try {
      updated = (await query.executeTakeFirst()).numUpdatedRows;
    } catch (error) {
      if (changes.panel_nest_id !== undefined && (await this.linkedTo(changes.panel_nest_id, id))) throw this.linkTaken(changes.panel_nest_id);
      throw error;
    }
    if (Number(updated) === 0) {
      const now = await this.get(id);
      if (changes.panel_nest_id !== undefined && now.eggs > 0) {
        throw this.ctx.httpError(
          409,
          'CATEGORY_HAS_EGGS',
          `The eggs of this category belong to panel nest ${now.panel_nest_id}: delete them before linking another nest.`,
          'panel_nest_id',
        );
      }
      throw this.notFound();
    }
    return this.get(id);
  }

  async delete(id: number): Promise<CategoryView> {
    const row = await this.get(id);
    if (row.eggs > 0) throw this.hasEggs(row.eggs);
    let deleted: bigint;
    try {
      deleted = (
        await this.db
          .deleteFrom('catalog_egg_categories')
          .where('id', '=', id)
          .where((eb) => eb.not(eb.exists(eb.selectFrom('catalog_eggs').select('catalog_eggs.id').where('catalog_eggs.category_id', '=', id))))
          .executeTakeFirst()
      ).numDeletedRows;
    } catch (error) {
      // an egg was added between the check and the delete: the foreign key refused
      const now = await this.find(id);
      if (now && now.eggs > 0) throw this.hasEggs(now.eggs);
      throw error;
    }
    if (Number(deleted) === 0) {
      const now = await this.find(id);
      if (now && now.eggs > 0) throw this.hasEggs(now.eggs);
      throw this.notFound();
    }
    return row;
  }
}
