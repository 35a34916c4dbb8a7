// ctx.pterodactyl — the host's Pterodactyl panel (Application API), as the core's one typed client:
// settings pterodactyl_base_url and pterodactyl_api_key (secret), timeouts, retries with backoff on
// 429/5xx (honouring the panel's rate limit), envelopes unwrapped, every page of a list fetched, and
// the panel's error shapes turned into PanelError values with a code the UI can translate.
// Facts: ../shared/research/pterodactyl-api.md.

export interface PanelUser {
  id: number;
  external_id: string | null;
  uuid: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  root_admin: boolean;
}

export interface CreatePanelUser {
  email: string;
  /** lower-cased, must match ^[a-z0-9]([\w.-]+)[a-z0-9]$ on the panel */
  username: string;
  first_name: string;
  last_name: string;
  external_id?: string;
  /** only at the moment the user sets theirs; never stored by us */
  password?: string;
}

export interface PanelLocation {
  id: number;
  short: string;
  long: string | null;
}

export interface PanelNest {
  id: number;
  uuid: string;
  name: string;
  description: string | null;
  author: string;
}

export interface PanelEggVariable {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: boolean;
  user_editable: boolean;
  /** Laravel validation rules, e.g. "required|string|max:20" */
  rules: string;
}

export interface PanelEgg {
  id: number;
  uuid: string;
  nest: number;
  name: string;
  description: string | null;
  docker_image: string;
  /** label → image */
  docker_images: Record<string, string>;
  startup: string;
  variables: PanelEggVariable[];
}

export interface PanelNode {
  id: number;
  name: string;
  location_id: number;
  public: boolean;
  maintenance_mode: boolean;
  memory: number;
  memory_overallocate: number;
  disk: number;
  disk_overallocate: number;
}

export interface PanelLimits {
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
}

export interface PanelFeatureLimits {
  databases: number;
  allocations: number;
  backups: number;
}

export interface PanelServer {
  id: number;
  external_id: string | null;
  uuid: string;
  identifier: string;
  name: string;
  description: string | null;
  /** null, installing, install_failed, suspended, restoring_backup… */
  status: string | null;
  suspended: boolean;
  limits: PanelLimits;
  feature_limits: PanelFeatureLimits;
  user: number;
  node: number;
  allocation: number;
  nest: number;
  egg: number;
  created_at: string;
  updated_at: string;
}

export interface CreatePanelServer {
  name: string;
  /** our own id for it (the queue entry's): the key that makes creation safe to retry */
  external_id: string;
  description?: string | null;
  user: number;
  egg: number;
  docker_image: string;
  startup: string;
  /** every egg variable: the caller merges each variable's default_value in (the panel does not) */
  environment: Record<string, string>;
  limits: PanelLimits;
  feature_limits: PanelFeatureLimits;
  deploy: { locations: number[]; dedicated_ip: boolean; port_range: string[] };
  start_on_completion?: boolean;
}

export interface PanelBuild {
  /** the server's current default allocation id (the panel requires it) */
  allocation: number;
  limits: PanelLimits;
  feature_limits: PanelFeatureLimits;
}

export type PanelErrorCode =
  /** base URL or application key not set */
  | 'PANEL_NOT_CONFIGURED'
  /** connection refused/reset, DNS: the request may not have arrived */
  | 'PANEL_UNREACHABLE'
  /** no answer in time: the request may have taken effect */
  | 'PANEL_TIMEOUT'
  /** 429 after the retries */
  | 'PANEL_RATE_LIMITED'
  /** 401/403: wrong key, or its owner is not a root admin, or the key lacks a permission */
  | 'PANEL_AUTH'
  | 'PANEL_NOT_FOUND'
  /** 422: a field the panel refused (`field` names it) */
  | 'PANEL_VALIDATION'
  /** 400 DisplayException family: e.g. no node with room in the location */
  | 'PANEL_REJECTED'
  /** 409: e.g. the server is being transferred */
  | 'PANEL_CONFLICT'
  /** 5xx after the retries, or an answer that is not the panel's JSON */
  | 'PANEL_ERROR';

export const PANEL_ERROR_BRAND = '@orepanel/panel-error';

export interface PanelError extends Error {
  readonly $$type: typeof PANEL_ERROR_BRAND;
  readonly code: PanelErrorCode;
  /** the panel's HTTP status, when it answered */
  readonly status: number | null;
  /** the panel's own message (its `detail`), safe to show an administrator */
  readonly detail: string;
  /** for PANEL_VALIDATION: the field the panel named (meta.source_field) */
  readonly field: string | null;
  /** true when the request may have taken effect although no success came back (timeout, reset, 5xx) */
  readonly uncertain: boolean;
  /** true when trying again later may succeed (unreachable, timeout, 429, 5xx) */
  readonly transient: boolean;
}

export function isPanelError(value: unknown): value is PanelError {
  return value instanceof Error && (value as { $$type?: unknown }).$$type === PANEL_ERROR_BRAND;
}

export interface PterodactylPanel {
  /** true when a base URL and an application key are set */
  configured(): Promise<boolean>;
  /** One cheap authenticated call; resolves with the round trip, rejects with a PanelError. */
  testConnection(options?: { timeoutMs?: number }): Promise<{ latencyMs: number; locations: number; nodes: number }>;
  /**
   * The panel user of one of our users: the one linked before, else found by e-mail, else created
   * now without a password (the panel password is set only when the user next sets theirs, and is
   * never stored). Links it for next time.
   */
  accountFor(userId: number): Promise<PanelUser>;
  /** the address of a server's page on the panel, for the customer's link (null: not configured) */
  serverUrl(identifier: string): Promise<string | null>;
  users: {
    get(id: number): Promise<PanelUser>;
    findByEmail(email: string): Promise<PanelUser | null>;
    findByExternalId(externalId: string): Promise<PanelUser | null>;
    create(input: CreatePanelUser): Promise<PanelUser>;
    update(id: number, patch: Partial<CreatePanelUser>): Promise<PanelUser>;
    delete(id: number): Promise<void>;
  };
  locations: {
    list(): Promise<PanelLocation[]>;
    get(id: number): Promise<PanelLocation>;
  };
  nests: {
    list(): Promise<PanelNest[]>;
    get(id: number): Promise<PanelNest>;
    /** the nest's eggs, variables included */
    eggs(nestId: number): Promise<PanelEgg[]>;
    egg(nestId: number, eggId: number): Promise<PanelEgg>;
  };
  nodes: {
    list(): Promise<PanelNode[]>;
  };
  servers: {
    list(): Promise<PanelServer[]>;
    get(id: number): Promise<PanelServer>;
    /** null when no server carries that external id (404) */
    findByExternalId(externalId: string): Promise<PanelServer | null>;
    create(input: CreatePanelServer): Promise<PanelServer>;
    updateBuild(id: number, build: PanelBuild): Promise<PanelServer>;
    updateDetails(id: number, details: { name: string; user: number; external_id?: string | null; description?: string | null }): Promise<PanelServer>;
    /** no-op when already suspended */
    suspend(id: number): Promise<void>;
    unsuspend(id: number): Promise<void>;
    /** resolves also when the panel no longer has it (404): deleting is what the caller wanted */
    delete(id: number, options?: { force?: boolean }): Promise<void>;
  };
}
