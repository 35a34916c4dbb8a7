// What an account may still build with: its totals (ctx.accounts, raised by the store) minus what
// its servers and its pending/building queue entries hold. Every change that spends resources runs
// inside `underUserLock`, so two requests of one user are checked one after the other against the
// rows the first one wrote — never both against the same free amount.
//
// Every stored number is read with storedCount: a total, or a row's amount, that is not a whole
// number in range (a hand edit, an old bug, SQLite's REAL ±Infinity) makes that resource
// "unreadable" for the account — nothing of it is free until an administrator mends the row — so a
// negative or infinite value can never turn into free resources, and free is never negative or
// non-finite.
import type { Transaction } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { storedCount, type PluginAccounts, type PluginReadableDatabase } from '@orepanel/sdk/server';
import { SERVER_MAXIMUMS, SERVER_RESOURCE_KEYS, type Resources, type ServerResourceKey, type ServerResources } from '../shared/api';
import type { ServersCoreReads, ServersDb, ServersTables } from './tables';

export type ServersTrx = Transaction<PluginReadableDatabase & ServersTables & ServersCoreReads>;
type Reader = ServersDb | ServersTrx;
export type AccountResourceKey = keyof Resources;

export const ACTIVE_QUEUE_STATUSES = ['pending', 'building'] as const;
const ACCOUNT_KEYS: readonly AccountResourceKey[] = [...SERVER_RESOURCE_KEYS, 'server_slots'];

export function zeroResources(): Resources {
  return { ram: 0, disk: 0, cpu: 0, ports: 0, databases: 0, backups: 0, server_slots: 0 };
}

export interface StoredResources {
  /** the row's amounts, an unreadable one as 0 */
  resources: ServerResources;
  /** the amounts that are not whole numbers from 0 to SERVER_MAXIMUMS */
  broken: ServerResourceKey[];
}

/** A server's or queue entry's amounts as stored, each checked (no request can write more than SERVER_MAXIMUMS). */
export function storedResources(row: Record<ServerResourceKey, unknown>): StoredResources {
  const resources: ServerResources = { ram: 0, disk: 0, cpu: 0, ports: 0, databases: 0, backups: 0 };
  const broken: ServerResourceKey[] = [];
  for (const key of SERVER_RESOURCE_KEYS) {
    const value = storedCount(row[key], SERVER_MAXIMUMS[key]);
    if (value === null) broken.push(key);
    else resources[key] = value;
  }
  return { resources, broken };
}

export interface ResourceSummary {
  totals: Resources;
  used: Resources;
  /** totals − used, at least 0; 0 for an unreadable resource */
  free: Resources;
  /** resources that cannot be counted (an unreadable total, or an unreadable amount in one of the rows) */
  broken: AccountResourceKey[];
}

export class AccountResources {
  constructor(
    private readonly db: ServersDb,
    private readonly accounts: PluginAccounts,
    private readonly log: FastifyBaseLogger,
  ) {}

  private async totals(userId: number, trx?: ServersTrx): Promise<{ totals: Resources; broken: Set<AccountResourceKey> } | null> {
    const row = await this.accounts.resources(userId, trx);
    if (!row) return null;
    const totals = zeroResources();
    const broken = new Set<AccountResourceKey>();
    for (const key of ACCOUNT_KEYS) {
      const value = storedCount(row[key]);
      if (value === null) broken.add(key);
      else totals[key] = value;
    }
    if (broken.size > 0) this.log.warn({ userId, fields: [...broken] }, 'servers: an account holds unreadable resource totals; they count as none until mended');
    return { totals, broken };
  }

  /** What the user's servers and pending/building entries hold; each one takes a server slot. */
  private async used(userId: number, db: Reader): Promise<{ used: Resources; broken: Set<AccountResourceKey> }> {
    const columns = ['id', 'ram', 'disk', 'cpu', 'ports', 'databases', 'backups'] as const;
    const [servers, entries] = await Promise.all([
      db.selectFrom('servers').select(columns).where('user_id', '=', userId).execute(),
      db.selectFrom('server_queue').select(columns).where('user_id', '=', userId).where('status', 'in', ACTIVE_QUEUE_STATUSES).execute(),
    ]);
    const used = zeroResources();
    const broken = new Set<AccountResourceKey>();
    const add = (table: string, rows: Record<ServerResourceKey | 'id', unknown>[]) => {
      for (const row of rows) {
        const stored = storedResources(row);
        for (const key of SERVER_RESOURCE_KEYS) used[key] += stored.resources[key];
        for (const key of stored.broken) broken.add(key);
        if (stored.broken.length > 0)
          this.log.warn({ userId, table, id: row.id, fields: stored.broken }, 'servers: a row holds unreadable resources; its owner has none of them free until it is mended');
        used.server_slots += 1;
      }
    };
    add('servers', servers);
    add('server_queue', entries);
    return { used, broken };
  }

  /** Pass the transaction of `underUserLock` to count inside it. */
  async summary(userId: number, trx?: ServersTrx): Promise<ResourceSummary | null> {
    const account = await this.totals(userId, trx);
    if (!account) return null;
    const { used, broken } = await this.used(userId, trx ?? this.db);
    for (const key of account.broken) broken.add(key);
    const free = zeroResources();
    for (const key of ACCOUNT_KEYS) free[key] = broken.has(key) ? 0 : Math.max(0, account.totals[key] - used[key]);
    return { totals: account.totals, used, free, broken: ACCOUNT_KEYS.filter((key) => broken.has(key)) };
  }

  /**
   * Runs `work` in a transaction that holds the user's row lock (ctx.accounts.lockAccount), so
   * checks of free resources and the writes that spend them are one step for that user.
   */
  underUserLock<T>(userId: number, work: (trx: ServersTrx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await this.accounts.lockAccount(userId, trx);
      return work(trx);
    });
  }
}
