// Rows as the API shows them (shared/api.ts), with catalog names looked up once per answer. Every
// stored number is checked on the way out: an unreadable one is shown as 0 (or null where the field
// may be null), the row is flagged and a line is logged, so one bad row never fails a whole list.
import type { FastifyBaseLogger } from 'fastify';
import { MAX_AMOUNT, MAX_ROW_ID, storedCount, type PterodactylPanel } from '@orepanel/sdk/server';
import type { ServerCatalog } from '../../server-catalog/contract';
import type { NamedRef, QueueEntryView, QueueLogView, RenewalTerms, RowHealth, ServerView } from '../shared/api';
import { storedResources } from './account-resources';
import type { ServerQueueLogsTable, ServerQueueTable, ServersTable } from './tables';
import type { Selectable } from 'kysely';

export type ServerRow = Selectable<ServersTable>;
export type QueueRow = Selectable<ServerQueueTable>;
export type LogRow = Selectable<ServerQueueLogsTable>;

export interface CatalogNames {
  location(id: number): NamedRef | null;
  egg(id: number): NamedRef | null;
}

export async function catalogNames(catalog: ServerCatalog): Promise<CatalogNames> {
  const [locations, eggs] = await Promise.all([catalog.locations(), catalog.eggs()]);
  const l = new Map(locations.map((x) => [x.id, { id: x.id, name: x.name }]));
  const e = new Map(eggs.map((x) => [x.id, { id: x.id, name: x.name }]));
  return { location: (id) => l.get(id) ?? null, egg: (id) => e.get(id) ?? null };
}

/** What a view needs besides the row: the panel (for links) and the log (for broken rows). */
export interface ViewContext {
  pterodactyl: PterodactylPanel;
  log: FastifyBaseLogger;
}

function health(table: 'servers' | 'server_queue', id: unknown, fields: string[], log: FastifyBaseLogger): RowHealth {
  if (fields.length > 0) log.warn({ table, id, fields }, 'servers: a row holds unreadable values; listed as 0 and flagged until an administrator mends it');
  return { broken: fields.length > 0, broken_fields: fields };
}

export async function serverView(row: ServerRow, names: CatalogNames, ctx: ViewContext): Promise<ServerView> {
  const { resources, broken } = storedResources(row);
  const fields: string[] = [...broken];
  const panelId = storedCount(row.panel_id, MAX_ROW_ID, 1);
  if (panelId === null) fields.push('panel_id');
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    identifier: row.identifier,
    panel_id: panelId ?? 0,
    panel_url: await ctx.pterodactyl.serverUrl(row.identifier).catch(() => null),
    location: names.location(row.location_id),
    egg: names.egg(row.egg_id),
    resources,
    expires_at: row.expires_at,
    suspended_at: row.suspended_at,
    created_at: row.created_at,
    ...health('servers', row.id, fields, ctx.log),
  };
}

export function queueEntryView(row: QueueRow, names: CatalogNames, log: FastifyBaseLogger): QueueEntryView {
  const { resources, broken } = storedResources(row);
  const fields: string[] = [...broken];
  const attempts = storedCount(row.attempts, MAX_AMOUNT);
  if (attempts === null) fields.push('attempts');
  const serverId = row.server_id === null ? null : storedCount(row.server_id, MAX_ROW_ID, 1);
  if (row.server_id !== null && serverId === null) fields.push('server_id');
  return {
    id: row.id,
    status: row.status,
    name: row.name,
    description: row.description,
    location: names.location(row.location_id),
    egg: names.egg(row.egg_id),
    resources,
    attempts: attempts ?? 0,
    last_error: row.last_error,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    server_id: serverId,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...health('server_queue', row.id, fields, log),
  };
}

export function queueLogView(row: LogRow): QueueLogView {
  return { id: row.id, entry_id: row.entry_id, attempt: storedCount(row.attempt) ?? 0, outcome: row.outcome, message: row.message, created_at: row.created_at };
}

/** A renewal adds at most a century (a longer one is no renewal but a typo, and past year 275760 no date). */
const MAX_RENEW_DAYS = 36_500;

/**
 * The renewal settings as terms. With renewals on, a cost or a number of days that is not a whole
 * number in range can be neither charged nor added to a date: the terms are then `unreadable`
 * (logged) and show renewals as off — never a NaN charge or an invalid expiry.
 */
export async function readRenewal(ctx: {
  settings: { getMany(keys: readonly string[]): Promise<Record<string, unknown>> };
  log: FastifyBaseLogger;
}): Promise<{ terms: RenewalTerms; unreadable: boolean }> {
  const s = await ctx.settings.getMany(['server_renew_enabled', 'server_renew_cost', 'server_renew_days']);
  const enabled = s.server_renew_enabled === true;
  const cost = storedCount(s.server_renew_cost ?? 0);
  const days = storedCount(s.server_renew_days ?? 30, MAX_RENEW_DAYS, 1);
  // while renewals are off nothing is charged or dated, so nothing is unreadable either
  if (!enabled) return { terms: { enabled, cost: cost ?? 0, days: days ?? 0 }, unreadable: false };
  if (cost === null || days === null) {
    ctx.log.error(
      { cost: s.server_renew_cost, days: s.server_renew_days },
      'servers: server_renew_cost / server_renew_days are not whole numbers in range; renewals are off until they are mended',
    );
    return { terms: { enabled: false, cost: 0, days: 0 }, unreadable: true };
  }
  return { terms: { enabled, cost, days }, unreadable: false };
}

export async function renewalTerms(ctx: Parameters<typeof readRenewal>[0]): Promise<RenewalTerms> {
  return (await readRenewal(ctx)).terms;
}
