// Rows as the API shows them (shared/api.ts), with catalog names looked up once per answer.
import type { PterodactylPanel, ServerCatalog } from '@orepanel/sdk/server';
import type { NamedRef, QueueEntryView, QueueLogView, RenewalTerms, ServerView } from '../shared/api';
import { resourcesOf } from './account-resources';
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

export async function serverView(row: ServerRow, names: CatalogNames, panel: PterodactylPanel): Promise<ServerView> {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    identifier: row.identifier,
    panel_id: Number(row.panel_id),
    panel_url: await panel.serverUrl(row.identifier).catch(() => null),
    location: names.location(row.location_id),
    egg: names.egg(row.egg_id),
    resources: numeric(resourcesOf(row)),
    expires_at: row.expires_at,
    suspended_at: row.suspended_at,
    created_at: row.created_at,
  };
}

export function queueEntryView(row: QueueRow, names: CatalogNames): QueueEntryView {
  return {
    id: row.id,
    status: row.status,
    name: row.name,
    description: row.description,
    location: names.location(row.location_id),
    egg: names.egg(row.egg_id),
    resources: numeric(resourcesOf(row)),
    attempts: Number(row.attempts),
    last_error: row.last_error,
    next_attempt_at: row.status === 'pending' ? row.next_attempt_at : null,
    server_id: row.server_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function queueLogView(row: LogRow): QueueLogView {
  return { id: row.id, entry_id: row.entry_id, attempt: Number(row.attempt), outcome: row.outcome, message: row.message, created_at: row.created_at };
}

export async function renewalTerms(settings: { getMany(keys: readonly string[]): Promise<Record<string, unknown>> }): Promise<RenewalTerms> {
  const s = await settings.getMany(['server_renew_enabled', 'server_renew_cost', 'server_renew_days']);
  return { enabled: s.server_renew_enabled === true, cost: Number(s.server_renew_cost ?? 0), days: Number(s.server_renew_days ?? 30) };
}

function numeric<T extends Record<string, number>>(values: T): T {
  const out = { ...values };
  for (const key of Object.keys(out) as (keyof T)[]) out[key] = Number(out[key]) as T[keyof T];
  return out;
}
