// A consistent, read-only view of the panel's database taken while the panel keeps running, on a
// connection of its own:
// - SQLite: the online backup API copies the live file (WAL included) to a temporary file, which is
//   then read through its own read-only connection; the panel's writes go on meanwhile.
// - PostgreSQL: one transaction `repeatable read, read only`; rows come through a server-side
//   cursor, a page at a time.
// - MariaDB/MySQL: `start transaction with consistent snapshot, read only` at repeatable read; rows
//   stream from the connection with backpressure.
// Integers come back exact whatever their size (BigInt), never rounded through a double.
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import mysql from 'mysql2';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import type { Database } from '../db/connect';
import type { CatalogQuery } from './catalog';

/** rows handed over at a time */
export const SNAPSHOT_PAGE = 500;

export interface Snapshot {
  readonly query: CatalogQuery;
  /** the rows of one SELECT as arrays in its column order, a page at a time */
  stream(select: string): AsyncIterable<unknown[][]>;
  close(): Promise<void>;
}

async function sqliteSnapshot(live: BetterSqlite3.Database, tempDir: string): Promise<Snapshot> {
  const file = join(tempDir, `.snapshot-${randomBytes(8).toString('hex')}.sqlite`);
  const removeCopy = () => Promise.all([file, `${file}-wal`, `${file}-shm`, `${file}-journal`].map((f) => rm(f, { force: true })));
  let copy: BetterSqlite3.Database;
  try {
    await live.backup(file);
    copy = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    copy.defaultSafeIntegers(true);
  } catch (error) {
    await removeCopy();
    throw error;
  }
  return {
    query: async (text) => copy.prepare(text).all() as Record<string, unknown>[],
    async *stream(select) {
      const statement = copy.prepare(select).raw(true);
      let page: unknown[][] = [];
      for (const row of statement.iterate() as IterableIterator<unknown[]>) {
        page.push(row);
        if (page.length >= SNAPSHOT_PAGE) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    },
    async close() {
      copy.close();
      await removeCopy();
    },
  };
}

const PG_INT8 = 20;

async function postgresSnapshot(url: string): Promise<Snapshot> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8 ? (value: string) => BigInt(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  await client.connect();
  // the connection is ours alone: an error reported on it while idle must not end the process
  client.on('error', () => undefined);
  try {
    await client.query('begin isolation level repeatable read, read only');
  } catch (error) {
    await client.end().catch(() => undefined);
    throw error;
  }
  let cursors = 0;
  return {
    query: async (text) => (await client.query(text)).rows as Record<string, unknown>[],
    async *stream(select) {
      const cursor = `op_backup_rows_${cursors++}`;
      await client.query(`declare ${cursor} no scroll cursor for ${select}`);
      try {
        for (;;) {
          const page = await client.query<unknown[]>({ text: `fetch forward ${SNAPSHOT_PAGE} from ${cursor}`, rowMode: 'array' });
          if (page.rows.length === 0) break;
          yield page.rows;
        }
      } finally {
        await client.query(`close ${cursor}`);
      }
    },
    async close() {
      try {
        await client.query('commit');
      } finally {
        await client.end().catch(() => undefined);
      }
    },
  };
}

function mysqlQuery(connection: mysql.Connection, text: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    connection.query(text, (error, rows) => (error ? reject(error) : resolve(Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [])));
  });
}

async function mysqlSnapshot(url: string): Promise<Snapshot> {
  const connection = mysql.createConnection({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    charset: 'utf8mb4',
    dateStrings: true,
    timezone: 'Z',
    supportBigNumbers: true,
    bigNumberStrings: true,
    // BIGINT exact, as BigInt (the neutral form writes it as a number when it fits)
    typeCast: (field, next) => {
      if (field.type === 'LONGLONG') {
        const value = field.string();
        return value === null ? null : BigInt(value);
      }
      return next();
    },
  });
  connection.on('error', () => undefined);
  try {
    await mysqlQuery(connection, 'set transaction isolation level repeatable read');
    await mysqlQuery(connection, 'start transaction with consistent snapshot, read only');
  } catch (error) {
    connection.destroy();
    throw error;
  }
  return {
    query: (text) => mysqlQuery(connection, text),
    async *stream(select) {
      const rows = connection.query({ sql: select, rowsAsArray: true }).stream({ highWaterMark: SNAPSHOT_PAGE });
      let page: unknown[][] = [];
      for await (const row of rows as AsyncIterable<unknown[]>) {
        page.push(row);
        if (page.length >= SNAPSHOT_PAGE) {
          yield page;
          page = [];
        }
      }
      if (page.length > 0) yield page;
    },
    async close() {
      try {
        await mysqlQuery(connection, 'commit');
      } finally {
        await new Promise<void>((resolve) => connection.end(() => resolve()));
      }
    },
  };
}

/** Opens a snapshot of the panel's database; `tempDir` holds SQLite's copy while it is read. */
export function openSnapshot(database: Database, config: DatabaseConfig, tempDir: string): Promise<Snapshot> {
  if (config.dialect === 'sqlite') {
    if (!database.sqlite) throw new Error('backup: the SQLite handle is missing');
    return sqliteSnapshot(database.sqlite, tempDir);
  }
  return config.dialect === 'postgres' ? postgresSnapshot(config.url) : mysqlSnapshot(config.url);
}
