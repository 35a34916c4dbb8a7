// Time, leases and jobs: what realtime features (the AFK socket) and scheduled work need to be
// correct across instances.

/**
 * ctx.clock — the time source and timers of the panel. Use it instead of Date.now()/setTimeout for
 * any rule measured in time, so tests can move a fake clock instead of waiting real minutes.
 */
export interface PluginClock {
  /** milliseconds since the epoch */
  now(): number;
  /** Calls `run` once after `ms` milliseconds; returns the function that cancels it. */
  setTimeout(run: () => void, ms: number): () => void;
}

/** A lease held by this process (see PluginLeases.acquire). */
export interface Lease {
  readonly name: string;
  /** Extends the lease by its ttl while it is still ours; false when it expired into other hands or was taken over. */
  renew(): Promise<boolean>;
  /** Gives the lease up now (a no-op when it is no longer ours). */
  release(): Promise<void>;
}

/**
 * ctx.leases — named, expiring, exclusive leases shared by every panel instance: in Redis when
 * REDIS_URL is set (SET NX PX), otherwise in the database (one row per name, taken with an atomic
 * conditional write). Names are scoped to the plugin. At most one holder per name at any moment,
 * as long as holders renew before the ttl runs out.
 */
export interface PluginLeases {
  readonly backend: 'redis' | 'database';
  /**
   * Takes the lease when nobody holds it (or it expired); with `takeover`, also from its current
   * holder, who finds out at their next renew(). Null when someone else holds it.
   */
  acquire(name: string, ttlMs: number, options?: { takeover?: boolean }): Promise<Lease | null>;
}

/**
 * ctx.jobs: work on a schedule (a queue worker, a renewal pass). A job is named `<plugin id>.<name>`
 * on the health page, runs every `intervalMs` while its plugin is enabled, and never overlaps itself
 * on one instance. Work that must not run on two instances at once takes a ctx.leases lease inside.
 */
export interface PluginJobs {
  every(name: string, intervalMs: number, run: () => Promise<string | void>): void;
  /** Runs the job now, or waits for the run under way; never rejects (failures go to the health page). */
  runNow(name: string): Promise<void>;
  /** Asks for a run soon (new work was queued); nothing happens where jobs only run when asked (tests). */
  kick(name: string): void;
  /** Every scheduled job of the panel (the core's and every plugin's) with its last run, on this instance. */
  statuses(): ScheduledJobStatus[];
}

export interface ScheduledJobStatus {
  /** `<plugin id>.<name>`, or the core's own name (mail.queue…) */
  name: string;
  /** when its last run began (ISO), null until it has run */
  lastRunAt: string | null;
  /** null until it has run */
  lastOk: boolean | null;
  /** what its last run answered, or why it failed */
  lastMessage: string | null;
}
