// /api/admin/dashboard/*: the data of the admin dashboard's components (/mc-admin). Each route is
// guarded by its component's permission (spec §6 "dashboard components"), so a role sees exactly the
// components it was given — in the browser and here:
//   overview  admin.dashboard.components.system.overview      version, database, accounts, plugins
//   updates   admin.dashboard.components.system.updates       running version, migrations, refused plugins
//   logs      admin.dashboard.components.system.logs          security warnings from the audit log
//   analytics admin.dashboard.components.ataglanceanalytics.view  sign-ups and logins per day
//   support   admin.dashboard.components.support.view         who holds a support PIN
//   activity  admin.dashboard.components.activity.view        the latest audit entries
// Every figure comes from the core's read-only facades (ctx.system, ctx.accountStats, ctx.audit).
import type { FastifyInstance } from 'fastify';
import { dataListSchema, errorResponses, type ServerPluginContext } from '@orepanel/sdk/server';
import { ANALYTICS_PERIODS, analytics } from './analytics';

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

export function registerDashboardRoutes(app: FastifyInstance, ctx: ServerPluginContext): void {
  const { system, accountStats, audit } = ctx;

  app.get(
    '/admin/dashboard/overview',
    { config: { permission: `${P}.system.overview` }, schema: { response: { 200: overviewSchema, ...errorResponses } } },
    async (_request, reply) => {
      const [accounts, roles] = await Promise.all([accountStats.counts(), accountStats.roleCount()]);
      const plugins = system.plugins();
      reply.header('cache-control', 'no-store');
      return {
        version: system.version,
        node_version: process.version,
        dialect: ctx.dialect,
        started_at: system.startedAt,
        accounts,
        roles,
        plugins: { installed: plugins.installed, enabled: plugins.enabled, refused: plugins.refused.length },
      };
    },
  );

  app.get(
    '/admin/dashboard/updates',
    { config: { permission: `${P}.system.updates` }, schema: { response: { 200: updatesSchema, ...errorResponses } } },
    async (_request, reply) => {
      const migrations = await system.migrations();
      reply.header('cache-control', 'no-store');
      return {
        version: system.version,
        pending: migrations.reduce((sum, set) => sum + set.pending.length, 0),
        migrations,
        refused: system.plugins().refused,
      };
    },
  );

  app.get('/admin/dashboard/logs', { config: { permission: `${P}.system.logs` }, schema: { response: { 200: logsSchema, ...errorResponses } } }, async (_request, reply) => {
    const [data, last24h] = await Promise.all([audit.latest(LOG_LINES, { warningsOnly: true }), audit.warningCounts(new Date(Date.now() - DAY_MS))]);
    reply.header('cache-control', 'no-store');
    return { data, last_24h: last24h };
  });

  app.get<{ Querystring: { days: number } }>(
    '/admin/dashboard/analytics',
    {
      config: { permission: `${P}.ataglanceanalytics.view` },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { days: { type: 'integer', enum: [...ANALYTICS_PERIODS], default: 14 } } },
        response: { 200: analyticsSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return analytics(ctx, request.query.days);
    },
  );

  app.get<{ Params: { pin: string } }>(
    '/admin/dashboard/support/pins/:pin',
    {
      // spec: the support PIN identifies a user to staff — the support component's whole purpose
      config: { permission: `${P}.support.view`, rateLimit: 'people.lookup' },
      schema: {
        params: { type: 'object', required: ['pin'], additionalProperties: false, properties: { pin: { type: 'string', pattern: '^[0-9]{6}$' } } },
        response: { 200: supportPinSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const users = await accountStats.bySupportPin(request.params.pin);
      reply.header('cache-control', 'no-store');
      return { users };
    },
  );

  app.get<{ Querystring: { limit: number } }>(
    '/admin/dashboard/activity',
    {
      config: { permission: `${P}.activity.view` },
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: MAX_ACTIVITY, default: 15 } } },
        response: { 200: dataListSchema(auditEntry), ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { data: await audit.latest(request.query.limit) };
    },
  );
}
