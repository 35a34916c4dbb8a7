// The scheduler's cluster rules (issue 17): scheduled runs pause while the database is unreachable
// and resume by themselves; with a period lease only the holder runs, and a stopping scheduler hands
// its leases back; a kick runs here at once, lease or not.
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Scheduler, type JobStatus, type PeriodLease } from './scheduler';

const quiet = { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as FastifyBaseLogger;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Scheduler', () => {
  let scheduler: Scheduler | null = null;
  afterEach(async () => {
    await scheduler?.stop();
    scheduler = null;
  });

  it('pauses scheduled runs while the database is unreachable, and resumes when it is back', async () => {
    let reachable = false;
    let runs = 0;
    const finished: JobStatus[] = [];
    scheduler = new Scheduler(
      quiet,
      true,
      async () => reachable,
      async (status) => void finished.push(status),
    );
    scheduler.every('test.tick', 40, async () => {
      runs++;
    });
    await wait(200);
    expect(runs).toBe(0);
    expect(scheduler.statuses()[0]).toMatchObject({ paused: true, lastRunAt: null });
    reachable = true;
    await wait(200);
    expect(runs).toBeGreaterThan(0);
    expect(scheduler.statuses()[0]).toMatchObject({ paused: false, lastOk: true });
    expect(finished.length).toBe(runs);
  });

  it('runs a scheduled job only while it holds the period lease, kicks regardless, and hands the lease back on stop', async () => {
    const held = new Set<string>();
    let mine = false;
    const released: string[] = [];
    const lease: PeriodLease = {
      acquire: async (job) => {
        if (mine) held.add(job);
        return mine;
      },
      release: async (job) => {
        released.push(job);
      },
    };
    let runs = 0;
    scheduler = new Scheduler(
      quiet,
      true,
      async () => true,
      async () => undefined,
      lease,
    );
    scheduler.every('test.leased', 40, async () => {
      runs++;
    });
    await wait(200);
    expect(runs).toBe(0);
    scheduler.kick('test.leased');
    await wait(30);
    expect(runs).toBe(1);
    mine = true;
    await wait(200);
    expect(runs).toBeGreaterThan(1);
    await scheduler.stop();
    expect(released).toEqual(['test.leased']);
    scheduler = null;
  });
});
