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

/**
 * How long a request waits for a connection of the pool (the server down, or every connection busy)
 * before it is answered 503 STORE_UNAVAILABLE: never a hang.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

/** Told of a connection the database dropped while it sat idle in the pool (a restart, a failover, pg_terminate_backend). */
export type ConnectionErrorHandler = (error: Error) => void;

const toStderr: ConnectionErrorHandler = (error) => process.stderr.write(`database connection lost: ${error.message}\n`);

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

function openPostgres(url: string, onError: ConnectionErrorHandler): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // a dead peer (a server gone without a FIN) is noticed instead of waited for
    keepAlive: true,
    // bigint columns (coin amounts, counts) as JavaScript numbers rather than strings; amounts stay
    // far below 2^53.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === PG_INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // an idle connection the server ended is an 'error' of the pool: without a listener Node ends the
  // process. pg drops that connection; the next query opens a new one once the server is back.
  pool.on('error', onError);
  // a connection ended while checked out (between the statements of a transaction, or when its
  // query has just finished) is an 'error' of that client, which the pool no longer listens to: the
  // statement in flight fails (503), the pool drops the dead client when it comes back
  pool.on('connect', (client) => client.on('error', onError));
  const db = new Kysely<CoreDatabase>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', sqlite: null, close: () => db.destroy() };
}

function openMysql(url: string, onError: ConnectionErrorHandler): Database {
  // mariadb:// is the same protocol; mysql2 only knows the mysql:// scheme
  const pool = createMysqlPool({
    uri: url.replace(/^mariadb:/, 'mysql:'),
    connectionLimit: 10,
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableKeepAlive: true,
    charset: 'utf8mb4',
    supportBigNumbers: true,
    bigNumberStrings: false,
    dateStrings: true,
    timezone: 'Z',
  });
  // the same for MariaDB: a connection the server killed is reported, never thrown at the process
  pool.on('connection', (connection) => connection.on('error', onError));
  const db = new Kysely<CoreDatabase>({ dialect: new MysqlDialect({ pool }) });
  return { db, dialect: 'mysql', sqlite: null, close: () => db.destroy() };
}

export function openDatabase(config: DatabaseConfig, onError: ConnectionErrorHandler = toStderr): Database {
  switch (config.dialect) {
    case 'sqlite':
      return openSqlite(config.file);
    case 'postgres':
      return openPostgres(config.url, onError);
    case 'mysql':
      return openMysql(config.url, onError);
  }
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01', // admin_shutdown (pg_terminate_backend, a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up)
  '08000',
  '08003',
  '08006',
  '08001',
  '08004',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'ER_CONNECTION_KILLED',
  'ER_QUERY_INTERRUPTED',
]);

/**
 * True when `error` says the database cannot be reached now (refused, cut, restarting, no connection
 * within CONNECT_TIMEOUT_MS) rather than that the query was wrong: the request is answered 503 and
 * may be tried again.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const e = error as { code?: unknown; errno?: unknown; message?: unknown };
  if (typeof e.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
  if (e.errno === 1927 || e.errno === 1053 || e.errno === 2013 || e.errno === 2006) return true;
  const message = typeof e.message === 'string' ? e.message : '';
  // pg's own wording for a pool that found no connection, for a connection cut mid-query, and for a
  // statement sent on a client whose connection had just been cut (inside a transaction)
  return /timeout exceeded when trying to connect|Connection terminated|is not queryable|is not currently accepting connections|the database system is (starting up|shutting down)|connection is closed|Can't add new command when connection is in closed state/i.test(
    message,
  );
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
