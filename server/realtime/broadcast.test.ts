// ctx.broadcast on both transports: in-process, and Redis shared by two "panels" (two buses with
// connections of their own, as two instances have). A message reaches every subscriber once, on its
// owner's channel only; unsubscribing stops it; Redis subscriptions are counted per channel; and an
// outage (a proxy in front of Redis cut and restored) is logged, keeps this instance hearing itself
// and ends with the subscriptions restored.
import { randomBytes } from 'node:crypto';
import { createServer, Socket, type AddressInfo, type Server } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BroadcastValue } from '../../sdk/server';
import { TEST_REDIS_URL, testStores } from '../../tests/api/harness';
import { MemoryBroadcastBus, openBroadcastBus, RedisBroadcastBus, scopedBroadcast, type BroadcastBus } from './broadcast';

function quietLog() {
  const log = { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() };
  return log as typeof log & FastifyBaseLogger;
}

/** Resolves once `check` holds; fails after `ms` of real time. */
async function eventually(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Lets queued deliveries (and Redis round trips) happen; for asserting that nothing arrives. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

function collect(): { messages: BroadcastValue[]; handler: (message: BroadcastValue) => void } {
  const messages: BroadcastValue[] = [];
  return { messages, handler: (message) => messages.push(message) };
}

const open: BroadcastBus[] = [];
afterEach(async () => {
  for (const bus of open.splice(0)) await bus.close();
});

/** Two panels' buses on one transport: in-process that is one bus; on Redis two, with connections of their own. */
async function twoPanels(store: 'memory' | 'redis', log = quietLog()): Promise<[BroadcastBus, BroadcastBus]> {
  if (store === 'memory') {
    const bus = new MemoryBroadcastBus(log);
    open.push(bus);
    return [bus, bus];
  }
  // a prefix of this test's own: parallel test files publish on the default one
  const prefix = `orepanel:test-broadcast:${randomBytes(6).toString('hex')}:`;
  const buses = [await RedisBroadcastBus.connect(TEST_REDIS_URL(), log, prefix), await RedisBroadcastBus.connect(TEST_REDIS_URL(), log, prefix)];
  open.push(...buses);
  return [buses[0], buses[1]];
}

describe.each(testStores())('ctx.broadcast (%s)', (store) => {
  it('delivers a message published on one panel to the subscribers on both, once each', async () => {
    const [a, b] = await twoPanels(store);
    const onA = collect();
    const onB = collect();
    await scopedBroadcast(a, 'tickets', quietLog()).subscribe('ticket:7', onA.handler);
    await scopedBroadcast(b, 'tickets', quietLog()).subscribe('ticket:7', onB.handler);
    await scopedBroadcast(a, 'tickets', quietLog()).publish('ticket:7', { type: 'changed', id: 7 });
    await eventually(() => onA.messages.length === 1 && onB.messages.length === 1, 'both subscribers');
    await settle();
    expect(onA.messages).toEqual([{ type: 'changed', id: 7 }]);
    expect(onB.messages).toEqual([{ type: 'changed', id: 7 }]);
    expect(scopedBroadcast(a, 'tickets', quietLog()).backend).toBe(store);
  });

  it("keeps each plugin to its own channels: another plugin's same name is another channel", async () => {
    const [a, b] = await twoPanels(store);
    const tickets = collect();
    const other = collect();
    await scopedBroadcast(b, 'tickets', quietLog()).subscribe('ticket:1', tickets.handler);
    await scopedBroadcast(b, 'snoop', quietLog()).subscribe('ticket:1', other.handler);
    // a name that spells out another plugin's channel is still the publisher's own
    await scopedBroadcast(b, 'snoop', quietLog()).subscribe('tickets:ticket:1', other.handler);
    await scopedBroadcast(a, 'tickets', quietLog()).publish('ticket:1', 'tickets speaking');
    await scopedBroadcast(a, 'snoop', quietLog()).publish('tickets:ticket:1', 'snoop speaking');
    await eventually(() => tickets.messages.length === 1 && other.messages.length === 1, 'the two owners');
    await settle();
    expect(tickets.messages).toEqual(['tickets speaking']);
    expect(other.messages).toEqual(['snoop speaking']);
  });

  it('stops delivering to a handler that unsubscribed; the channel keeps its other handlers', async () => {
    const [a, b] = await twoPanels(store);
    const on = scopedBroadcast(b, 'tickets', quietLog());
    const first = collect();
    const second = collect();
    const offFirst = await on.subscribe('ticket:2', first.handler);
    const offSecond = await on.subscribe('ticket:2', second.handler);
    offFirst();
    offFirst(); // twice is harmless: it must not take the second handler's subscription with it
    await scopedBroadcast(a, 'tickets', quietLog()).publish('ticket:2', 1);
    await eventually(() => second.messages.length === 1, 'the remaining handler');
    offSecond();
    await settle();
    await scopedBroadcast(a, 'tickets', quietLog()).publish('ticket:2', 2);
    await settle();
    expect(first.messages).toEqual([]);
    expect(second.messages).toEqual([1]);
  });

  it('gives each handler its own copy, and one that throws stops no other', async () => {
    const log = quietLog();
    const [a] = await twoPanels(store, log);
    const on = scopedBroadcast(a, 'tickets', quietLog());
    const seen = collect();
    await on.subscribe('ticket:3', (message) => {
      (message as { id: number }).id = 999;
      throw new Error('handler bug');
    });
    await on.subscribe('ticket:3', seen.handler);
    await on.publish('ticket:3', { id: 3 });
    await eventually(() => seen.messages.length === 1, 'the second handler');
    expect(seen.messages).toEqual([{ id: 3 }]);
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ channel: 'tickets:ticket:3' }), 'broadcast listener failed');
  });

  it('refuses a bad channel name or a message that is not small JSON, sending nothing', async () => {
    const [a] = await twoPanels(store);
    const on = scopedBroadcast(a, 'tickets', quietLog());
    const seen = collect();
    await on.subscribe('ticket:4', seen.handler);
    for (const channel of ['', 'ticket 4', 'ticket*', 'x'.repeat(129), '../ticket', ':ticket']) {
      await expect(on.publish(channel, 1), channel).rejects.toThrow(TypeError);
      await expect(on.subscribe(channel, seen.handler), channel).rejects.toThrow(TypeError);
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(on.publish('ticket:4', cyclic as never)).rejects.toThrow(/not JSON/);
    await expect(on.publish('ticket:4', undefined as never)).rejects.toThrow(/not JSON/);
    await expect(on.publish('ticket:4', 'x'.repeat(17 * 1024))).rejects.toThrow(/larger than/);
    await settle();
    expect(seen.messages).toEqual([]);
  });

  it('calls no handler of an owner that is not listening now (a disabled plugin)', async () => {
    const [a, b] = await twoPanels(store);
    let enabled = false;
    const seen = collect();
    await scopedBroadcast(b, 'tickets', quietLog(), () => enabled).subscribe('ticket:5', seen.handler);
    await scopedBroadcast(a, 'tickets', quietLog()).publish('ticket:5', 'while off');
    await settle();
    enabled = true;
    await scopedBroadcast(a, 'tickets', quietLog()).publish('ticket:5', 'while on');
    await eventually(() => seen.messages.length === 1, 'the enabled handler');
    expect(seen.messages).toEqual(['while on']);
  });
});

describe.runIf(testStores().includes('redis'))('ctx.broadcast on Redis', () => {
  it('opens the transport the configuration names, and a wrong REDIS_URL stops the start', async () => {
    const memory = await openBroadcastBus(null, quietLog());
    open.push(memory);
    expect(memory.backend).toBe('memory');
    const redis = await openBroadcastBus(TEST_REDIS_URL(), quietLog());
    open.push(redis);
    expect(redis.backend).toBe('redis');
    await expect(openBroadcastBus('redis://:secret@127.0.0.1:1/0', quietLog())).rejects.toThrow(/Redis at redis:\/\/\*\*\*@127\.0\.0\.1:1\/0 is not reachable/);
  });

  it('subscribes a channel in Redis once per panel however many handlers it has, and leaves it with the last', async () => {
    const [a, b] = await twoPanels('redis');
    const redis = new Redis(TEST_REDIS_URL());
    try {
      const prefix = (a as unknown as { prefix: string }).prefix;
      const subscribers = async () => Number(((await redis.pubsub('NUMSUB', `${prefix}tickets:ticket:6`)) as [string, number])[1]);
      const offs = [
        await scopedBroadcast(a, 'tickets', quietLog()).subscribe('ticket:6', () => undefined),
        await scopedBroadcast(a, 'tickets', quietLog()).subscribe('ticket:6', () => undefined),
        await scopedBroadcast(a, 'tickets', quietLog()).subscribe('ticket:6', () => undefined),
      ];
      const offB = await scopedBroadcast(b, 'tickets', quietLog()).subscribe('ticket:6', () => undefined);
      expect(await subscribers()).toBe(2);
      offs[0]();
      offs[1]();
      await settle();
      expect(await subscribers()).toBe(2);
      offs[2]();
      offB();
      await settle();
      expect(await subscribers()).toBe(0);
    } finally {
      redis.disconnect();
    }
  });

  it('survives an outage: logged, not thrown, this panel still hears itself, and subscriptions come back', async () => {
    const proxy = await RedisProxy.start(TEST_REDIS_URL());
    const log = quietLog();
    const prefix = `orepanel:test-broadcast:${randomBytes(6).toString('hex')}:`;
    const cut = await RedisBroadcastBus.connect(proxy.url, log, prefix);
    const direct = await RedisBroadcastBus.connect(TEST_REDIS_URL(), quietLog(), prefix);
    open.push(cut, direct);
    try {
      const heard = collect();
      await scopedBroadcast(cut, 'tickets', log).subscribe('ticket:8', heard.handler);

      await proxy.cut();
      await scopedBroadcast(cut, 'tickets', log).publish('ticket:8', 'during the outage');
      await eventually(() => heard.messages.length === 1, 'its own message');
      expect(log.warn).toHaveBeenCalledWith(expect.anything(), expect.stringContaining('Redis is unreachable'));
      // subscribing while Redis is away answers (it goes live when Redis returns)
      const later = collect();
      await scopedBroadcast(cut, 'tickets', log).subscribe('ticket:9', later.handler);

      await proxy.restore();
      await eventually(() => log.info.mock.calls.some(([message]) => String(message).includes('reachable again')), 'the reconnection', 10_000);
      // the other panel's messages arrive again, on the old channel and the one subscribed meanwhile
      await eventually(
        () => {
          void scopedBroadcast(direct, 'tickets', quietLog()).publish('ticket:9', 'after');
          return later.messages.length > 0;
        },
        'resubscription',
        10_000,
      );
      await scopedBroadcast(direct, 'tickets', quietLog()).publish('ticket:8', 'after');
      await eventually(() => heard.messages.includes('after'), 'the old channel');
    } finally {
      await proxy.close();
    }
  });
});

/**
 * A TCP proxy in front of Redis that a test can cut (connections dropped, the port closed: Redis
 * refuses, as a stopped server does) and restore (the same port listens again).
 */
class RedisProxy {
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  private port = 0;

  private constructor(private readonly target: { host: string; port: number }) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(target: string): Promise<RedisProxy> {
    const { hostname, port } = new URL(target);
    const proxy = new RedisProxy({ host: hostname, port: Number(port || 6379) });
    await proxy.restore();
    return proxy;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    const closed = new Promise((resolve) => server.close(resolve));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  async restore(): Promise<void> {
    const server = createServer((client) => {
      const upstream = new Socket();
      upstream.connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => {
          this.sockets.delete(socket);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  async close(): Promise<void> {
    await this.cut();
  }
}
