// Test harness for the API: one isolated database per test file and dialect (SQLite in a temp dir,
// a fresh PostgreSQL / MariaDB database created from the `test` one and dropped afterwards) and a
// panel built on it with the repo's plugins in source mode. The dialects come from
// OREPANEL_TEST_DIALECTS (default "sqlite,postgres,mysql"); a listed server that cannot be reached
// fails the suite loudly — it is never skipped.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, scryptSync } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import mysql from 'mysql2/promise';
import pg from 'pg';
import type { Kysely } from 'kysely';
import type { PluginReadableDatabase } from '../../sdk/server';
import { buildApp, servicesOf, type BuildAppOptions, type PanelServices } from '../../server/app';
import { loadConfig } from '../../server/config';
import { asPluginHandle } from '../../server/db/plugin-view';
import { findPackageRoot } from '../../server/paths';
import { createTestRole, relaxRateLimits } from '../../sdk/testing/panel-setup';

// for plugins' API tests (plugins/*/tests/*.api.test.ts), which may import this harness but not the core
export { checkLedgerConsistency } from '../../server/wallet/consistency';
export { MemoryRateLimitStore } from '../../server/security/rate-limiter';
/** the services of a second instance (secondInstance answers the app only) */
export { servicesOf } from '../../server/app';

export type TestDialect = 'sqlite' | 'postgres' | 'mysql';
const KNOWN: readonly TestDialect[] = ['sqlite', 'postgres', 'mysql'];

export const ROOT = findPackageRoot();
export const REPO_PLUGINS = join(ROOT, 'plugins');
export const FIXTURE_PLUGINS = join(ROOT, 'tests', 'fixtures', 'plugins');

export function testDialects(): TestDialect[] {
  const list = (process.env.OREPANEL_TEST_DIALECTS ?? 'sqlite,postgres,mysql')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of list) {
    if (!(KNOWN as readonly string[]).includes(name)) throw new Error(`OREPANEL_TEST_DIALECTS: unknown dialect "${name}" (use ${KNOWN.join(', ')})`);
  }
  return list as TestDialect[];
}

export type TestStore = 'memory' | 'redis';

/**
 * The rate-limit stores to test, from OREPANEL_TEST_STORES (default "memory,redis"), like the
 * dialects: a listed Redis that cannot be reached fails the suite loudly, it is never skipped.
 */
export function testStores(): TestStore[] {
  const list = (process.env.OREPANEL_TEST_STORES ?? 'memory,redis')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const name of list) if (name !== 'memory' && name !== 'redis') throw new Error(`OREPANEL_TEST_STORES: unknown store "${name}" (use memory, redis)`);
  return list as TestStore[];
}

export const TEST_REDIS_URL = () => process.env.OREPANEL_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const POSTGRES_URL = () => process.env.OREPANEL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MYSQL_URL = () => process.env.OREPANEL_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export interface TestDatabase {
  /** DATABASE_URL for the panel; '' for SQLite in the data directory */
  url: string;
  dataDir: string;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createTestDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), `orepanel-test-${dialect}-`));
  const name = `op_t_${randomBytes(6).toString('hex')}`;
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') return { url: '', dataDir, drop: async () => removeDir() };

  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: POSTGRES_URL() });
    try {
      await admin.connect();
      await admin.query(`create database "${name}"`);
    } catch (error) {
      throw new Error(`PostgreSQL at ${POSTGRES_URL()} is not usable (OREPANEL_TEST_DIALECTS lists postgres): ${(error as Error).message}`);
    } finally {
      await admin.end().catch(() => undefined);
    }
    return {
      url: withDatabase(POSTGRES_URL(), name),
      dataDir,
      drop: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL() });
        await client.connect();
        // the panel's pool has been ended, but a connection may still be closing: terminating it
        // (WITH FORCE) in that moment makes pg report an error nobody listens to, so wait first
        for (let i = 0; i < 50; i++) {
          const { rows } = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [name]);
          if (Number(rows[0].n) === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`drop database if exists "${name}" with (force)`);
        await client.end();
        removeDir();
      },
    };
  }

  let conn: mysql.Connection | null = null;
  try {
    conn = await mysql.createConnection(MYSQL_URL());
    await conn.query(`create database \`${name}\` character set utf8mb4 collate utf8mb4_unicode_ci`);
  } catch (error) {
    throw new Error(`MariaDB/MySQL at ${MYSQL_URL()} is not usable (OREPANEL_TEST_DIALECTS lists mysql): ${(error as Error).message}`);
  } finally {
    await conn?.end().catch(() => undefined);
  }
  return {
    url: withDatabase(MYSQL_URL(), name),
    dataDir,
    drop: async () => {
      const c = await mysql.createConnection(MYSQL_URL());
      await c.query(`drop database if exists \`${name}\``);
      await c.end();
      removeDir();
    },
  };
}

export interface TestPanel {
  app: FastifyInstance;
  services: PanelServices;
  database: TestDatabase;
  close(): Promise<void>;
}

export interface StartOptions extends Omit<BuildAppOptions, 'config' | 'logger' | 'buildManifest'> {
  env?: Record<string, string>;
  /**
   * 'relaxed' (default) raises every rate limit far above what a test sends from 127.0.0.1, so
   * tests of other rules are not throttled; tests/api/rate-limit.test.ts uses 'defaults'.
   */
  rateLimits?: 'relaxed' | 'defaults';
  /** runs on the fresh data directory before the panel is built (e.g. to install plugins) */
  prepareDataDir?: (dataDir: string) => void;
}

/** A panel on a fresh database of `dialect`. Plugins: the repo's, in source mode. */
export async function startPanel(dialect: TestDialect, options: StartOptions = {}): Promise<TestPanel> {
  const database = await createTestDatabase(dialect);
  try {
    // a panel of its own in Redis too, as in its database: test files run side by side on one Redis,
    // and a shared prefix would pool their rate-limit counts, leases and broadcasts (a second
    // instance of this panel takes its config, prefix included)
    const redisPrefix = options.env?.REDIS_URL && !options.env.REDIS_PREFIX ? { REDIS_PREFIX: `orepanel-test-${randomBytes(6).toString('hex')}:` } : {};
    const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...options.env, ...redisPrefix });
    const { env: _env, prepareDataDir, rateLimits = 'relaxed', ...rest } = options;
    prepareDataDir?.(database.dataDir);
    const app = await buildApp({
      config,
      logger: false,
      builtPlugins: false,
      pluginDirs: [REPO_PLUGINS],
      publicDir: join(database.dataDir, 'no-public'),
      ...rest,
      // the build manifest lives in the data dir: absent unless a test writes one there
      buildManifest: join(database.dataDir, 'plugins.json'),
    });
    if (rateLimits === 'relaxed') await relaxRateLimits(servicesOf(app));
    return {
      app,
      services: servicesOf(app),
      database,
      close: async () => {
        await app.close();
        await database.drop();
      },
    };
  } catch (error) {
    await database.drop().catch(() => undefined);
    throw error;
  }
}

/**
 * The panel's database typed as a plugin's code sees it (the views every plugin reads; add the
 * plugin's tables with withTables), without a plugin's check: for tests that build a plugin's classes
 * over the real database.
 */
export function pluginView(panel: TestPanel): Kysely<PluginReadableDatabase> {
  return asPluginHandle(panel.services.database.db);
}

/**
 * Another instance of `panel` — the same configuration, so the same database (and Redis when it has
 * one) — as a second server behind a load balancer would be; the caller closes it. For the rules that
 * must hold across instances (leases, single-use tokens).
 */
export function secondInstance(panel: TestPanel, options: Omit<StartOptions, 'env' | 'rateLimits' | 'prepareDataDir'> = {}): Promise<FastifyInstance> {
  return buildApp({
    config: panel.services.config,
    logger: false,
    builtPlugins: false,
    pluginDirs: [REPO_PLUGINS],
    publicDir: join(panel.database.dataDir, 'no-public'),
    // SQLite: one connection per process, as SQLite wants (see BuildAppOptions.database); the others open their own pool
    ...(panel.services.database.dialect === 'sqlite' ? { database: panel.services.database } : {}),
    ...options,
    buildManifest: join(panel.database.dataDir, 'plugins.json'),
  });
}

// ---- cookies ---------------------------------------------------------------------------------

export interface ParsedCookie {
  value: string;
  attributes: Record<string, string | true>;
}

export function setCookies(response: LightMyRequestResponse): Record<string, ParsedCookie> {
  const raw = response.headers['set-cookie'];
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  const out: Record<string, ParsedCookie> = {};
  for (const line of list) {
    const [pair, ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const a of attrs) {
      const i = a.indexOf('=');
      if (i === -1) attributes[a.toLowerCase()] = true;
      else attributes[a.slice(0, i).toLowerCase()] = a.slice(i + 1);
    }
    out[pair.slice(0, eq)] = { value: pair.slice(eq + 1), attributes };
  }
  return out;
}

/** The Cookie header a browser would send back after `response`. */
export function cookieHeader(response: LightMyRequestResponse): string {
  return Object.entries(setCookies(response))
    .filter(([, c]) => c.value !== '')
    .map(([name, c]) => `${name}=${c.value}`)
    .join('; ');
}

export const PASSWORD = 'correct horse battery';

let counter = 0;
/** A valid registration body with a unique username/email. */
export function newAccount(overrides: Record<string, string> = {}) {
  counter++;
  const tag = `${Date.now().toString(36)}${counter}`;
  return {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: `ada${tag}@example.com`,
    username: `ada_${tag}`,
    password: PASSWORD,
    ...overrides,
  };
}

/** Registers an account through the API; returns the body sent, the answer and the cookie header. */
export async function register(app: FastifyInstance, overrides: Record<string, string> = {}) {
  const body = newAccount(overrides);
  const response = await app.inject({ method: 'POST', url: '/api/user/auth/register', payload: body });
  if (response.statusCode !== 201) throw new Error(`register failed: ${response.statusCode} ${response.body}`);
  return { body, response, cookie: cookieHeader(response) };
}

export async function countRows(panel: TestPanel, table: 'users' | 'sessions'): Promise<number> {
  const row = await panel.services.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A password hash as an older release with a lower scrypt cost would have written it. */
export function oldHash(password: string, ln: number): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 2 ** ln, r: 8, p: 1 });
  return `$scrypt$ln=${ln},r=8,p=1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

// ---- accounts with roles ------------------------------------------------------------------------

export interface SignedInUser {
  id: number;
  uuid: string;
  username: string;
  email: string;
  cookie: string;
}

/** Registers an account, gives it `role` and returns its cookie (the role is read per request). */
export async function userWithRole(panel: TestPanel, role: number): Promise<SignedInUser> {
  const { body, response, cookie } = await register(panel.app);
  const uuid = (response.json() as { user: { uuid: string } }).user.uuid;
  const db = panel.services.database.db;
  await db.updateTable('users').set({ role_id: role }).where('uuid', '=', uuid).execute();
  const row = await db.selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
  return { id: row.id, uuid, username: body.username, email: body.email, cookie };
}

/** Creates a role holding exactly `permissions`; returns its id. */
export function roleWith(panel: TestPanel, permissions: readonly string[], name?: string): Promise<number> {
  return createTestRole(panel.services, permissions, name);
}

/** Replaces the permissions of `roleId` directly in the database (test setup, not under test). */
export async function setRolePermissions(panel: TestPanel, roleId: number, permissions: readonly string[]): Promise<void> {
  const db = panel.services.database.db;
  await db.deleteFrom('role_permissions').where('role_id', '=', roleId).execute();
  if (permissions.length > 0)
    await db
      .insertInto('role_permissions')
      .values(permissions.map((permission) => ({ role_id: roleId, permission })))
      .execute();
  await panel.services.roles.invalidate();
}
