// Is this instance fit to take requests? The database and Redis (when configured) answer within a
// short time, the migrations ran, it is not shutting down, and no restore is replacing the database. /readyz tells load balancers; the
// scheduler asks before each job (jobs pause while the database is away, and resume by themselves).
// An answer is kept for a second: a busy balancer or many jobs never turn into a flood of probes.
import { sql, type Kysely } from 'kysely';
import type { BroadcastBus } from '../realtime/broadcast';
import { within } from '../within';

const PROBE_TIMEOUT_MS = 2_000;
const KEEP_MS = 1_000;

export interface ReadinessReport {
  ready: boolean;
  database: boolean;
  redis: boolean | null;
  migrations: boolean;
  shuttingDown: boolean;
  /** a restore replaces the database now (here or on another instance) */
  restoring: boolean;
}

export class Readiness {
  private migrated = false;
  private stopping = false;
  private databaseAnswer: { at: number; ok: Promise<boolean> } | null = null;

  constructor(
    private readonly db: Kysely<unknown>,
    private readonly bus: BroadcastBus,
    private readonly redisConfigured: boolean,
    private readonly restoring: () => boolean = () => false,
  ) {}

  /** The app has run every migration and started its plugins. */
  markMigrated(): void {
    this.migrated = true;
  }

  /** SIGTERM: take no new work. */
  markShuttingDown(): void {
    this.stopping = true;
  }

  get shuttingDown(): boolean {
    return this.stopping;
  }

  /** True when the database answers a trivial query within two seconds (kept for a second). */
  database(): Promise<boolean> {
    const now = Date.now();
    if (this.databaseAnswer && now - this.databaseAnswer.at < KEEP_MS) return this.databaseAnswer.ok;
    const ok = within(
      sql`select 1`.execute(this.db).then(
        () => true,
        () => false,
      ),
      PROBE_TIMEOUT_MS,
      false,
    );
    this.databaseAnswer = { at: now, ok };
    return ok;
  }

  /** What the scheduler asks before a job: the database answers and no restore is replacing it. */
  async databaseUsable(): Promise<boolean> {
    return !this.restoring() && (await this.database());
  }

  async report(): Promise<ReadinessReport> {
    const [database, redis] = await Promise.all([this.database(), this.redisConfigured ? this.bus.reachable(PROBE_TIMEOUT_MS) : Promise.resolve(null)]);
    const restoring = this.restoring();
    const ready = database && redis !== false && this.migrated && !this.stopping && !restoring;
    return { ready, database, redis, migrations: this.migrated, shuttingDown: this.stopping, restoring };
  }
}
