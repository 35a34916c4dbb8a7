// Per-user counters (ctx.counters): one row per (user, name), moved with a single upsert so
// concurrent increments never lose a count.
import type { Statement } from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { CoreDatabase, CounterRank, DatabaseDialect, PluginCounters, WalletTransaction } from '../../sdk/server';
import type { Database } from '../db/connect';
import { asCoreTransaction } from '../db/plugin-view';

/** Counters GET /api/user/session reports under `stats` (spec §3): the ones plugins declare in plugin.json `stats`. */
export type SessionCounters = Record<string, number>;

const NAME = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;

function checkName(name: string): void {
  if (typeof name !== 'string' || name.length > 40 || !NAME.test(name)) throw new TypeError(`counters: "${name}" is not a valid counter name`);
}

export class UserCounters implements PluginCounters {
  private readonly db: Kysely<CoreDatabase>;
  private readonly dialect: DatabaseDialect;
  /** SQLite: read synchronously, so the session answer (polled by every tab) needs no promise */
  private readonly sqlite: Database['sqlite'];
  /** the prepared SQLite read of a user's session counters, by how many names it asks for */
  private readonly sqliteSessionReads = new Map<number, Statement<(number | string)[], { name: string; value: number }>>();

  constructor(database: Database) {
    this.db = database.db;
    this.dialect = database.dialect;
    this.sqlite = database.sqlite;
  }

  /** The session's stats counters `names`, in that order (0 for a counter nobody published yet). */
  sessionCounters(userId: number, names: readonly string[]): SessionCounters | Promise<SessionCounters> {
    const collect = (rows: { name: string; value: number | string }[]): SessionCounters => {
      const out: SessionCounters = Object.fromEntries(names.map((name) => [name, 0]));
      for (const row of rows) if (Object.hasOwn(out, row.name)) out[row.name] = Number(row.value);
      return out;
    };
    if (names.length === 0) return {};
    if (this.sqlite) {
      let read = this.sqliteSessionReads.get(names.length);
      if (!read) {
        read = this.sqlite.prepare(`select name, value from user_counters where user_id = ? and name in (${names.map(() => '?').join(', ')})`);
        this.sqliteSessionReads.set(names.length, read);
      }
      return collect(read.all(userId, ...names));
    }
    return this.db.selectFrom('user_counters').select(['name', 'value']).where('user_id', '=', userId).where('name', 'in', names).execute().then(collect);
  }

  async add(userId: number, name: string, amount: number, trx?: WalletTransaction): Promise<void> {
    checkName(name);
    if (!Number.isSafeInteger(amount)) throw new TypeError('counters: the amount must be an integer');
    if (amount === 0) return;
    // the caller's transaction may come through its plugin's checked handle: the counter's own write is the core's
    const db = trx ? asCoreTransaction(trx) : this.db;
    const row = { user_id: userId, name, value: amount, updated_at: new Date().toISOString() };
    const insert = db.insertInto('user_counters').values(row);
    if (this.dialect === 'mysql') {
      await insert.onDuplicateKeyUpdate({ value: sql<number>`value + ${amount}`, updated_at: row.updated_at }).execute();
    } else {
      await insert.onConflict((oc) => oc.columns(['user_id', 'name']).doUpdateSet({ value: sql<number>`user_counters.value + ${amount}`, updated_at: row.updated_at })).execute();
    }
  }

  async get(userId: number, name: string): Promise<number> {
    checkName(name);
    const row = await this.db.selectFrom('user_counters').select('value').where('user_id', '=', userId).where('name', '=', name).executeTakeFirst();
    return row ? Number(row.value) : 0;
  }

  async top(name: string, limit: number): Promise<CounterRank[]> {
    checkName(name);
    const rows = await this.db
      .selectFrom('user_counters')
      .select(['user_id', 'value'])
      .where('name', '=', name)
      .where('value', '>', 0)
      .orderBy('value', 'desc')
      .orderBy('user_id', 'asc')
      .limit(Math.min(Math.max(Math.trunc(limit), 1), 100))
      .execute();
    return rows.map((r) => ({ userId: Number(r.user_id), value: Number(r.value) }));
  }
}
