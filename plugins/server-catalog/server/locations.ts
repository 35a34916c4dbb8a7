// The locations as administrators manage them. A location is linked to one panel location, and a
// panel location to at most one of ours (the unique key decides between racing requests).
import type { Updateable } from 'kysely';
import type { HttpError, ServerPluginContext } from '@orepanel/sdk/server';
import type { LocationStatusName } from '../shared/catalog-rules';
import { columnsOf, locationView, logBroken, nameContains, pageOf, type LocationView, type PageOf, type Paging } from './catalog-rows';
import type { CatalogDb, CatalogLocationsTable } from './tables';

export interface NewLocation {
  name: string;
  description: string | null;
  panel_location_id: number;
  slots: number;
  status: LocationStatusName;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
}

export type LocationChanges = Partial<NewLocation>;

export class Locations {
  constructor(
    private readonly db: CatalogDb,
    private readonly ctx: ServerPluginContext,
  ) {}

  private now(): string {
    return new Date(this.ctx.clock.now()).toISOString();
  }

  private views(rows: Parameters<typeof locationView>[0][]): LocationView[] {
    return logBroken(rows.map(locationView), 'catalog_locations', this.ctx.log);
  }

  notFound(): HttpError {
    return this.ctx.httpError(404, 'LOCATION_NOT_FOUND', 'There is no such location.');
  }

  private linkTaken(panelId: number): HttpError {
    return this.ctx.httpError(409, 'LOCATION_LINK_TAKEN', `Panel location ${panelId} is already linked to another location.`, 'panel_location_id');
  }

  async list(paging: Paging): Promise<PageOf<LocationView>> {
    let query = this.db.selectFrom('catalog_locations');
    const search = paging.search.trim();
    if (search !== '') {
      query = query.where((eb) => {
        const byName = nameContains('name', search);
        return /^\d{1,9}$/.test(search) ? eb.or([byName, eb('panel_location_id', '=', Number(search))]) : byName;
      });
    }
    const [rows, count] = await Promise.all([
      query
        .selectAll()
        .orderBy('name')
        .orderBy('id')
        .limit(paging.perPage)
        .offset((paging.page - 1) * paging.perPage)
        .execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return pageOf(this.views(rows), Number(count.n), paging);
  }

  async all(): Promise<LocationView[]> {
    return this.views(await this.db.selectFrom('catalog_locations').selectAll().orderBy('name').orderBy('id').execute());
  }

  async find(id: number): Promise<LocationView | null> {
    const row = await this.db.selectFrom('catalog_locations').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.views([row])[0] : null;
  }

  async get(id: number): Promise<LocationView> {
    const found = await this.find(id);
    if (!found) throw this.notFound();
    return found;
  }

  private async linkedTo(panelId: number, exceptId: number | null): Promise<boolean> {
    let query = this.db.selectFrom('catalog_locations').select('id').where('panel_location_id', '=', panelId);
    if (exceptId !== null) query = query.where('id', '!=', exceptId);
    return (await query.executeTakeFirst()) !== undefined;
  }

  /** Refuses a panel location another row links to already (checked again by the unique key on save). */
  async assertLinkFree(panelId: number, exceptId: number | null): Promise<void> {
    if (await this.linkedTo(panelId, exceptId)) throw this.linkTaken(panelId);
  }

  async create(input: NewLocation): Promise<LocationView> {
    await this.assertLinkFree(input.panel_location_id, null);
    const now = this.now();
    try {
      await this.db
        .insertInto('catalog_locations')
        .values({ ...columnsOf(input), created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      if (await this.linkedTo(input.panel_location_id, null)) throw this.linkTaken(input.panel_location_id);
      throw error;
    }
    const row = await this.db.selectFrom('catalog_locations').selectAll().where('panel_location_id', '=', input.panel_location_id).executeTakeFirstOrThrow();
    return locationView(row);
  }

  async update(id: number, changes: LocationChanges): Promise<LocationView> {
    const set: Updateable<CatalogLocationsTable> = { ...columnsOf(changes), updated_at: this.now() };
    let updated: bigint;
    try {
      updated = (await this.db.updateTable('catalog_locations').set(set).where('id', '=', id).executeTakeFirst()).numUpdatedRows;
    } catch (error) {
      if (changes.panel_location_id !== undefined && (await this.linkedTo(changes.panel_location_id, id))) throw this.linkTaken(changes.panel_location_id);
      throw error;
    }
    if (Number(updated) === 0) throw this.notFound();
    return this.get(id);
  }

  async delete(id: number): Promise<LocationView> {
    const row = await this.get(id);
    const deleted = await this.db.deleteFrom('catalog_locations').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw this.notFound();
    return row;
  }
}
