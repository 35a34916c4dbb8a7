// ctx.system and ctx.accountStats: the panel's own state, read-only — what an operator's pages (a
// dashboard, a health page) show. Every figure is measured when asked, nothing is cached or guessed.
import type { SupportPinAccount } from '../types';
import type { DatabaseDialect } from './database';

export type { SupportPinAccount } from '../types';

export interface DatabaseProbe {
  dialect: DatabaseDialect;
  ok: boolean;
  /** a trivial query's round trip in milliseconds (two decimals); null when it failed */
  latencyMs: number | null;
}

export interface SharedStoreProbe {
  /** Redis (REDIS_URL, shared by every instance) or this process's memory */
  kind: 'redis' | 'memory';
  ok: boolean;
}

/** The migrations of one owner: what this code ships compared with what the database applied. */
export interface MigrationSetState {
  /** 'core' or a plugin id */
  owner: string;
  applied: number;
  /** shipped but not applied, in the order they would run */
  pending: string[];
  /** applied but not shipped by this code (another instance runs a newer release) */
  unknown: string[];
  /** the last applied migration by name order, and when it ran */
  latest: { name: string; applied_at: string } | null;
}

export interface PluginsSummary {
  /** loaded and refused */
  installed: number;
  /** loaded, enabled and with their requirements active */
  enabled: number;
  /** the plugins the host refused, with its reason */
  refused: { id: string; reason: string }[];
}

/** ctx.system: the running panel itself. */
export interface PluginSystem {
  /** the running release */
  readonly version: string;
  /** when this instance started (ISO) */
  readonly startedAt: string;
  /** Is the database answering, and how fast (a failure is logged and answered ok: false, never thrown). */
  probeDatabase(): Promise<DatabaseProbe>;
  /** Is the store instances share (rate limits) answering (a failure is logged and answered ok: false). */
  probeSharedStore(): Promise<SharedStoreProbe>;
  plugins(): PluginsSummary;
  /** The core's migrations, then each loaded plugin's that has any. */
  migrations(): Promise<MigrationSetState[]>;
  /** Every instance serving this database (this one included), oldest first. */
  instances(): Promise<PanelInstance[]>;
  /** Each scheduled job's last run on any instance, by name (jobs that never ran are absent). */
  jobRuns(): Promise<JobRun[]>;
}

/** One instance of the panel on this database (several run behind a load balancer). */
export interface PanelInstance {
  /** `<host>-<pid>-<random>`: the name its log lines and job runs carry */
  id: string;
  host: string;
  version: string;
  startedAt: string;
  /** its last sign of life (ISO), refreshed every 15 s */
  heartbeatAt: string;
  /** when it stopped cleanly (ISO), null while it runs or after a crash */
  stoppedAt: string | null;
  /** not stopped, and a heartbeat within the last 45 s */
  alive: boolean;
  /** the instance answering this call */
  self: boolean;
}

/** The last run of one scheduled job, on whichever instance ran it. */
export interface JobRun {
  name: string;
  lastRunAt: string;
  durationMs: number;
  ok: boolean;
  message: string | null;
  /** the PanelInstance id that ran it */
  instanceId: string;
}

export interface AccountCounts {
  total: number;
  banned: number;
  unverified: number;
  two_fa: number;
  /** sessions neither revoked nor expired */
  active_sessions: number;
}

/** ctx.accountStats: figures over every account, read-only. */
export interface AccountStatistics {
  counts(): Promise<AccountCounts>;
  roleCount(): Promise<number>;
  /** How many accounts were created on each UTC day (YYYY-MM-DD) since `since`; days without any are left out. */
  createdPerDay(since: Date): Promise<{ day: string; count: number }[]>;
  /** The accounts holding a support PIN (6 digits, not unique: at most 10), oldest first. */
  bySupportPin(pin: string): Promise<SupportPinAccount[]>;
}
