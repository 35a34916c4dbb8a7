// /api/admin/dashboard/*: the data of the admin dashboard's components (/mc-admin). Each route is
// guarded by its component's permission (spec §6 "dashboard components"), so a role sees exactly the
// components it was given — in the browser and here:
//   overview  admin.dashboard.components.system.overview      version, database, accounts, plugins
//   updates   admin.dashboard.components.system.updates       running version, migrations, refused plugins
//   logs      admin.dashboard.components.system.logs          security warnings from the audit log
//   analytics admin.dashboard.components.ataglanceanalytics.view  sign-ups and logins per day
//   support   admin.dashboard.components.support.view         who holds a support PIN
//   activity  admin.dashboard.components.activity.view        the latest audit entries
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { CORE_MIGRATIONS } from '../db/core-migrations';
import { CORE_MIGRATION_TABLE, pluginMigrationTable } from '../db/migrate';
import { migrationStatus, type MigrationSet } from '../db/migration-status';
import { panelPaths } from '../paths';
import type { AdminServices } from './admin-context';
import { accountCounts, accountsBySupportPin, analytics, latestAuditEntries, warningCounts } from './dashboard-data';
import { errorResponses } from './schemas';

const P = 'admin.dashboard.components';
const DAY_MS = 86_400_000;

const userRef = { type: ['object', 'null'], required: ['uuid', 'username'], properties: { uuid: { type: 'string' }, username: { type: 'string' } } } as const;

const auditEntry = {
  type: 'object',
  required: ['id', 'action', 'actor', 'target', 'details', 'ip', 'created_at'],
  properties: {
    id: { type: 'integer' },
    action: { type: 'string' },
    actor: userRef,
    target: userRef,
    details: { type: 'object', additionalProperties: true },
    ip: { type: ['string', 'null'] },
    created_at: { type: 'string' },
  },
} as const;

const overviewSchema = {
  type: 'object',
  required: ['version', 'node_version', 'dialect', 'started_at', 'accounts', 'roles', 'plugins'],
  properties: {
    version: { type: 'string' },
    node_version: { type: 'string' },
    dialect: { type: 'string' },
    started_at: { type: 'string' },
    accounts: {
      type: 'object',
      required: ['total', 'banned', 'unverified', 'two_fa', 'active_sessions'],
      properties: { total: { type: 'integer' }, banned: { type: 'integer' }, unverified: { type: 'integer' }, two_fa: { type: 'integer' }, active_sessions: { type: 'integer' } },
    },
    roles: { type: 'integer' },
    plugins: {
      type: 'object',
      required: ['installed', 'enabled', 'refused'],
      properties: { installed: { type: 'integer' }, enabled: { type: 'integer' }, refused: { type: 'integer' } },
    },
  },
} as const;

const updatesSchema = {
  type: 'object',
  required: ['version', 'migrations', 'pending', 'refused'],
  properties: {
    version: { type: 'string' },
    /** pending migrations over every set */
    pending: { type: 'integer' },
    migrations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['owner', 'applied', 'pending', 'unknown', 'latest'],
        properties: {
          owner: { type: 'string' },
          applied: { type: 'integer' },
          pending: { type: 'array', items: { type: 'string' } },
          unknown: { type: 'array', items: { type: 'string' } },
          latest: { type: ['object', 'null'], properties: { name: { type: 'string' }, applied_at: { type: 'string' } } },
        },
      },
    },
    refused: { type: 'array', items: { type: 'object', required: ['id', 'reason'], properties: { id: { type: 'string' }, reason: { type: 'string' } } } },
  },
} as const;

const logsSchema = {
  type: 'object',
  required: ['data', 'last_24h'],
  properties: {
    data: { type: 'array', items: auditEntry },
    last_24h: { type: 'array', items: { type: 'object', required: ['action', 'count'], properties: { action: { type: 'string' }, count: { type: 'integer' } } } },
  },
} as const;

export const ANALYTICS_PERIODS = [14, 30] as const;

const analyticsSchema = {
  type: 'object',
  required: ['days', 'series', 'totals'],
  properties: {
    days: { type: 'integer' },
    series: {
      type: 'array',
      items: { type: 'object', required: ['date', 'signups', 'logins'], properties: { date: { type: 'string' }, signups: { type: 'integer' }, logins: { type: 'integer' } } },
    },
    totals: {
      type: 'object',
      required: ['signups', 'logins', 'active_users', 'accounts'],
      properties: { signups: { type: 'integer' }, logins: { type: 'integer' }, active_users: { type: 'integer' }, accounts: { type: 'integer' } },
    },
  },
} as const;

const supportPinSchema = {
  type: 'object',
  required: ['users'],
  properties: {
    users: {
      type: 'array',
      items: {
        type: 'object',
        required: ['uuid', 'username', 'first_name', 'last_name', 'email', 'role', 'role_name', 'banned', 'created_at'],
        properties: {
          uuid: { type: 'string' },
          username: { type: 'string' },
          first_name: { type: 'string' },
          last_name: { type: 'string' },
          email: { type: 'string' },
          role: { type: 'integer' },
          role_name: { type: 'string' },
          banned: { type: 'boolean' },
          created_at: { type: 'string' },
        },
      },
    },
  },
} as const;

const LOG_LINES = 20;
const MAX_ACTIVITY = 50;

export function registerAdminDashboard(app: FastifyInstance, services: AdminServices): void {
  const { database, plugins, roles } = services;
  const db = database.db;
  const version = panelPaths().version;
  const startedAt = new Date(Date.now() - process.uptime() * 1000).toISOString();

  app.get('/dashboard/overview', { config: { permission: `${P}.system.overview` }, schema: { response: { 200: overviewSchema, ...errorResponses } } }, async (_request, reply) => {
    const [accounts, roleCount] = await Promise.all([
      accountCounts(db),
      db
        .selectFrom('roles')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    const loaded = plugins.list();
    reply.header('cache-control', 'no-store');
    return {
      version,
      node_version: process.version,
      dialect: database.dialect,
      started_at: startedAt,
      accounts,
      roles: Number(roleCount.n),
      plugins: { installed: loaded.length + plugins.refused.length, enabled: loaded.filter((p) => plugins.isActive(p.manifest.id)).length, refused: plugins.refused.length },
    };
  });

  app.get('/dashboard/updates', { config: { permission: `${P}.system.updates` }, schema: { response: { 200: updatesSchema, ...errorResponses } } }, async (_request, reply) => {
    const sets: MigrationSet[] = [{ owner: 'core', table: CORE_MIGRATION_TABLE, migrations: CORE_MIGRATIONS }];
    for (const plugin of plugins.list()) {
      const migrations = plugin.server?.migrations;
      if (migrations && Object.keys(migrations).length > 0) sets.push({ owner: plugin.manifest.id, table: pluginMigrationTable(plugin.manifest.id), migrations });
    }
    const migrations = await migrationStatus(db as unknown as Kysely<unknown>, sets);
    reply.header('cache-control', 'no-store');
    return {
      version,
      pending: migrations.reduce((sum, set) => sum + set.pending.length, 0),
      migrations,
      refused: plugins.refused.map((r) => ({ id: r.id, reason: r.reason })),
    };
  });

  app.get('/dashboard/logs', { config: { permission: `${P}.system.logs` }, schema: { response: { 200: logsSchema, ...errorResponses } } }, async (_request, reply) => {
    const [data, last24h] = await Promise.all([latestAuditEntries(db, LOG_LINES, true), warningCounts(db, new Date(Date.now() - DAY_MS))]);
    reply.header('cache-control', 'no-store');
    return { data, last_24h: last24h };
  });

  app.get<{ Querystring: { days: number } }>(
    '/dashboard/analytics',
    {
      config: { permission: `${P}.ataglanceanalytics.view` },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { days: { type: 'integer', enum: [...ANALYTICS_PERIODS], default: 14 } } },
        response: { 200: analyticsSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return analytics(db, request.query.days);
    },
  );

  app.get<{ Params: { pin: string } }>(
    '/dashboard/support/pins/:pin',
    {
      // spec: the support PIN identifies a user to staff — the support component's whole purpose
      config: { permission: `${P}.support.view`, rateLimit: 'people.lookup' },
      schema: {
        params: { type: 'object', required: ['pin'], additionalProperties: false, properties: { pin: { type: 'string', pattern: '^[0-9]{6}$' } } },
        response: { 200: supportPinSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const rows = await accountsBySupportPin(db, request.params.pin);
      reply.header('cache-control', 'no-store');
      return {
        users: rows.map((r) => ({
          uuid: r.uuid,
          username: r.username,
          first_name: r.first_name,
          last_name: r.last_name,
          email: r.email,
          role: r.role_id,
          role_name: roles.get(r.role_id).realName,
          banned: r.banned === 1,
          created_at: r.created_at,
        })),
      };
    },
  );

  app.get<{ Querystring: { limit: number } }>(
    '/dashboard/activity',
    {
      config: { permission: `${P}.activity.view` },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_ACTIVITY, default: 15 } } },
        response: { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: auditEntry } } }, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await latestAuditEntries(db, request.query.limit, false) };
    },
  );
}
