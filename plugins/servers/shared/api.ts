// The servers plugin's HTTP contract: every route's request and answer, shared by the server part
// (which validates and answers with these shapes) and the pages. Ids in paths are our own numeric ids
// (servers.id, queue entry id), never the panel's. Errors are `{ error: { code, message, field? } }`
// with a code from SERVERS_ERROR_CODES (plus the host's VALIDATION_ERROR, FEATURE_DISABLED,
// FORBIDDEN…, and the wallet's INSUFFICIENT_COINS).

/** What a server is built with: ram and disk in MiB, cpu in % (100 = one core), the rest counts. */
export const SERVER_RESOURCE_KEYS = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups'] as const;
export type ServerResourceKey = (typeof SERVER_RESOURCE_KEYS)[number];
export type ServerResources = Record<ServerResourceKey, number>;

/** An account's resources: what a server is built with, plus how many servers it may have. */
export interface Resources extends ServerResources {
  server_slots: number;
}

/** reference behaviour: memory ≥ 256 MiB, cpu ≥ 5 %, disk ≥ 256 MiB, allocations ≥ 1, databases and backups ≥ 0 */
export const SERVER_MINIMUMS = { ram: 256, cpu: 5, disk: 256, ports: 1, databases: 0, backups: 0 } as const satisfies ServerResources;
export type ServerMinimums = typeof SERVER_MINIMUMS;

/** Upper bounds the schema refuses beyond (nobody owns more; keeps numbers sane on every dialect). */
export const SERVER_MAXIMUMS: ServerResources = { ram: 1_048_576, disk: 10_485_760, cpu: 10_000, ports: 100, databases: 100, backups: 100 };

export const SERVER_NAME_MAX = 64;
export const SERVER_DESCRIPTION_MAX = 255;
/** renew idempotency key: the client makes one per submission and reuses it on retries */
export const RENEW_KEY_PATTERN = '^[A-Za-z0-9_-]{8,64}$';

export type ServerStatus = 'active' | 'suspended';
export type QueueStatus = 'pending' | 'building' | 'completed' | 'failed';
export const QUEUE_STATUSES: readonly QueueStatus[] = ['pending', 'building', 'completed', 'failed'];

/** A catalog choice as a server or an entry names it (null when the catalog no longer has it). */
export interface NamedRef {
  id: number;
  name: string;
}

export interface RenewalTerms {
  /** server_renew_enabled */
  enabled: boolean;
  /** coins per renewal (server_renew_cost) */
  cost: number;
  /** days one renewal adds (server_renew_days) */
  days: number;
}

/**
 * A row that holds a value no request could have written (a hand edit, an old bug): it is still
 * listed, with each unreadable number shown as 0 and named here, so one bad row never takes a page
 * down. An unreadable resource counts as nothing free for its owner until an administrator mends it.
 */
export interface RowHealth {
  broken: boolean;
  /** the unreadable fields (e.g. 'databases', 'panel_id'); empty when the row is sound */
  broken_fields: string[];
}

export interface ServerView extends RowHealth {
  id: number;
  name: string;
  description: string | null;
  status: ServerStatus;
  /** the panel's short identifier (its 8-character uuidShort) */
  identifier: string;
  /** the panel's numeric id */
  panel_id: number;
  /** the server's page on the panel, null when the panel is not configured */
  panel_url: string | null;
  location: NamedRef | null;
  egg: NamedRef | null;
  resources: ServerResources;
  /** ISO time; null when renewals were off at creation (the server never expires) */
  expires_at: string | null;
  /** ISO time it was suspended for expiry or by an administrator, else null */
  suspended_at: string | null;
  created_at: string;
}

/** GET /api/user/server/:id, and the answers of update and renew */
export interface ServerDetail extends ServerView {
  renewal: RenewalTerms;
}

export interface QueueEntryView extends RowHealth {
  id: number;
  status: QueueStatus;
  name: string;
  description: string | null;
  location: NamedRef | null;
  egg: NamedRef | null;
  resources: ServerResources;
  /** creation attempts made so far */
  attempts: number;
  /** the last failure's message (the panel's own words for a refused build), else null */
  last_error: string | null;
  /** when the worker tries again after a passing fault (pending only), else null */
  next_attempt_at: string | null;
  /** the servers row once completed */
  server_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface OwnerRef {
  uuid: string;
  username: string;
}

// ------------------------------------------------------------------------------------------------
// Customer routes (auth; create needs allow_servers, renew needs server_renew_enabled)
// ------------------------------------------------------------------------------------------------

/** Why a location cannot be chosen now (null: it can). */
export type LocationUnavailableReason = 'VIP_ONLY' | 'LOCATION_UNAVAILABLE' | 'LOCATION_FULL';

export interface CreateLocationOption {
  id: number;
  name: string;
  description: string | null;
  image: string | null;
  status: 'online' | 'offline' | 'maintenance';
  vipOnly: boolean;
  /** servers this location may hold in total */
  slots: number;
  /** servers living there plus pending/building queue entries for it */
  used: number;
  available: boolean;
  reason: LocationUnavailableReason | null;
}

export interface CreateEggOption {
  id: number;
  name: string;
  description: string | null;
  image: string | null;
  /** the egg's own flag, or its category's */
  vipOnly: boolean;
}

export interface CreateCategoryOption {
  id: number;
  name: string;
  description: string | null;
  image: string | null;
  vipOnly: boolean;
  /** enabled eggs only; a category without one is left out */
  eggs: CreateEggOption[];
}

/** Codes why creating is impossible right now (the page shows them instead of the form's submit). */
export type CreateBlocker =
  /** allow_servers is off: the options still answer (resizing and the admin queue read them), creating does not */
  'SERVERS_DISABLED' | 'PENDING_ENTRY' | 'FORCE_DISCORD_LINK' | 'FORCE_GITHUB_LINK' | 'NO_FREE_SLOT' | 'NOT_ENOUGH_RESOURCES' | 'PANEL_NOT_CONFIGURED';

/** GET /api/user/server/create — enabled locations and eggs only */
export interface CreateOptionsResponse {
  locations: CreateLocationOption[];
  categories: CreateCategoryOption[];
  /** totals − servers − pending/building entries */
  free: Resources;
  totals: Resources;
  /** resources that cannot be counted (a total or a row of this account holds an unreadable value): 0 free until mended */
  broken_resources: (keyof Resources)[];
  minimums: ServerMinimums;
  blockers: CreateBlocker[];
  /** the user holds user.permission.vip (VIP locations and eggs are open to them) */
  vip: boolean;
  renewal: RenewalTerms;
}

/** POST /api/user/server/create (and, with user_uuid, POST /api/admin/server-queue) */
export interface CreateServerRequest extends ServerResources {
  name: string;
  description?: string | null;
  location_id: number;
  egg_id: number;
}

/** 201 */
export interface CreateServerResponse {
  entry: QueueEntryView;
}

/** GET /api/user/session/servers */
export interface MyServersResponse {
  servers: ServerView[];
  /** pending, building and failed entries (completed ones are servers now), newest first */
  queue: QueueEntryView[];
}

/** GET /api/user/server/:id */
export type ServerDetailResponse = ServerDetail;

/** POST /api/user/server/:id/update — the new totals (only the increase is checked against free resources) */
export type UpdateServerRequest = ServerResources;
export type UpdateServerResponse = ServerDetail;

/**
 * POST /api/user/server/:id/renew — costs renewal.cost coins once per idempotency_key (a retry with
 * the same key charges nothing and answers the same). A server suspended for expiry is unsuspended;
 * should the panel fail at that moment the renewal stays paid, the answer still says
 * status 'suspended', and the renewal pass lifts the suspension shortly (show "renewed, coming back").
 */
export interface RenewServerRequest {
  idempotency_key: string;
}
export type RenewServerResponse = ServerDetail;

/** POST /api/user/server/:id/delete and POST /api/user/queue/:id/delete (a pending or failed entry;
 * a building one answers 409 QUEUE_ENTRY_BUSY) */
export interface OkResponse {
  ok: true;
}

// ------------------------------------------------------------------------------------------------
// Admin routes
// ------------------------------------------------------------------------------------------------

export interface AdminServerView extends ServerView {
  owner: OwnerRef;
}

/** GET /api/admin/servers?search=&page= (search: server name, identifier, owner username or email) */
export interface AdminServersQuery {
  search?: string;
  page?: number;
}
export interface AdminServersResponse {
  servers: AdminServerView[];
  total: number;
  page: number;
  per_page: number;
}

/** POST /api/admin/servers/:id/suspend | /unsuspend → the server after the change */
export type AdminServerResponse = AdminServerView;

export interface AdminQueueEntryView extends QueueEntryView {
  owner: OwnerRef;
}

/** GET /api/admin/server-queue?status=&page= */
export interface AdminQueueQuery {
  status?: QueueStatus;
  page?: number;
}
export interface AdminQueueResponse {
  entries: AdminQueueEntryView[];
  total: number;
  page: number;
  per_page: number;
}

/** POST /api/admin/server-queue — for the named user; resource, slot, VIP, location and egg rules hold
 * as for the user, the forced-link and one-pending-entry rules do not (an administrator may queue
 * several). 201 CreateServerResponse-like with the owner. */
export interface AdminCreateQueueEntryRequest extends CreateServerRequest {
  user_uuid: string;
}
export interface AdminCreateQueueEntryResponse {
  entry: AdminQueueEntryView;
}

export type QueueAttemptOutcome =
  /** the server was built */
  | 'completed'
  /** after an uncertain failure the panel turned out to have it (found by external id) */
  | 'reconciled'
  /** a passing fault (timeout, reset, 429, 5xx): tried again later */
  | 'retry'
  /** refused for good (validation, no node with room, too many attempts): resources freed */
  | 'failed';

export interface QueueLogView {
  id: number;
  entry_id: number;
  attempt: number;
  outcome: QueueAttemptOutcome;
  message: string;
  created_at: string;
}

/** GET /api/admin/server-queue/:id */
export interface AdminQueueEntryResponse {
  entry: AdminQueueEntryView;
  logs: QueueLogView[];
}

/** GET /api/admin/server-queue/logs?page= — every attempt, newest first */
export interface AdminQueueLogView extends QueueLogView {
  entry_name: string;
  owner: OwnerRef | null;
}
export interface AdminQueueLogsResponse {
  logs: AdminQueueLogView[];
  total: number;
  page: number;
  per_page: number;
}

// ------------------------------------------------------------------------------------------------
// Error codes this plugin answers with (field in brackets)
// ------------------------------------------------------------------------------------------------
export const SERVERS_ERROR_CODES = [
  /** 400 [ram|cpu|disk|ports]: below SERVER_MINIMUMS */
  'BELOW_MINIMUM',
  /** 409 [the resource]: more of a resource the account cannot count (a stored value is unreadable),
   * or a resize of a server whose own stored resources are unreadable */
  'RESOURCES_UNREADABLE',
  /** 503: the renewal settings cannot be read as a whole cost and a number of days */
  'RENEWAL_UNAVAILABLE',
  /** 409: the user already has a pending or building queue entry */
  'PENDING_ENTRY',
  /** 403: force_discord_link / force_github_link is on and the account is not linked */
  'FORCE_DISCORD_LINK',
  'FORCE_GITHUB_LINK',
  /** 409: every server slot is used */
  'NO_FREE_SLOT',
  /** 409 [ram|disk|cpu|ports|databases|backups]: more than is free */
  'NOT_ENOUGH_RESOURCES',
  /** 403 [location_id|egg_id]: VIP only and the user lacks user.permission.vip */
  'VIP_ONLY',
  /** 400 [location_id]: unknown, disabled, offline or in maintenance */
  'LOCATION_UNAVAILABLE',
  /** 409 [location_id]: every slot of the location is used */
  'LOCATION_FULL',
  /** 400 [egg_id]: unknown or disabled egg, or its category is disabled */
  'EGG_UNAVAILABLE',
  /** 503: the host's panel address or key is not set */
  'PANEL_NOT_CONFIGURED',
  /** 502: the panel refused or failed (update, renew's unsuspend, delete, suspend); nothing changed locally */
  'PANEL_FAILED',
  /** 404 */
  'SERVER_NOT_FOUND',
  'QUEUE_ENTRY_NOT_FOUND',
  /** 404 [user_uuid] (admin queue create) */
  'USER_NOT_FOUND',
  /** 409: the entry is being built right now (or is no longer pending) */
  'QUEUE_ENTRY_BUSY',
  /** 409: another change to this server is under way; try again */
  'SERVER_BUSY',
] as const;
export type ServersErrorCode = (typeof SERVERS_ERROR_CODES)[number];
