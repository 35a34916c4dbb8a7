// The rules a new server must pass before it is queued (reference behaviour "Servers"): minimums,
// the forced account links, one pending entry at a time, VIP locations and eggs, an enabled and
// online location with a free slot, an enabled egg in an enabled category, and enough free
// resources and a free server slot. The catalog rules are checked before the user's lock is taken
// (they read another plugin's tables); the resource rules inside it.
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { OAuthGrants } from '../../auth/contract';
import type { CatalogCategory, CatalogEgg, CatalogLocation, ServerCatalog } from '../../server-catalog/contract';
import {
  SERVER_MAXIMUMS,
  SERVER_MINIMUMS,
  SERVER_RESOURCE_KEYS,
  type CreateBlocker,
  type CreateServerRequest,
  type LocationUnavailableReason,
  type ServerResources,
} from '../shared/api';
import { ACTIVE_QUEUE_STATUSES, type AccountResources, type ResourceSummary, type ServersTrx } from './account-resources';
import type { ServersDb } from './tables';

export interface CatalogChoice {
  location: CatalogLocation;
  egg: CatalogEgg;
  category: CatalogCategory;
}

/** How many servers and pending/building entries each location holds (all users). */
export async function locationUse(db: ServersDb | ServersTrx): Promise<Map<number, number>> {
  const [servers, entries] = await Promise.all([
    db
      .selectFrom('servers')
      .select(['location_id', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('location_id')
      .execute(),
    db
      .selectFrom('server_queue')
      .select(['location_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('status', 'in', ACTIVE_QUEUE_STATUSES)
      .groupBy('location_id')
      .execute(),
  ]);
  const use = new Map<number, number>();
  for (const row of [...servers, ...entries]) use.set(row.location_id, (use.get(row.location_id) ?? 0) + Number(row.n));
  return use;
}

export function locationReason(location: CatalogLocation, used: number, vip: boolean): LocationUnavailableReason | null {
  if (location.vipOnly && !vip) return 'VIP_ONLY';
  if (!location.enabled || location.status !== 'online') return 'LOCATION_UNAVAILABLE';
  if (used >= location.slots) return 'LOCATION_FULL';
  return null;
}

export class CreationRules {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly catalog: () => ServerCatalog,
    private readonly grants: () => OAuthGrants,
    private readonly resources: AccountResources,
  ) {}

  /**
   * Every resource asked for, databases and backups included: a whole number from its minimum to
   * SERVER_MAXIMUMS. The schema says so too; this is the check the spending code relies on, so a
   * value the schema let through (±Infinity once did) never reaches a sum or the panel.
   */
  checkWanted(body: ServerResources): void {
    for (const key of SERVER_RESOURCE_KEYS) {
      const value: unknown = body[key];
      const min = SERVER_MINIMUMS[key];
      const max = SERVER_MAXIMUMS[key];
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value > max) {
        throw this.ctx.httpError(400, 'VALIDATION_ERROR', `${key} must be a whole number from ${min} to ${max}.`, key);
      }
      if (value < min) throw this.ctx.httpError(400, 'BELOW_MINIMUM', `${key} must be at least ${min}.`, key);
    }
  }

  /** The forced links the user lacks (settings force_discord_link / force_github_link). */
  async missingLinks(userId: number): Promise<CreateBlocker[]> {
    const s = await this.ctx.settings.getMany(['force_discord_link', 'force_github_link']);
    const out: CreateBlocker[] = [];
    const grants = this.grants();
    if (s.force_discord_link === true && !(await grants.linkedAccount(userId, 'discord'))) out.push('FORCE_DISCORD_LINK');
    if (s.force_github_link === true && !(await grants.linkedAccount(userId, 'github'))) out.push('FORCE_GITHUB_LINK');
    return out;
  }

  async checkLinks(userId: number): Promise<void> {
    const missing = await this.missingLinks(userId);
    if (missing.includes('FORCE_DISCORD_LINK')) throw this.ctx.httpError(403, 'FORCE_DISCORD_LINK', 'Link a Discord account to your profile before creating a server.');
    if (missing.includes('FORCE_GITHUB_LINK')) throw this.ctx.httpError(403, 'FORCE_GITHUB_LINK', 'Link a GitHub account to your profile before creating a server.');
  }

  async checkPanelConfigured(): Promise<void> {
    if (!(await this.ctx.pterodactyl.configured())) {
      throw this.ctx.httpError(503, 'PANEL_NOT_CONFIGURED', 'Servers cannot be created until the host panel is set up.');
    }
  }

  /** The location and egg chosen, if the user may build there (slots are checked again under the lock). */
  async checkCatalog(body: Pick<CreateServerRequest, 'location_id' | 'egg_id'>, vip: boolean): Promise<CatalogChoice> {
    const catalog = this.catalog();
    const location = await catalog.location(body.location_id);
    if (!location || !location.enabled) throw this.ctx.httpError(400, 'LOCATION_UNAVAILABLE', 'This location does not exist or is disabled.', 'location_id');
    if (location.vipOnly && !vip) throw this.ctx.httpError(403, 'VIP_ONLY', 'This location is for VIP members only.', 'location_id');
    if (location.status !== 'online') throw this.ctx.httpError(400, 'LOCATION_UNAVAILABLE', `This location is ${location.status} right now.`, 'location_id');
    const egg = await catalog.egg(body.egg_id);
    const category = egg ? await catalog.category(egg.categoryId) : null;
    if (!egg || !egg.enabled || !category || !category.enabled) throw this.ctx.httpError(400, 'EGG_UNAVAILABLE', 'This egg does not exist or is disabled.', 'egg_id');
    if ((egg.vipOnly || category.vipOnly) && !vip) throw this.ctx.httpError(403, 'VIP_ONLY', 'This egg is for VIP members only.', 'egg_id');
    return { location, egg, category };
  }

  async checkNoPendingEntry(userId: number, trx: ServersTrx): Promise<void> {
    const pending = await trx.selectFrom('server_queue').select('id').where('user_id', '=', userId).where('status', 'in', ACTIVE_QUEUE_STATUSES).executeTakeFirst();
    if (pending) throw this.ctx.httpError(409, 'PENDING_ENTRY', 'You already have a server waiting to be created.');
  }

  /** Inside the user's lock: a free slot, enough of each resource, and room in the location. */
  async checkRoom(userId: number, wanted: ServerResources, location: CatalogLocation, trx: ServersTrx): Promise<void> {
    const summary = await this.resources.summary(userId, trx);
    if (!summary) throw this.ctx.httpError(404, 'USER_NOT_FOUND', 'This account no longer exists.', 'user_uuid');
    if (summary.broken.includes('server_slots'))
      throw this.ctx.httpError(
        409,
        'RESOURCES_UNREADABLE',
        'The server slots of this account cannot be counted: its record holds an unreadable value. An administrator must mend it first.',
      );
    if (summary.free.server_slots < 1) throw this.ctx.httpError(409, 'NO_FREE_SLOT', 'Every server slot of this account is in use.');
    this.checkFree(wanted, summary);
    const used = (await locationUse(trx)).get(location.id) ?? 0;
    if (used >= location.slots) throw this.ctx.httpError(409, 'LOCATION_FULL', 'This location has no free slot.', 'location_id');
  }

  /** `wanted` (new amounts, or a resize's increase) against what is free; none of an unreadable resource is. */
  checkFree(wanted: ServerResources, summary: Pick<ResourceSummary, 'free' | 'broken'>): void {
    for (const key of SERVER_RESOURCE_KEYS) {
      if (wanted[key] > 0 && summary.broken.includes(key)) {
        throw this.ctx.httpError(
          409,
          'RESOURCES_UNREADABLE',
          `The ${key} of this account cannot be counted: one of its records holds an unreadable value. An administrator must mend it first.`,
          key,
        );
      }
      const free = summary.free[key];
      if (wanted[key] > free) throw this.ctx.httpError(409, 'NOT_ENOUGH_RESOURCES', `Not enough ${key}: ${free} free, ${wanted[key]} asked.`, key);
    }
  }
}

/** user.permission.vip, or admin.root (which passes every check, spec §6). */
export function holdsVip(permissions: readonly string[]): boolean {
  return permissions.includes('user.permission.vip') || permissions.includes('admin.root');
}
