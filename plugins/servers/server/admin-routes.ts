// /api/admin/servers and /api/admin/server-queue: the APIs of /mc-admin/servers (list, suspend,
// unsuspend, delete) and /mc-admin/server-queue (list, create for a user, view with its attempt
// logs, delete, all logs), guarded by spec §6's admin.servers.* and admin.server.queue.*.
// An administrator queuing for a user: the resource, slot, VIP, location and egg rules hold as for
// the user (the user's own VIP permission counts, not the administrator's); the forced-link and
// one-pending-entry rules do not — they govern what a customer does on their own.
import { sql, type SqlBool } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { likeLiteral, type ServerPluginContext } from '@orepanel/sdk/server';
import type {
  AdminCreateQueueEntryRequest,
  AdminCreateQueueEntryResponse,
  AdminQueueEntryResponse,
  AdminQueueLogsResponse,
  AdminQueueResponse,
  AdminServerView,
  AdminServersResponse,
  OkResponse,
  OwnerRef,
  QueueStatus,
} from '../shared/api';
import { holdsVip } from './creation-rules';
import { QUEUE_JOB } from './queue-worker';
import * as schema from './schemas';
import { QUEUE_PER_PAGE } from './server-queue';
import { catalogNames, queueEntryView, queueLogView, serverView, type QueueRow, type ServerRow } from './server-views';
import type { ServersPlugin } from './servers-plugin';

const SERVERS_PER_PAGE = 25;
type IdParams = { Params: { id: number } };

const containsPattern = (text: string) => `%${likeLiteral(text)}%`;

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerPluginContext, plugin: ServersPlugin): void {
  const { db, rules, queue, servers } = plugin;

  const owners = async (ids: number[]): Promise<Map<number, OwnerRef>> => {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await ctx.db.selectFrom('user_public').select(['id', 'uuid', 'username']).where('id', 'in', unique).execute();
    return new Map(rows.map((r) => [r.id, { uuid: r.uuid, username: r.username }]));
  };
  const gone: OwnerRef = { uuid: '', username: '' };

  const adminServer = async (row: ServerRow): Promise<AdminServerView> => ({
    ...(await serverView(row, await catalogNames(plugin.catalog()), ctx)),
    owner: (await owners([row.user_id])).get(row.user_id) ?? gone,
  });
  const adminEntries = async (rows: QueueRow[]) => {
    const [names, who] = await Promise.all([catalogNames(plugin.catalog()), owners(rows.map((r) => r.user_id))]);
    return rows.map((r) => ({ ...queueEntryView(r, names, ctx.log), owner: who.get(r.user_id) ?? gone }));
  };

  app.get<{ Querystring: { search: string; page: number } }>(
    '/admin/servers',
    { config: { permission: 'admin.servers.list' }, schema: { querystring: schema.adminServersQuery, response: { 200: schema.adminServersAnswer } } },
    async (request, reply): Promise<AdminServersResponse> => {
      const { page } = request.query;
      const text = request.query.search.trim().toLowerCase();
      let query = db.selectFrom('servers').innerJoin('users', 'users.id', 'servers.user_id');
      if (text !== '') {
        const pattern = containsPattern(text);
        const like = (column: string) => sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
        query = query.where((eb) => eb.or([like('servers.name'), like('servers.identifier'), like('users.username_lower'), like('users.email_lower')]));
      }
      const [rows, count] = await Promise.all([
        query
          .selectAll('servers')
          .orderBy('servers.id', 'desc')
          .limit(SERVERS_PER_PAGE)
          .offset((page - 1) * SERVERS_PER_PAGE)
          .execute(),
        query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const [names, who] = await Promise.all([catalogNames(plugin.catalog()), owners(rows.map((r) => r.user_id))]);
      reply.header('cache-control', 'no-store');
      return {
        servers: await Promise.all(rows.map(async (r) => ({ ...(await serverView(r, names, ctx)), owner: who.get(r.user_id) ?? gone }))),
        total: Number(count.n),
        page,
        per_page: SERVERS_PER_PAGE,
      };
    },
  );

  app.post<IdParams>(
    '/admin/servers/:id/suspend',
    { config: { permission: 'admin.servers.edit' }, schema: { params: schema.idParams, response: { 200: schema.adminServerView } } },
    async (request) => {
      const row = await servers.suspend((await servers.owned(request.params.id, null)).id, 'admin');
      await ctx.audit.record(request, { action: 'admin.servers.suspend', targetUserId: row.user_id, details: { server: row.id, name: row.name } });
      return adminServer(row);
    },
  );

  app.post<IdParams>(
    '/admin/servers/:id/unsuspend',
    { config: { permission: 'admin.servers.edit' }, schema: { params: schema.idParams, response: { 200: schema.adminServerView } } },
    async (request) => {
      const row = await servers.unsuspend((await servers.owned(request.params.id, null)).id);
      await ctx.audit.record(request, { action: 'admin.servers.unsuspend', targetUserId: row.user_id, details: { server: row.id, name: row.name } });
      return adminServer(row);
    },
  );

  app.post<IdParams>(
    '/admin/servers/:id/delete',
    { config: { permission: 'admin.servers.delete' }, schema: { params: schema.idParams, response: { 200: schema.okAnswer } } },
    async (request): Promise<OkResponse> => {
      const row = await servers.remove(request.params.id, null);
      await ctx.audit.record(request, { action: 'admin.servers.delete', targetUserId: row.user_id, details: { server: row.id, name: row.name, panel_id: row.panel_id } });
      return { ok: true };
    },
  );

  app.get<{ Querystring: { status?: QueueStatus; page: number } }>(
    '/admin/server-queue',
    { config: { permission: 'admin.server.queue.list' }, schema: { querystring: schema.adminQueueQuery, response: { 200: schema.adminQueueAnswer } } },
    async (request, reply): Promise<AdminQueueResponse> => {
      const { rows, total } = await queue.page(request.query.status, request.query.page);
      reply.header('cache-control', 'no-store');
      return { entries: await adminEntries(rows), total, page: request.query.page, per_page: QUEUE_PER_PAGE };
    },
  );

  app.post<{ Body: AdminCreateQueueEntryRequest }>(
    '/admin/server-queue',
    { config: { permission: 'admin.server.queue.create' }, schema: { body: schema.adminCreateBody, response: { 201: schema.adminEntryAnswer } } },
    async (request, reply): Promise<AdminCreateQueueEntryResponse> => {
      const admin = (await ctx.auth.currentUser(request))!;
      const body = request.body;
      const target = await ctx.db.selectFrom('user_public').select('id').where('uuid', '=', body.user_uuid).executeTakeFirst();
      if (!target) throw ctx.httpError(404, 'USER_NOT_FOUND', 'No user has this uuid.', 'user_uuid');
      rules.checkWanted(body);
      await rules.checkPanelConfigured();
      const choice = await rules.checkCatalog(body, holdsVip(await ctx.auth.userPermissions(target.id)));
      const entry = await queue.enqueue(target.id, body, choice, { onePending: false, createdBy: admin.id });
      ctx.jobs.kick(QUEUE_JOB);
      await ctx.audit.record(request, { action: 'admin.server.queue.create', targetUserId: target.id, details: { entry: entry.id, name: entry.name } });
      reply.code(201).header('cache-control', 'no-store');
      return { entry: (await adminEntries([entry]))[0] };
    },
  );

  app.get<{ Querystring: { page: number } }>(
    '/admin/server-queue/logs',
    { config: { permission: 'admin.server.queue.logs.view' }, schema: { querystring: schema.pageQuery, response: { 200: schema.adminLogsAnswer } } },
    async (request, reply): Promise<AdminQueueLogsResponse> => {
      const { rows, total } = await queue.logPage(request.query.page);
      const who = await owners(rows.map((r) => r.user_id));
      reply.header('cache-control', 'no-store');
      return {
        logs: rows.map((r) => ({ ...queueLogView(r), entry_name: r.entry_name, owner: who.get(r.user_id) ?? null })),
        total,
        page: request.query.page,
        per_page: QUEUE_PER_PAGE,
      };
    },
  );

  app.get<IdParams>(
    '/admin/server-queue/:id',
    { config: { permission: 'admin.server.queue.view' }, schema: { params: schema.idParams, response: { 200: schema.adminEntryDetailAnswer } } },
    async (request, reply): Promise<AdminQueueEntryResponse> => {
      const entry = await queue.find(request.params.id);
      if (!entry) throw ctx.httpError(404, 'QUEUE_ENTRY_NOT_FOUND', 'This queue entry does not exist.');
      reply.header('cache-control', 'no-store');
      return { entry: (await adminEntries([entry]))[0], logs: (await queue.logsOf(entry.id)).map(queueLogView) };
    },
  );

  app.post<IdParams>(
    '/admin/server-queue/:id/delete',
    { config: { permission: 'admin.server.queue.delete' }, schema: { params: schema.idParams, response: { 200: schema.okAnswer } } },
    async (request): Promise<OkResponse> => {
      const entry = await queue.find(request.params.id);
      await queue.remove(request.params.id, null);
      await ctx.audit.record(request, { action: 'admin.server.queue.delete', targetUserId: entry?.user_id ?? null, details: { entry: request.params.id } });
      return { ok: true };
    },
  );
}
