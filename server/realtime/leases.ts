// ctx.leases: named, expiring, exclusive leases shared by every instance of the panel. With REDIS_URL
// they live in Redis (SET NX PX, compare-and-renew / compare-and-delete scripts); without it in the
// database's `leases` table, taken by an atomic insert or a conditional update. Either way "who holds
// it" is decided by one atomic operation of the shared store, never by a read followed by a write,
// so two processes racing for a free lease cannot both win.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Lease, PluginLeases } from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import type { Clock } from './clock';

/** The store behind the leases of every plugin (names arrive already scoped). */
export interface LeaseStore {
  readonly backend: 'redis' | 'database';
  /** True when `holder` now holds `name` until ttlMs from now. */
  acquire(name: string, holder: string, ttlMs: number, takeover: boolean): Promise<boolean>;
  /** Extends the lease while `holder` still holds it; false otherwise. */
  renew(name: string, holder: string, ttlMs: number): Promise<boolean>;
  /** Removes the lease while `holder` still holds it. */
  release(name: string, holder: string): Promise<void>;
  close(): Promise<void>;
}

export interface LeasesTable {
  name: string;
  holder: string;
  /** epoch milliseconds (the panel's clock) */
  expires_at: number;
}

const MAX_NAME = 190;

/** Leases in the database: correct across processes because each step is one atomic statement. */
export class DatabaseLeaseStore implements LeaseStore {
  readonly backend = 'database';

  constructor(
    private readonly db: Kysely<{ leases: LeasesTable }>,
    private readonly clock: Clock,
  ) {}

  async acquire(name: string, holder: string, ttlMs: number, takeover: boolean): Promise<boolean> {
    // a row deleted by its holder between our two statements sends us round once more
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = this.clock.now();
      try {
        await this.db
          .insertInto('leases')
          .values({ name, holder, expires_at: now + ttlMs })
          .execute();
        return true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
      }
      // the row exists: take it only if it expired (or by takeover). PostgreSQL and InnoDB re-check
      // the condition on the newest row version after waiting for a concurrent writer's lock, and
      // SQLite runs writers one at a time, so of two racers for an expired lease only one matches.
      let update = this.db
        .updateTable('leases')
        .set({ holder, expires_at: now + ttlMs })
        .where('name', '=', name);
      if (!takeover) update = update.where('expires_at', '<=', now);
      const result = await update.executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return true;
      if (!takeover) {
        const row = await this.db.selectFrom('leases').select('name').where('name', '=', name).executeTakeFirst();
        if (row) return false;
      }
    }
    return false;
  }

  async renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('leases')
      .set({ expires_at: this.clock.now() + ttlMs })
      .where('name', '=', name)
      .where('holder', '=', holder)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db.deleteFrom('leases').where('name', '=', name).where('holder', '=', holder).execute();
  }

  async close(): Promise<void> {
    // the database is closed by its owner
  }
}

// PEXPIRE / DEL only while the key still names us: one script, so nothing can slip in between
const RENEW_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
`;
const RELEASE_SCRIPT = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/**
 * Leases in Redis. Expiry is Redis's own clock (PX), so it is the same for every instance; the
 * panel's clock is not consulted.
 */
export class RedisLeaseStore implements LeaseStore {
  readonly backend = 'redis';

  private constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Connects at once, so a wrong REDIS_URL stops the start with a clear message. */
  static async connect(url: string, prefix = 'orepanel:lease:'): Promise<RedisLeaseStore> {
    const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 5_000 });
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
    return new RedisLeaseStore(redis, prefix);
  }

  async acquire(name: string, holder: string, ttlMs: number, takeover: boolean): Promise<boolean> {
    const key = this.prefix + name;
    const answer = takeover ? await this.redis.set(key, holder, 'PX', ttlMs) : await this.redis.set(key, holder, 'PX', ttlMs, 'NX');
    return answer === 'OK';
  }

  async renew(name: string, holder: string, ttlMs: number): Promise<boolean> {
    return Number(await this.redis.eval(RENEW_SCRIPT, 1, this.prefix + name, holder, String(ttlMs))) === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.redis.eval(RELEASE_SCRIPT, 1, this.prefix + name, holder);
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** The store for this configuration: Redis when a URL is given, else the database. */
export async function openLeaseStore(redisUrl: string | null, db: Kysely<unknown>, clock: Clock, redisPrefix = 'orepanel:'): Promise<LeaseStore> {
  if (redisUrl) return RedisLeaseStore.connect(redisUrl, `${redisPrefix}lease:`);
  return new DatabaseLeaseStore(db as Kysely<{ leases: LeasesTable }>, clock);
}

/** ctx.leases of one plugin: its lease names are prefixed with its id, so plugins never collide. */
export function pluginLeases(store: LeaseStore, pluginId: string): PluginLeases {
  return Object.freeze({
    backend: store.backend,
    async acquire(name: string, ttlMs: number, options: { takeover?: boolean } = {}): Promise<Lease | null> {
      const scoped = `${pluginId}:${name}`;
      if (typeof name !== 'string' || name.length === 0 || scoped.length > MAX_NAME) throw new TypeError(`leases: "${name}" is not a valid lease name`);
      if (!Number.isSafeInteger(ttlMs) || ttlMs < 1) throw new TypeError('leases: the ttl must be a positive whole number of milliseconds');
      // the holder token is random: a stale handle (a previous holder) can never renew or release
      const holder = randomBytes(12).toString('base64url');
      if (!(await store.acquire(scoped, holder, ttlMs, options.takeover === true))) return null;
      return Object.freeze({
        name,
        renew: () => store.renew(scoped, holder, ttlMs),
        release: () => store.release(scoped, holder),
      });
    },
  });
}
