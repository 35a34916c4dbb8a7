// Rate limiting: fixed windows counted in a store — in-process (one instance) or Redis (several
// instances share the counts; REDIS_URL). A hit increments the key's counter for the current
// window and says how many hits the window holds and when it ends.
import { Redis } from 'ioredis';

export interface WindowCount {
  /** hits in the current window, this one included */
  count: number;
  /** milliseconds until the window ends */
  resetInMs: number;
}

export interface RateLimitStore {
  readonly kind: 'memory' | 'redis';
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /** resolves when the store answers (the admin health page); rejects when it does not */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** whole seconds until the window ends (at least 1) */
  retryAfterSeconds: number;
}

/** The in-process store: a Map of windows, bounded so a flood of distinct keys cannot grow it. */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly kind = 'memory';
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 100_000,
  ) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (window) this.windows.delete(key);
      if (this.windows.size >= this.maxKeys) this.evict(now);
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count++;
    return { count: window.count, resetInMs: window.endsAt - now };
  }

  /** Drops ended windows; if still full, the oldest (a Map keeps insertion order). */
  private evict(now: number): void {
    for (const [key, window] of this.windows) if (window.endsAt <= now) this.windows.delete(key);
    const excess = this.windows.size - Math.floor(this.maxKeys * 0.9);
    if (excess <= 0) return;
    let dropped = 0;
    for (const key of this.windows.keys()) {
      if (dropped++ >= excess) break;
      this.windows.delete(key);
    }
  }

  get size(): number {
    return this.windows.size;
  }

  async ping(): Promise<void> {
    // in-process: it answers as long as the process does
  }

  async close(): Promise<void> {
    this.windows.clear();
  }
}

// INCR and the expiry in one atomic step: the first hit of a window sets its expiry, and a key
// that somehow lost its expiry gets one back (never a counter that lives for ever).
const HIT_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {n, ttl}
`;

export class RedisRateLimitStore implements RateLimitStore {
  readonly kind = 'redis';

  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects at once, so a wrong REDIS_URL stops the start with a clear message. */
  static async connect(url: string, prefix = 'orepanel:rl:'): Promise<RedisRateLimitStore> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5_000, enableOfflineQueue: true });
    redis.on('error', () => {
      /* reported by the failing command; ioredis reconnects by itself */
    });
    try {
      await redis.connect();
      await redis.ping();
    } catch (error) {
      redis.disconnect();
      throw new Error(`Redis at ${url.replace(/\/\/[^@/]*@/, '//***@')} is not reachable: ${(error as Error).message}`);
    }
    return new RedisRateLimitStore(redis, prefix);
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = (await this.redis.eval(HIT_SCRIPT, 1, this.prefix + key, String(windowMs))) as [number, number];
    return { count: Number(count), resetInMs: Number(ttl) };
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

export class RateLimiter {
  constructor(
    readonly store: RateLimitStore,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Counts a hit on `key` and judges it against `limit` per `windowMs`. When the store fails (Redis
   * down) the request is let through and the failure logged: a broken limiter must not lock
   * everyone out of the panel.
   */
  async consume(key: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    let window: WindowCount;
    try {
      window = await this.store.hit(key, windowMs);
    } catch (error) {
      this.onError(error);
      return { allowed: true, limit, remaining: limit, retryAfterSeconds: 0 };
    }
    return {
      allowed: window.count <= limit,
      limit,
      remaining: Math.max(0, limit - window.count),
      retryAfterSeconds: Math.max(1, Math.ceil(window.resetInMs / 1000)),
    };
  }
}
