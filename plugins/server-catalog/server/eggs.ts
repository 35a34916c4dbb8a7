// The eggs as administrators manage them. An egg belongs to a category and repeats its nest id (the
// panel addresses an egg by nest and id); a panel egg is linked to at most one of ours.
import type { Updateable } from 'kysely';
import type { HttpError, ServerPluginContext } from '@orepanel/sdk/server';
import { columnsOf, eggView, logBroken, nameContains, pageOf, type EggView, type PageOf, type Paging } from './catalog-rows';
import type { CatalogDb, CatalogEggsTable } from './tables';

export interface NewEgg {
  category_id: number;
  name: string;
  description: string | null;
  panel_nest_id: number;
  panel_egg_id: number;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
}

export type EggChanges = Partial<NewEgg>;

export interface EggPaging extends Paging {
  /** only the eggs of this category */
  categoryId: number | null;
}

export class Eggs {
  constructor(
    private readonly db: CatalogDb,
    private readonly ctx: ServerPluginContext,
  ) {}

  private views(rows: Parameters<typeof eggView>[0][]): EggView[] {
    return logBroken(rows.map(eggView), 'catalog_eggs', this.ctx.log);
  }

  private now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  notFound(): HttpError {
    return this.ctx.httpError(404, 'EGG_NOT_FOUND', 'There is no such egg.');
  }

  private linkTaken(panelId: number): HttpError {
    return this.ctx.httpError(409, 'EGG_LINK_TAKEN', `Panel egg ${panelId} is already linked to another egg.`, 'panel_egg_id');
  }

  /** the eggs with their category's name */
  private withCategory() {
    return this.db
      .selectFrom('catalog_eggs')
      .innerJoin('catalog_egg_categories', 'catalog_egg_categories.id', 'catalog_eggs.category_id')
      .selectAll('catalog_eggs')
      .select('catalog_egg_categories.name as category_name');
  }

  async list(paging: EggPaging): Promise<PageOf<EggView>> {
    let rowsQuery = this.withCategory();
    let countQuery = this.db.selectFrom('catalog_eggs');
    if (paging.categoryId !== null) {
      rowsQuery = rowsQuery.where('catalog_eggs.category_id', '=', paging.categoryId);
      countQuery = countQuery.where('category_id', '=', paging.categoryId);
    }
    const search = paging.search.trim();
    if (search !== '') {
      const asId = /^\d{1,9}$/.test(search) ? Number(search) : null;
      rowsQuery = rowsQuery.where((eb) =>
        asId === null ? nameContains('catalog_eggs.name', search) : eb.or([nameContains('catalog_eggs.name', search), eb('catalog_eggs.panel_egg_id', '=', asId)]),
      );
      countQuery = countQuery.where((eb) => (asId === null ? nameContains('name', search) : eb.or([nameContains('name', search), eb('panel_egg_id', '=', asId)])));
    }
    const [rows, count] = await Promise.all([
      rowsQuery
        .orderBy('catalog_egg_categories.name')
        .orderBy('catalog_eggs.name')
        .orderBy('catalog_eggs.id')
        .limit(paging.perPage)
        .offset((paging.page - 1) * paging.perPage)
        .execute(),
      countQuery.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageOf(this.views(rows), Number(count.n), paging);
  }

  /** every egg, by category then name (the ServerCatalog service's order) */
  async all(): Promise<EggView[]> {
    const rows = await this.withCategory()
      .orderBy('catalog_egg_categories.name')
      .orderBy('catalog_egg_categories.id')
      .orderBy('catalog_eggs.name')
      .orderBy('catalog_eggs.id')
      .execute();
    return this.views(rows);
  }

  async find(id: number): Promise<EggView | null> {
    const row = await this.withCategory().where('catalog_eggs.id', '=', id).executeTakeFirst();
    return row ? this.views([row])[0] : null;
  }

  async get(id: number): Promise<EggView> {
    const found = await this.find(id);
    if (!found) throw this.notFound();
    return found;
  }

  private async linkedTo(panelId: number, exceptId: number | null): Promise<boolean> {
    let query = this.db.selectFrom('catalog_eggs').select('id').where('panel_egg_id', '=', panelId);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  async assertLinkFree(panelId: number, exceptId: number | null): Promise<void> {
    if (await this.linkedTo(panelId, exceptId)) throw this.linkTaken(panelId);
  }

  private async categoryGone(categoryId: number): Promise<boolean> {
    return (await this.db.selectFrom('catalog_egg_categories').select('id').where('id', '=', categoryId).executeTakeFirst()) === undefined;
  }

  private categoryMissing(): HttpError {
    return this.ctx.httpError(400, 'CATEGORY_NOT_FOUND', 'There is no such egg category.', 'category_id');
  }

  async create(input: NewEgg): Promise<EggView> {
    await this.assertLinkFree(input.panel_egg_id, null);
    const now = this.now();
    try {
      await this.db
        .insertInto('catalog_eggs')
        .values({ ...columnsOf(input), created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      if (await this.linkedTo(input.panel_egg_id, null)) throw this.linkTaken(input.panel_egg_id);
      // the category was deleted meanwhile: the foreign key refused
      if (await this.categoryGone(input.category_id)) throw this.categoryMissing();
      throw error;
    }
    const { id } = await this.db.selectFrom('catalog_eggs').select('id').where('panel_egg_id', '=', input.panel_egg_id).executeTakeFirstOrThrow();
    return this.get(Number(id));
  }

  async update(id: number, changes: EggChanges): Promise<EggView> {
    const set: Updateable<CatalogEggsTable> = { ...columnsOf(changes), updated_at: this.now() };
    let updated: bigint;
    try {
      updated = (await this.db.updateTable('catalog_eggs').set(set).where('id', '=', id).executeTakeFirst()).numUpdatedRows;
    } catch (error) {
      if (changes.panel_egg_id !== undefined && (await this.linkedTo(changes.panel_egg_id, id))) throw this.linkTaken(changes.panel_egg_id);
      if (changes.category_id !== undefined && (await this.categoryGone(changes.category_id))) throw this.categoryMissing();
      throw error;
    }
    if (Number(updated) === 0) throw this.notFound();
    return this.get(id);
  }

  async delete(id: number): Promise<EggView> {
    const row = await this.get(id);
    const deleted = await this.db.deleteFrom('catalog_eggs').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw this.notFound();
    return row;
  }
}
