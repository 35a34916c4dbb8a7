// Archive work (make, verify, restore) runs as a job beside the requests, one at a time across every
// instance of the panel: a job holds the plugin's `archive` lease from start to end, so a second one —
// from this instance or another, a click or the schedule — is refused while it runs. The request that
// starts a job answers at once with the job's id; the page follows it with GET /admin/backup-jobs/:id.
//
// A job's state lives in memory, not in the database: a restore replaces every table, this plugin's
// included, and the page must still learn how it ended. Every change of a job is published on the
// plugin's broadcast channel, so whichever instance a poll lands on knows the job (with REDIS_URL;
// without it there is one instance). A message carries the whole state with a sequence number, so a
// late or repeated message never turns a job back.
import { randomUUID } from 'node:crypto';
import { isBackupArchiveError, type BackupProgress, type BroadcastValue, type Lease, type ServerPluginContext } from '@orepanel/sdk/server';
import { JOB_ACTIONS, JOB_PHASES, JOB_STATES, type BackupJob, type BackupKindName, type JobAction } from '../shared/wire';

const LEASE = 'archive';
const LEASE_TTL_MS = 120_000;
const RENEW_EVERY_MS = 30_000;
/** progress is published at most this often (phase changes and the end at once) */
const PUBLISH_EVERY_MS = 400;
/** finished jobs remembered (the page shows the last one's outcome, e.g. after signing in again) */
const KEEP_FINISHED = 20;
const CHANNEL = 'jobs';

export interface JobSpec {
  action: JobAction;
  kind?: BackupKindName;
  /** the archive the job reads (verify, restore) */
  name?: string;
  startedBy: string | null;
}

/** what a job's work sets on the job when it succeeds */
export type JobOutcome = Partial<Pick<BackupJob, 'name' | 'summary' | 'before_restore'>>;

export interface JobWork {
  run(progress: (progress: BackupProgress) => void): Promise<JobOutcome>;
  /** after the job is marked done and the lease is given back: events, the audit log */
  after?(job: BackupJob): Promise<void>;
  /** after a failure, with the job as it ended */
  failed?(job: BackupJob, error: unknown): Promise<void>;
}

interface Entry {
  job: BackupJob;
  seq: number;
}

/** The API error a failed job reports: the engine's own codes, and one plain message for the rest. */
export function jobError(error: unknown): { code: string; message: string } {
  if (isBackupArchiveError(error)) return { code: error.code, message: error.message };
  return { code: 'BACKUP_FAILED', message: 'The job failed; the server log has the details. Nothing was changed.' };
}

function isJob(value: unknown): value is BackupJob {
  if (!value || typeof value !== 'object') return false;
  const job = value as Partial<Record<keyof BackupJob, unknown>>;
  return (
    typeof job.id === 'string' &&
    (JOB_ACTIONS as readonly unknown[]).includes(job.action) &&
    (JOB_STATES as readonly unknown[]).includes(job.state) &&
    (JOB_PHASES as readonly unknown[]).includes(job.phase) &&
    typeof job.done === 'number' &&
    typeof job.total === 'number' &&
    typeof job.started_at === 'string'
  );
}

export class BackupWork {
  private readonly entries = new Map<string, Entry>();
  /** the local runs, by job id */
  private readonly runs = new Map<string, Promise<void>>();

  constructor(private readonly ctx: ServerPluginContext) {}

  /** Hears the jobs of the other instances. */
  async listen(): Promise<void> {
    await this.ctx.broadcast.subscribe(CHANNEL, (message) => {
      if (!message || typeof message !== 'object' || Array.isArray(message)) return;
      const { seq, job } = message as { seq?: unknown; job?: unknown };
      if (typeof seq === 'number' && isJob(job)) this.keep(job, seq);
    });
  }

  private keep(job: BackupJob, seq: number): void {
    const known = this.entries.get(job.id);
    if (known && known.seq >= seq) return;
    this.entries.set(job.id, { job, seq });
    const finished = [...this.entries.values()].filter((entry) => entry.job.state !== 'running').sort((a, b) => (a.job.started_at < b.job.started_at ? 1 : -1));
    for (const entry of finished.slice(KEEP_FINISHED)) this.entries.delete(entry.job.id);
  }

  private publish(entry: Entry): void {
    this.keep({ ...entry.job }, entry.seq);
    void this.ctx.broadcast.publish(CHANNEL, { seq: entry.seq, job: entry.job as unknown as BroadcastValue }).catch(() => undefined);
  }

  get(id: string): BackupJob | null {
    return this.entries.get(id)?.job ?? null;
  }

  /** the running job, else the one that ended last */
  current(): BackupJob | null {
    const jobs = [...this.entries.values()].map((entry) => entry.job);
    const running = jobs.find((job) => job.state === 'running');
    if (running) return running;
    return jobs.sort((a, b) => ((a.finished_at ?? a.started_at) < (b.finished_at ?? b.started_at) ? 1 : -1))[0] ?? null;
  }

  /** true while a running job reads or writes archive `name` */
  busyWith(name: string): boolean {
    return [...this.entries.values()].some((entry) => entry.job.state === 'running' && entry.job.name === name);
  }

  /** Resolves when this instance's run of job `id` has ended (at once for an unknown one). */
  settled(id: string): Promise<void> {
    return this.runs.get(id) ?? Promise.resolve();
  }

  /**
   * Starts `work` as a job when no archive work runs on any instance; null when one does. The job is
   * published before this resolves, so a poll right after the answer finds it.
   */
  async start(spec: JobSpec, work: JobWork): Promise<BackupJob | null> {
    const lease = await this.ctx.leases.acquire(LEASE, LEASE_TTL_MS);
    if (!lease) return null;
    const entry: Entry = {
      seq: 1,
      job: {
        id: randomUUID(),
        action: spec.action,
        state: 'running',
        name: spec.name ?? null,
        kind: spec.kind ?? null,
        phase: 'queued',
        done: 0,
        total: 0,
        started_at: new Date(this.ctx.clock.now()).toISOString(),
        finished_at: null,
        started_by: spec.startedBy,
        error: null,
        summary: null,
        before_restore: null,
      },
    };
    this.publish(entry);
    const run = this.run(entry, lease, work).finally(() => this.runs.delete(entry.job.id));
    this.runs.set(entry.job.id, run);
    return { ...entry.job };
  }

  private async run(entry: Entry, lease: Lease, work: JobWork): Promise<void> {
    // a lease is renewed on the wall clock: it guards a process that is alive, whatever the panel's clock says
    const renewal = setInterval(() => void lease.renew().catch(() => undefined), RENEW_EVERY_MS);
    renewal.unref();
    let lastPublished = 0;
    const progress = ({ phase, done, total }: BackupProgress) => {
      const changedPhase = phase !== entry.job.phase;
      entry.job = { ...entry.job, phase, done: Math.max(0, Math.floor(done)), total: Math.max(0, Math.floor(total)) };
      entry.seq++;
      const now = performance.now();
      if (changedPhase || now - lastPublished >= PUBLISH_EVERY_MS) {
        lastPublished = now;
        this.publish(entry);
      }
    };
    let failure: unknown = null;
    try {
      const outcome = await work.run(progress);
      entry.job = { ...entry.job, ...outcome, state: 'done', phase: 'done', finished_at: new Date(this.ctx.clock.now()).toISOString() };
    } catch (error) {
      failure = error;
      this.ctx.log.error({ err: error, job: entry.job.id, action: entry.job.action }, 'backups: a job failed');
      entry.job = { ...entry.job, state: 'failed', error: jobError(error), finished_at: new Date(this.ctx.clock.now()).toISOString() };
    } finally {
      clearInterval(renewal);
      if (entry.job.action === 'restore') {
        // the restore replaced the database's leases table with the archive's, which may hold this very
        // lease as the job that made the archive had it: clear whatever is there, or the next job would
        // wait for a holder from the past to expire
        const current = await this.ctx.leases.acquire(LEASE, LEASE_TTL_MS, { takeover: true }).catch(() => null);
        await current?.release().catch(() => undefined);
      } else {
        await lease.release().catch(() => undefined);
      }
    }
    entry.seq++;
    this.publish(entry);
    const ended = { ...entry.job };
    try {
      if (ended.state === 'done') await work.after?.(ended);
      else await work.failed?.(ended, failure);
    } catch (error) {
      this.ctx.log.error({ err: error, job: ended.id }, 'backups: what follows a job failed');
    }
  }
}
