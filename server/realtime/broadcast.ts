// ctx.broadcast: publish/subscribe between every instance of the panel. With REDIS_URL the messages
// go through Redis pub/sub — one subscriber connection per panel, each channel subscribed once however
// many listeners it has here — and without it they stay in this process. Either way a message also
// reaches this instance's own listeners directly, so an instance cut off from Redis still hears
// itself, and an outage is logged, never thrown at the caller.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { BROADCAST_CHANNEL, MAX_BROADCAST_BYTES, type BroadcastHandler, type BroadcastValue, type PluginBroadcast } from '../../sdk/server';

/** A listener of the bus: receives the message as the JSON text it was published as. */
type TextListener = (text: string) => void;

/** The transport behind every owner's channels (names arrive scoped: `<owner>:<channel>`). */
export interface BroadcastBus {
  readonly backend: 'redis' | 'memory';
  publish(channel: string, text: string): Promise<void>;
  /** Resolves once the channel is live (see PluginBroadcast.subscribe), with the unsubscribe function. */
  subscribe(channel: string, listener: TextListener): Promise<() => void>;
  /** True when the transport answers now (a PING within `timeoutMs`; always true in-process). */
  reachable(timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

/** The listeners of this process by channel. Delivery is asynchronous, as through Redis; one listener's failure is no other's. */
class LocalChannels {
  private readonly listeners = new Map<string, Set<TextListener>>();

  constructor(private readonly log: FastifyBaseLogger) {}

  /** True when `listener` is the channel's first. */
  add(channel: string, listener: TextListener): boolean {
    const set = this.listeners.get(channel);
    if (set) {
      set.add(listener);
      return false;
    }
    this.listeners.set(channel, new Set([listener]));
    return true;
  }

  /** True when `listener` was the channel's last. */
  remove(channel: string, listener: TextListener): boolean {
    const set = this.listeners.get(channel);
    if (!set?.delete(listener) || set.size > 0) return false;
    this.listeners.delete(channel);
    return true;
  }

  has(channel: string): boolean {
    return this.listeners.has(channel);
  }

  channels(): string[] {
    return [...this.listeners.keys()];
  }

  deliver(channel: string, text: string): void {
    queueMicrotask(() => {
      // the listeners of the moment it arrives: one that unsubscribed meanwhile hears nothing more
      for (const listener of [...(this.listeners.get(channel) ?? [])]) {
        try {
          listener(text);
        } catch (error) {
          this.log.error({ err: error, channel }, 'broadcast listener failed');
        }
      }
    });
  }

  clear(): void {
    this.listeners.clear();
  }
}

/** One-shot: the returned function does its work the first time only. */
function once(run: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    run();
  };
}

/** One instance, no Redis: the messages stay in this process. */
export class MemoryBroadcastBus implements BroadcastBus {
  readonly backend = 'memory';
  private readonly local: LocalChannels;

  constructor(log: FastifyBaseLogger) {
    this.local = new LocalChannels(log);
  }

  async publish(channel: string, text: string): Promise<void> {
    this.local.deliver(channel, text);
  }

  async subscribe(channel: string, listener: TextListener): Promise<() => void> {
    this.local.add(channel, listener);
    return once(() => void this.local.remove(channel, listener));
  }

  async reachable(): Promise<boolean> {
    return true;
  }

  async close(): Promise<void> {
    this.local.clear();
  }
}

const redactUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//***@');

/**
 * Redis pub/sub. A message goes out as `<instance id> <json>`: every instance's listeners hear it
 * through Redis except the publisher's own, which heard it directly (twice would be once too many).
 * ioredis reconnects by itself; on each reconnection the subscriber connection subscribes again to
 * every channel that has listeners here (ioredis's own resubscription is off: it would forget a
 * channel whose SUBSCRIBE failed during the outage).
 */
export class RedisBroadcastBus implements BroadcastBus {
  readonly backend = 'redis';
  private readonly instance = randomBytes(12).toString('base64url');
  private readonly local: LocalChannels;
  /** SUBSCRIBE commands under way, so a second listener of the channel waits for the same one */
  private readonly pending = new Map<string, Promise<void>>();
  private down = false;
  private closed = false;

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {
    this.local = new LocalChannels(log);
    publisher.on('error', (error: Error) => this.unreachable(error));
    subscriber.on('error', (error: Error) => this.unreachable(error));
    subscriber.on('message', (channel: string, raw: string) => this.received(channel, raw));
    subscriber.on('ready', () => this.reconnected());
  }

  /** Connects at once, so a wrong REDIS_URL stops the start with a clear message. */
  static async connect(url: string, log: FastifyBaseLogger, prefix = 'orepanel:broadcast:'): Promise<RedisBroadcastBus> {
    const options = { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5_000, autoResubscribe: false } as const;
    const bus = new RedisBroadcastBus(new Redis(url, options), new Redis(url, options), prefix, log);
    try {
      await Promise.all([bus.publisher.connect(), bus.subscriber.connect()]);
      await bus.publisher.ping();
    } catch (error) {
      bus.closed = true;
      bus.publisher.disconnect();
      bus.subscriber.disconnect();
      throw new Error(`Redis at ${redactUrl(url)} is not reachable: ${(error as Error).message}`);
    }
    return bus;
  }

  async publish(channel: string, text: string): Promise<void> {
    this.local.deliver(channel, text);
    try {
      await this.publisher.publish(this.prefix + channel, `${this.instance} ${text}`);
    } catch (error) {
      this.log.warn({ err: error, channel }, 'broadcast: publishing through Redis failed; only this instance heard the message');
    }
  }

  async subscribe(channel: string, listener: TextListener): Promise<() => void> {
    if (this.local.add(channel, listener)) {
      const subscribing = this.subscribeInRedis(channel).finally(() => this.pending.delete(channel));
      this.pending.set(channel, subscribing);
    }
    await this.pending.get(channel);
    return once(() => {
      if (this.local.remove(channel, listener) && !this.closed) {
        // commands run in order on the connection: a SUBSCRIBE of a later listener follows this one
        this.subscriber.unsubscribe(this.prefix + channel).catch((error: unknown) => this.unreachable(error));
      }
    });
  }

  async reachable(timeoutMs: number): Promise<boolean> {
    if (this.closed) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([
        this.publisher.ping().then(
          () => true,
          () => false,
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.local.clear();
    await Promise.all([this.subscriber, this.publisher].map((redis) => redis.quit().catch(() => redis.disconnect())));
  }

  private async subscribeInRedis(channel: string): Promise<void> {
    try {
      await this.subscriber.subscribe(this.prefix + channel);
    } catch (error) {
      // Redis is away: the channel stays listed here and is subscribed again when it returns
      this.unreachable(error);
    }
  }

  private received(redisChannel: string, raw: string): void {
    if (!redisChannel.startsWith(this.prefix)) return;
    const space = raw.indexOf(' ');
    if (space < 0 || raw.slice(0, space) === this.instance) return;
    this.local.deliver(redisChannel.slice(this.prefix.length), raw.slice(space + 1));
  }

  private unreachable(error: unknown): void {
    if (this.closed || this.down) return;
    this.down = true;
    this.log.warn({ err: error }, 'broadcast: Redis is unreachable; messages reach only this instance until it returns');
  }

  private reconnected(): void {
    if (this.closed) return;
    if (this.down) this.log.info('broadcast: Redis is reachable again');
    this.down = false;
    for (const channel of this.local.channels()) {
      if (!this.pending.has(channel)) void this.subscribeInRedis(channel);
    }
  }
}

/** The bus for this configuration: Redis when a URL is given, else this process. */
export async function openBroadcastBus(redisUrl: string | null, log: FastifyBaseLogger, redisPrefix = 'orepanel:'): Promise<BroadcastBus> {
  return redisUrl ? RedisBroadcastBus.connect(redisUrl, log, `${redisPrefix}broadcast:`) : new MemoryBroadcastBus(log);
}

/**
 * ctx.broadcast of one owner (a plugin's id, or `core`): its channels are prefixed with it, so no
 * plugin hears or speaks on another's. Plugin ids never hold a colon, so `a:b:c` can only be a's.
 * `listening` says whether the owner's handlers run now (a disabled plugin must not act).
 */
export function scopedBroadcast(bus: BroadcastBus, owner: string, log: FastifyBaseLogger, listening: () => boolean = () => true): PluginBroadcast {
  const scoped = (channel: string) => {
    if (typeof channel !== 'string' || !BROADCAST_CHANNEL.test(channel)) throw new TypeError(`broadcast: "${String(channel)}" is not a valid channel name`);
    return `${owner}:${channel}`;
  };
  return Object.freeze({
    backend: bus.backend,
    async publish(channel: string, message: BroadcastValue): Promise<void> {
      const name = scoped(channel);
      let text: string | undefined;
      try {
        text = JSON.stringify(message);
      } catch {
        text = undefined;
      }
      if (typeof text !== 'string') throw new TypeError(`broadcast: the message on "${channel}" is not JSON`);
      if (Buffer.byteLength(text) > MAX_BROADCAST_BYTES) throw new TypeError(`broadcast: the message on "${channel}" is larger than ${MAX_BROADCAST_BYTES} bytes`);
      await bus.publish(name, text);
    },
    async subscribe(channel: string, handler: BroadcastHandler): Promise<() => void> {
      const name = scoped(channel);
      if (typeof handler !== 'function') throw new TypeError('broadcast: the handler must be a function');
      return bus.subscribe(name, (text) => {
        if (!listening()) return;
        let message: BroadcastValue;
        try {
          // each handler its own copy: one cannot change what the next one sees
          message = JSON.parse(text) as BroadcastValue;
        } catch {
          log.warn({ channel: name }, 'broadcast: a message that is not JSON was dropped');
          return;
        }
        handler(message);
      });
    },
  });
}
