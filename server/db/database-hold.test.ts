// The database hold's rules: it begins once the requests under way and the joined parts' work have
// ended (or the drain time passed), it is seen by the other instances through the bus, and a hold
// heard from an instance that went silent lapses.
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { MemoryBroadcastBus } from '../realtime/broadcast';
import { DatabaseHold, HOLD_TTL_MS } from './database-hold';

const quiet = { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() } as unknown as FastifyBaseLogger;
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

async function holdOn(bus: MemoryBroadcastBus, options: { drainMs?: number; now?: () => number } = {}): Promise<DatabaseHold> {
  const hold = new DatabaseHold({ bus, log: quiet, ...options });
  await hold.start();
  return hold;
}

describe('DatabaseHold', () => {
  it('is active only while its work runs, and nests', async () => {
    const hold = await holdOn(new MemoryBroadcastBus(quiet));
    expect(hold.active).toBe(false);
    const seen: boolean[] = [];
    const answer = await hold.during(async () => {
      seen.push(hold.active);
      await hold.during(async () => seen.push(hold.active));
      seen.push(hold.active);
      return 42;
    });
    expect(answer).toBe(42);
    expect(seen).toEqual([true, true, true]);
    expect(hold.active).toBe(false);
    await expect(hold.during(async () => Promise.reject(new Error('restore failed')))).rejects.toThrow('restore failed');
    expect(hold.active).toBe(false);
  });

  it('begins once the requests under way have ended, and after what joined it has settled', async () => {
    const hold = await holdOn(new MemoryBroadcastBus(quiet));
    let jobRunning = true;
    let finishJob = () => undefined as void;
    const job = new Promise<void>((resolve) => {
      finishJob = () => {
        jobRunning = false;
        resolve();
      };
    });
    hold.join(() => job);
    const endRequest = hold.requestStarted();
    const events: string[] = [];
    const running = hold.during(async () => {
      events.push(`work (job running: ${jobRunning})`);
    });
    await tick();
    expect(hold.active).toBe(true);
    expect(events).toEqual([]);
    endRequest();
    endRequest(); // ending twice counts once
    await tick();
    expect(events).toEqual([]);
    finishJob();
    await running;
    expect(events).toEqual(['work (job running: false)']);
    // a request that started and ended is no longer waited for
    await hold.during(async () => events.push('again'));
    expect(events.at(-1)).toBe('again');
  });

  it('begins anyway after the drain time when a request never ends', async () => {
    const hold = await holdOn(new MemoryBroadcastBus(quiet), { drainMs: 30 });
    hold.requestStarted();
    const started = Date.now();
    await hold.during(async () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });

  it('is seen by the other instances on the bus until released', async () => {
    const bus = new MemoryBroadcastBus(quiet);
    const here = await holdOn(bus);
    const there = await holdOn(bus);
    const seenThere: boolean[] = [];
    await here.during(async () => {
      await tick();
      seenThere.push(there.active);
    });
    await tick();
    seenThere.push(there.active);
    expect(seenThere).toEqual([true, false]);
  });

  it('lets a hold heard from a silent instance lapse after HOLD_TTL_MS', async () => {
    const bus = new MemoryBroadcastBus(quiet);
    let now = 1_000_000;
    const there = await holdOn(bus, { now: () => now });
    // an instance that announced its hold and died before releasing it
    await bus.publish('core:database.hold', JSON.stringify({ from: 'gone', holding: true }));
    await tick();
    expect(there.active).toBe(true);
    now += HOLD_TTL_MS - 1;
    expect(there.active).toBe(true);
    now += 2;
    expect(there.active).toBe(false);
  });
});
