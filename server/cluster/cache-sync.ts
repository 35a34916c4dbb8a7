// Keeps the in-process copies of database state (roles, settings, plugin states) the same on every
// instance. A change bumps its topic's counter in cache_versions and is announced on the broadcast
// bus: with Redis the other instances reload within milliseconds; without it (or when a message was
// lost while Redis was away) each instance reads the counters on a timer — at most once a second
// without Redis, every few seconds with it — and reloads what moved.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { ServerEvents } from '../../sdk/server';
import { CACHE_TOPICS } from '../db/core-migrations';
import type { EventBus } from '../events';
import type { BroadcastBus } from '../realtime/broadcast';

export type CacheTopic = (typeof CACHE_TOPICS)[number];

interface CacheVersionsTable {
  cache_versions: { topic: string; version: number };
}

/** Events whose handlers hold state outside the database (open sockets): every instance must hear them. */
export const RELAYED_EVENTS = ['session.ended', 'user.deleted'] as const satisfies readonly (keyof ServerEvents)[];
type RelayedEvent = (typeof RELAYED_EVENTS)[number];

const CHANGE_CHANNEL = 'core:cache.changed';
const EVENT_CHANNEL = 'core:event.relayed';
/** without Redis the counters are the only news: read once a second (spec of issue 17: ≤ 5 s) */
export const POLL_MS_ALONE = 1_000;
/** with Redis the counters only catch what an outage of Redis swallowed */
export const POLL_MS_WITH_REDIS = 5_000;

export interface CacheSyncOptions {
  db: Kysely<unknown>;
  bus: BroadcastBus;
  events: EventBus;
  log: FastifyBaseLogger;
  /** reads the topic's data again (never announces: that would echo between instances) */
  reload: Record<CacheTopic, () => Promise<void>>;
  /** default: POLL_MS_WITH_REDIS with a Redis bus, else POLL_MS_ALONE */
  pollMs?: number;
  /**
   * true while a restore replaces the database (server/db/database-hold.ts): nothing is read or
   * reloaded then — a reload writes (the settings' defaults), and the restore announces when done
   */
  held?: () => boolean;
}

export class CacheSync {
  readonly instance = randomBytes(9).toString('base64url');
  private readonly db: Kysely<CacheVersionsTable>;
  private readonly seen = new Map<string, number>();
  /** payloads that came from another instance: emitted here, never sent back */
  private readonly relayed = new WeakSet<object>();
  private readonly unsubscribe: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private closed = false;

  constructor(private readonly options: CacheSyncOptions) {
    this.db = options.db as unknown as Kysely<CacheVersionsTable>;
  }

  async start(): Promise<void> {
    for (const row of await this.db.selectFrom('cache_versions').select(['topic', 'version']).execute()) this.seen.set(row.topic, Number(row.version));
    this.unsubscribe.push(await this.options.bus.subscribe(CHANGE_CHANNEL, (text) => this.heard(text)));
    this.unsubscribe.push(await this.options.bus.subscribe(EVENT_CHANNEL, (text) => this.heardEvent(text)));
    for (const name of RELAYED_EVENTS) {
      this.unsubscribe.push(this.options.events.on('core', name, (payload) => this.relay(name, payload)));
    }
    const every = this.options.pollMs ?? (this.options.bus.backend === 'redis' ? POLL_MS_WITH_REDIS : POLL_MS_ALONE);
    this.timer = setInterval(() => void this.poll(), every);
    this.timer.unref();
  }

  /** This instance changed `topic`: every other instance reloads it. Never throws (the change itself is done). */
  async announce(topic: CacheTopic): Promise<void> {
    if (this.closed) return;
    try {
      await this.db.updateTable('cache_versions').set({ version: sql`version + 1` }).where('topic', '=', topic).execute();
      const row = await this.db.selectFrom('cache_versions').select('version').where('topic', '=', topic).executeTakeFirst();
      if (row) this.seen.set(topic, Math.max(this.seen.get(topic) ?? 0, Number(row.version)));
      await this.options.bus.publish(CHANGE_CHANNEL, JSON.stringify({ from: this.instance, topic, version: row ? Number(row.version) : null }));
    } catch (error) {
      this.options.log.error({ err: error, topic }, 'announcing a change to the other instances failed; they see it within their refresh time');
    }
  }

  /** Reads the counters now and reloads every topic that moved (the timer's work; tests call it). */
  poll(): Promise<void> {
    if (this.closed || this.options.held?.()) return Promise.resolve();
    this.polling ??= (async () => {
      try {
        const rows = await this.db.selectFrom('cache_versions').select(['topic', 'version']).execute();
        for (const row of rows) {
          const version = Number(row.version);
          // != rather than >: a restored backup may carry lower counters, and they still mean "changed"
          if (this.seen.get(row.topic) !== version) {
            this.seen.set(row.topic, version);
            await this.reload(row.topic);
          }
        }
      } catch (error) {
        this.options.log.warn({ err: error }, 'reading the cache versions failed; retrying');
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  /** Resolves once no read of the counters is under way (a database hold begins after it). */
  async settled(): Promise<void> {
    await this.polling;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    for (const stop of this.unsubscribe.splice(0)) stop();
    await this.polling;
  }

  private async reload(topic: string): Promise<void> {
    if (!(CACHE_TOPICS as readonly string[]).includes(topic)) return;
    try {
      await this.options.reload[topic as CacheTopic]();
    } catch (error) {
      // the counter is taken as seen: the next change, or the data's own refresh, reads it again
      this.options.log.error({ err: error, topic }, 'reloading after another instance changed it failed');
    }
  }

  private heard(text: string): void {
    let message: { from?: unknown; topic?: unknown; version?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.from === this.instance || typeof message.topic !== 'string') return;
    // the counters tell the same after the hold (the timer's next read)
    if (this.options.held?.()) return;
    if (typeof message.version === 'number') {
      if (this.seen.get(message.topic) === message.version) return;
      this.seen.set(message.topic, message.version);
    }
    void this.reload(message.topic);
  }

  private relay(name: RelayedEvent, payload: ServerEvents[RelayedEvent]): void {
    if (this.closed || this.relayed.has(payload)) return;
    void this.options.bus.publish(EVENT_CHANNEL, JSON.stringify({ from: this.instance, name, payload })).catch((error: unknown) => {
      this.options.log.warn({ err: error, event: name }, 'relaying an event to the other instances failed');
    });
  }

  private heardEvent(text: string): void {
    let message: { from?: unknown; name?: unknown; payload?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (message.from === this.instance || !(RELAYED_EVENTS as readonly unknown[]).includes(message.name)) return;
    if (!message.payload || typeof message.payload !== 'object') return;
    const payload = message.payload as ServerEvents[RelayedEvent];
    this.relayed.add(payload);
    void this.options.events.emit(message.name as RelayedEvent, payload);
  }
}
