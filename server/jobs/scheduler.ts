// In-process scheduled jobs. Each job runs on its own interval, never overlapping itself; its last
// run (when, how long, ok or the error) is kept for the health page. With several instances a
// scheduled run first takes the job's lease for the period (`periodLease`): one instance runs it per
// period, the others skip that tick. Work that must never run twice still claims its rows inside
// (see mail/mail-queue.ts): a lease can lapse while a slow run goes on.
import type { FastifyBaseLogger } from 'fastify';

export interface JobStatus {
  name: string;
  intervalMs: number;
  running: boolean;
  lastRunAt: string | null;
  lastDurationMs: number | null;
  lastOk: boolean | null;
  lastMessage: string | null;
  /** true while scheduled runs are skipped because the database is unreachable */
  paused: boolean;
}

interface Job {
  status: JobStatus;
  run: () => Promise<string | void>;
  timer: NodeJS.Timeout | null;
  current: Promise<void> | null;
}

export class Scheduler {
  private readonly jobs = new Map<string, Job>();
  private stopped = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    /** false: jobs are registered but only run when asked (tests drive them by hand) */
    private readonly autoStart: boolean,
    /** false while the database is unreachable or being restored: a scheduled run is skipped (paused), not failed */
    private readonly storeReachable: () => Promise<boolean> = async () => true,
    /** told of every finished run (the cluster's job log); its failure is its own */
    private readonly onFinished: (status: JobStatus) => Promise<void> = async () => undefined,
    /** one run per period across the instances; absent: every tick runs here */
    private readonly periodLease: PeriodLease | null = null,
  ) {}

  /** the period leases this instance holds now, released when it stops */
  private readonly held = new Set<string>();

  /** Registers a job; with autoStart it first runs after `intervalMs`, then every `intervalMs`. */
  every(name: string, intervalMs: number, run: () => Promise<string | void>): void {
    if (this.jobs.has(name)) throw new Error(`job "${name}" is already registered`);
    const job: Job = {
      status: { name, intervalMs, running: false, lastRunAt: null, lastDurationMs: null, lastOk: null, lastMessage: null, paused: false },
      run,
      timer: null,
      current: null,
    };
    this.jobs.set(name, job);
    if (this.autoStart) {
      job.timer = setInterval(() => void this.runScheduled(name), intervalMs);
      job.timer.unref();
    }
  }

  /**
   * Runs a job now unless it is already running (then waits for that run). Resolves when done;
   * never rejects (the error is recorded and logged).
   */
  runNow(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) return Promise.reject(new Error(`no job "${name}"`));
    if (job.current) return job.current;
    if (this.stopped) return Promise.resolve();
    const started = Date.now();
    job.status.running = true;
    job.current = (async () => {
      try {
        const message = await job.run();
        job.status.lastOk = true;
        job.status.lastMessage = message ?? null;
      } catch (error) {
        job.status.lastOk = false;
        job.status.lastMessage = error instanceof Error ? error.message : String(error);
        this.log.error({ err: error, job: name }, `job ${name} failed`);
      } finally {
        job.status.running = false;
        job.status.lastRunAt = new Date(started).toISOString();
        job.status.lastDurationMs = Date.now() - started;
        job.current = null;
      }
      await this.onFinished({ ...job.status }).catch((error: unknown) => this.log.warn({ err: error, job: name }, 'recording the run failed'));
    })();
    return job.current;
  }

  /** Resolves once no job is running (a database hold begins after them). */
  async settled(): Promise<void> {
    await Promise.all([...this.jobs.values()].map((job) => job.current));
  }

  /** Asks for a run soon (e.g. right after a mail was queued) when jobs run by themselves. */
  kick(name: string): void {
    // new work queued here is worked here: no waiting for whichever instance holds the period
    if (this.autoStart && !this.stopped) setImmediate(() => void this.runScheduled(name, false));
  }

  /** A run the timer asks for: skipped while the database is away (the next tick tries again). */
  private async runScheduled(name: string, takeLease = true): Promise<void> {
    const job = this.jobs.get(name);
    if (!job || job.current || this.stopped) return;
    if (!(await this.storeReachable())) {
      if (!job.status.paused) this.log.warn({ job: name }, `job ${name} paused: the database is unreachable or being restored`);
      job.status.paused = true;
      return;
    }
    if (job.status.paused) this.log.info({ job: name }, `job ${name} resumed`);
    job.status.paused = false;
    if (this.periodLease && takeLease) {
      // held for (almost) the whole period and not released after the run: the other instances'
      // ticks within this period find it taken; the next period's first tick, anywhere, takes it
      const ttlMs = Math.max(1_000, job.status.intervalMs - 1_000);
      let mine = false;
      try {
        mine = await this.periodLease.acquire(name, ttlMs);
      } catch (error) {
        this.log.warn({ err: error, job: name }, `job ${name}: its lease could not be taken; skipped this time`);
      }
      if (!mine) return;
      this.held.add(name);
    }
    await this.runNow(name);
  }

  /** Unregisters a job (a plugin removed or replaced by its update); a run under way finishes. */
  async remove(name: string): Promise<void> {
    const job = this.jobs.get(name);
    if (!job) return;
    if (job.timer) clearInterval(job.timer);
    this.jobs.delete(name);
    await job.current;
  }

  statuses(): JobStatus[] {
    return [...this.jobs.values()].map((j) => ({ ...j.status }));
  }

  /** Stops the timers, waits for running jobs to finish and hands their period leases back. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const job of this.jobs.values()) if (job.timer) clearInterval(job.timer);
    await Promise.all([...this.jobs.values()].map((j) => j.current));
    const lease = this.periodLease;
    if (lease) await Promise.all([...this.held].map((name) => lease.release(name).catch(() => undefined)));
    this.held.clear();
  }
}

/** The lease a scheduled run takes for its period (app.ts: the panel's lease store, this instance as holder). */
export interface PeriodLease {
  acquire(job: string, ttlMs: number): Promise<boolean>;
  release(job: string): Promise<void>;
}
