// Per-user counters (ctx.counters): one row per (user, name), moved with a single upsert so
// concurrent increments never lose a count.
import type { Statement } from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import type { CoreDatabase, CounterRank, DatabaseDialect, PluginCounters, WalletTransaction } from '../../sdk/server';
import type { Database } from '../db/connect';

/** The counters GET /api/user/session reports under `stats` (spec §3). */
export interface SessionCounters {
  servers: number;
  referrals: number;
}

const SESSION_COUNTERS = ['servers', 'referrals'] as const;

const NAME = /^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$/;

function checkName(name: string): void {
  if (typeof name !== 'string' || name.length > 40 || !NAME.test(name)) throw new TypeError(`counters: "${name}" is not a valid counter name`);
}

export class UserCounters implements PluginCounters {
  private readonly db: Kysely<CoreDatabase>;
  private readonly dialect: DatabaseDialect;
  /** SQLite: read synchronously, so the session answer (polled by every tab) needs no promise */
  private readonly sqliteSessionRead: Statement<[number, string, string], { name: string; value: number }> | null;

  constructor(database: Database) {
    this.db = database.db;
    this.dialect = database.dialect;
    this.sqliteSessionRead = database.sqlite ? database.sqlite.prepare('select name, value from user_counters where user_id = ? and name in (?, ?)') : null;
  }

  /** The session's stats counters (0 for a counter nobody published yet). */
  sessionCounters(userId: number): SessionCounters | Promise<SessionCounters> {
    const collect = (rows: { name: string; value: number | string }[]): SessionCounters => {
      const out: SessionCounters = { servers: 0, referrals: 0 };
      for (const row of rows) if (row.name === 'servers' || row.name === 'referrals') out[row.name] = Number(row.value);
      return out;
    };
    if (this.sqliteSessionRead) return collect(this.sqliteSessionRead.all(userId, ...SESSION_COUNTERS));
    return this.db.selectFrom('user_counters').select(['name', 'value']).where('user_id', '=', userId).where('name', 'in', SESSION_COUNTERS).execute().then(collect);
  }

  async add(userId: number, name: string, amount: number, trx?: WalletTransaction): Promise<void> {
    checkName(name);
    if (!Number.isSafeInteger(amount)) throw new TypeError('counters: the amount must be an integer');
    if (amount === 0) return;
    const db = trx ?? this.db;
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
