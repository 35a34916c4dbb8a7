// Opens the panel's database: SQLite (better-sqlite3) by default, PostgreSQL (pg) or MySQL/MariaDB
// (mysql2) when DATABASE_URL names one. Everything above this file speaks Kysely only.
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely';
import { createPool as createMysqlPool } from 'mysql2';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CoreDatabase, DatabaseDialect } from '../../sdk/server';
import type { DatabaseConfig } from '../config';

export interface Database {
  readonly db: Kysely<CoreDatabase>;
  readonly dialect: DatabaseDialect;
  /** the raw SQLite handle (prepared statements on the hot path); null on the other dialects */
  readonly sqlite: BetterSqlite3.Database | null;
  close(): Promise<void>;
}

const PG_INT8_OID = 20;

function openSqlite(file: string): Database {
  mkdirSync(dirname(file), { recursive: true });
  const handle = new BetterSqlite3(file);
  // WAL lets readers run while a write is in progress; busy_timeout waits for a lock instead of
  // failing at once when another process (e.g. `orepanel user create`) writes.
  handle.pragma('journal_mode = WAL');
  handle.pragma('busy_timeout = 5000');
  handle.pragma('foreign_keys = ON');
  handle.pragma('synchronous = NORMAL');
  const db = new Kysely<CoreDatabase>({ dialect: new SqliteDialect({ database: handle }) });
  return { db, dialect: 'sqlite', sqlite: handle, close: () => db.destroy() };
}

function openPostgres(url: string): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // bigint columns (coin amounts, counts) as JavaScript numbers rather than strings; amounts stay
    // far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const db = new Kysely<CoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', sqlite: null, close: () => db.destroy() };
}

function openMysql(url: string): Database {
  // mariadb:// is the same protocol; mysql2 only knows the mysql:// scheme
  const pool = createMysqlPool({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    connectionLimit: 10,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
    timezone: 'Z',
  });
  const db = new Kysely<CoreDatabase>({ dialect: new MysqlDialect({ pool }) });
  return { db, dialect: 'mysql', sqlite: null, close: () => db.destroy() };
}

export function openDatabase(config: DatabaseConfig): Database {
  switch (config.dialect) {
    case 'sqlite':
      return openSqlite(config.file);
    case 'postgres':
      return openPostgres(config.url);
    case 'mysql':
      return openMysql(config.url);
  }
}

/**
 * True when the database gave up on a transaction that may simply be run again: a deadlock or a
 * serialization failure (PostgreSQL, MySQL), a lock wait timeout (MySQL) or a busy SQLite file.
 */
export function isTransientConflict(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; errno?: unknown };
  return (
    e.code === '40P01' || // PostgreSQL deadlock_detected
    e.code === '40001' || // serialization_failure
    e.code === 'ER_LOCK_DEADLOCK' ||
    e.code === 'ER_LOCK_WAIT_TIMEOUT' ||
    e.errno === 1213 ||
    e.errno === 1205 ||
    e.code === 'SQLITE_BUSY' ||
    e.code === 'SQLITE_BUSY_SNAPSHOT'
  );
}

/** True when `error` is the driver's unique-constraint violation, on any of the three dialects. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; errno?: unknown };
  return (
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' ||
    e.code === '23505' || // PostgreSQL unique_violation
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062
  );
}
