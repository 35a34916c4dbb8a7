// What an account may still build with: its totals (users columns, raised by the store) minus what
// its servers and its pending/building queue entries hold. Every change that spends resources runs
// inside `underUserLock`, so two requests of one user are checked one after the other against the
// rows the first one wrote — never both against the same free amount.
import type { Transaction } from 'kysely';
import type { CoreDatabase, DatabaseDialect } from '@orepanel/sdk/server';
import { SERVER_RESOURCE_KEYS, type Resources, type ServerResources } from '../shared/api';
import type { ServersDb, ServersTables } from './tables';

export type ServersTrx = Transaction<CoreDatabase & ServersTables>;
type Reader = ServersDb | ServersTrx;

export const ACTIVE_QUEUE_STATUSES = ['pending', 'building'] as const;

export function zeroResources(): Resources {
  return { ram: 0, disk: 0, cpu: 0, ports: 0, databases: 0, backups: 0, server_slots: 0 };
}

export function resourcesOf(row: ServerResources): ServerResources {
  return { ram: row.ram, disk: row.disk, cpu: row.cpu, ports: row.ports, databases: row.databases, backups: row.backups };
}

export class AccountResources {
  constructor(
    private readonly db: ServersDb,
    private readonly dialect: DatabaseDialect,
  ) {}

  async totals(userId: number, db: Reader = this.db): Promise<Resources | null> {
    const row = await db
      .selectFrom('users')
      .select(['ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!row) return null;
    const out = zeroResources();
    for (const key of [...SERVER_RESOURCE_KEYS, 'server_slots'] as const) out[key] = Number(row[key]);
    return out;
  }

  /** What the user's servers and pending/building entries hold; each one takes a server slot. */
  async used(userId: number, db: Reader = this.db): Promise<Resources> {
    const columns = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups'] as const;
    const [servers, entries] = await Promise.all([
      db.selectFrom('servers').select(columns).where('user_id', '=', userId).execute(),
      db.selectFrom('server_queue').select(columns).where('user_id', '=', userId).where('status', 'in', ACTIVE_QUEUE_STATUSES).execute(),
    ]);
    const used = zeroResources();
    for (const row of [...servers, ...entries]) {
      for (const key of SERVER_RESOURCE_KEYS) used[key] += Number(row[key]);
      used.server_slots += 1;
    }
    return used;
  }

  async summary(userId: number, db: Reader = this.db): Promise<{ totals: Resources; used: Resources; free: Resources } | null> {
    const totals = await this.totals(userId, db);
    if (!totals) return null;
    const used = await this.used(userId, db);
    const free = zeroResources();
    for (const key of [...SERVER_RESOURCE_KEYS, 'server_slots'] as const) free[key] = Math.max(0, totals[key] - used[key]);
    return { totals, used, free };
  }

  /**
   * Runs `work` in a transaction that holds the user's row lock (PostgreSQL, MySQL: SELECT … FOR
   * UPDATE; SQLite runs one writing transaction at a time anyway), so checks of free resources and
   * the writes that spend them are one step for that user.
   */
  underUserLock<T>(userId: number, work: (trx: ServersTrx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      let lock = trx.selectFrom('users').select('id').where('id', '=', userId);
      if (this.dialect !== 'sqlite') lock = lock.forUpdate();
      else await trx.updateTable('users').set((eb) => ({ id: eb.ref('id') })).where('id', '=', userId).execute(); // takes SQLite's write lock now
      await lock.executeTakeFirst();
      return work(trx);
    });
  }
}
