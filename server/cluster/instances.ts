// The instances serving one database, each under its own id: registered at start, a heartbeat every
// HEARTBEAT_MS, marked stopped when it closes. And each scheduled job's last run on any instance —
// when, how it ended and where — so the health page shows the cluster, not only the instance that
// answered. Writing is best effort: a missed heartbeat or run record never stops the work.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { JobRun, PanelInstance } from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import type { JobStatus } from '../jobs/scheduler';

export const HEARTBEAT_MS = 15_000;
/** three missed heartbeats: the instance is taken for gone */
export const ALIVE_WITHIN_MS = 3 * HEARTBEAT_MS;
/** stopped instances stay listed this long, so an operator sees the one that just went away */
const FORGET_AFTER_MS = 24 * 60 * 60 * 1000;
const MESSAGE_MAX = 512;

interface ClusterTables {
  panel_instances: { id: string; host: string; version: string; started_at: string; heartbeat_at: string; stopped_at: string | null };
  job_runs: { job: string; instance_id: string; started_at: string; duration_ms: number; ok: number; message: string | null };
}

export class InstanceRegistry {
  /** readable in logs and on the health page: the host, the process and a random part (pids repeat across hosts) */
  readonly id = `${hostname().slice(0, 32)}-${process.pid}-${randomBytes(3).toString('hex')}`;
  readonly startedAt = new Date().toISOString();
  private readonly db: Kysely<ClusterTables>;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    db: Kysely<unknown>,
    private readonly version: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.db = db as Kysely<ClusterTables>;
  }

  async start(): Promise<void> {
    const now = new Date().toISOString();
    await this.db
      .insertInto('panel_instances')
      .values({ id: this.id, host: hostname().slice(0, 255), version: this.version.slice(0, 64), started_at: this.startedAt, heartbeat_at: now, stopped_at: null })
      .execute();
    this.timer = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.timer.unref();
    this.log.info({ instance: this.id }, `instance ${this.id} registered`);
  }

  /** Refreshes the heartbeat (and forgets instances stopped long ago). */
  async beat(): Promise<void> {
    const now = new Date();
    try {
      const updated = await this.db.updateTable('panel_instances').set({ heartbeat_at: now.toISOString(), stopped_at: null }).where('id', '=', this.id).executeTakeFirst();
      // a restored backup replaced the table: register again
      if (Number(updated.numUpdatedRows) === 0) {
        await this.db
          .insertInto('panel_instances')
          .values({
            id: this.id,
            host: hostname().slice(0, 255),
            version: this.version.slice(0, 64),
            started_at: this.startedAt,
            heartbeat_at: now.toISOString(),
            stopped_at: null,
          })
          .execute();
      }
      await this.db
        .deleteFrom('panel_instances')
        .where('heartbeat_at', '<', new Date(now.getTime() - FORGET_AFTER_MS).toISOString())
        .execute();
    } catch (error) {
      this.log.warn({ err: error }, 'instance heartbeat failed');
    }
  }

  async stop(): Promise<void> {
    // never registered (a command-line app)
    if (!this.timer) return;
    clearInterval(this.timer);
    try {
      await this.db.updateTable('panel_instances').set({ stopped_at: new Date().toISOString() }).where('id', '=', this.id).execute();
    } catch (error) {
      this.log.warn({ err: error }, 'marking this instance stopped failed');
    }
  }

  async list(): Promise<PanelInstance[]> {
    const rows = await this.db.selectFrom('panel_instances').selectAll().orderBy('started_at').orderBy('id').execute();
    const now = Date.now();
    return rows.map((r) => ({
      id: r.id,
      host: r.host,
      version: r.version,
      startedAt: r.started_at,
      heartbeatAt: r.heartbeat_at,
      stoppedAt: r.stopped_at,
      alive: r.stopped_at === null && now - Date.parse(r.heartbeat_at) <= ALIVE_WITHIN_MS,
      self: r.id === this.id,
    }));
  }

  /** Records a finished run (the scheduler's onFinished) and logs it. */
  async recordRun(status: JobStatus): Promise<void> {
    if (status.lastRunAt === null) return;
    const row = {
      instance_id: this.id,
      started_at: status.lastRunAt,
      duration_ms: Math.max(0, Math.round(status.lastDurationMs ?? 0)),
      ok: status.lastOk ? 1 : 0,
      message: status.lastMessage === null ? null : status.lastMessage.slice(0, MESSAGE_MAX),
    };
    this.log.info({ job: status.name, instance: this.id, ok: status.lastOk, durationMs: row.duration_ms }, `job ${status.name} ran: ${status.lastOk ? 'ok' : 'failed'}`);
    try {
      const updated = await this.db.updateTable('job_runs').set(row).where('job', '=', status.name).executeTakeFirst();
      if (Number(updated.numUpdatedRows) > 0) return;
      try {
        await this.db
          .insertInto('job_runs')
          .values({ job: status.name, ...row })
          .execute();
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        await this.db.updateTable('job_runs').set(row).where('job', '=', status.name).execute();
      }
    } catch (error) {
      this.log.warn({ err: error, job: status.name }, 'recording a job run failed');
    }
  }

  /** Each job's last run on any instance, by name. */
  async jobRuns(): Promise<JobRun[]> {
    const rows = await this.db.selectFrom('job_runs').selectAll().orderBy('job').execute();
    return rows.map((r) => ({ name: r.job, lastRunAt: r.started_at, durationMs: Number(r.duration_ms), ok: Number(r.ok) === 1, message: r.message, instanceId: r.instance_id }));
  }
}
