// The customer's side (reference paths): the create form's choices and the create itself (behind
// allow_servers), my servers and queue, one server, resize, renew (behind server_renew_enabled),
// delete, and taking back a queued entry.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerPluginContext, SessionUser } from '@orepanel/sdk/server';
import {
  SERVER_MINIMUMS,
  type CreateBlocker,
  type CreateOptionsResponse,
  type CreateServerRequest,
  type CreateServerResponse,
  type MyServersResponse,
  type OkResponse,
  type RenewServerRequest,
  type ServerDetail,
  type UpdateServerRequest,
} from '../shared/api';
import { ACTIVE_QUEUE_STATUSES } from './account-resources';
import { holdsVip, locationReason, locationUse } from './creation-rules';
import { QUEUE_JOB } from './queue-worker';
import { RENEWALS_JOB } from './renewals';
import * as schema from './schemas';
import { catalogNames, queueEntryView, renewalTerms, serverView, type ServerRow } from './server-views';
import type { ServersPlugin } from './servers-plugin';

type IdParams = { Params: { id: number } };

export function registerUserRoutes(app: FastifyInstance, ctx: ServerPluginContext, plugin: ServersPlugin): void {
  const { db, rules, resources, queue, servers } = plugin;
  const signedIn = async (request: FastifyRequest): Promise<SessionUser> => (await ctx.auth.currentUser(request))!;

  const detailOf = async (row: ServerRow): Promise<ServerDetail> => ({
    ...(await serverView(row, await catalogNames(plugin.catalog()), ctx)),
    renewal: await renewalTerms(ctx),
  });

  app.get(
    '/user/server/create',
    // not behind allow_servers: the resize page and the admin queue read these options too; the
    // create itself (POST) is, and the answer names it as a blocker
    { config: { auth: true }, schema: { response: { 200: schema.createOptionsAnswer } } },
    async (request, reply): Promise<CreateOptionsResponse> => {
      const user = await signedIn(request);
      const vip = holdsVip(user.permissions);
      const catalog = plugin.catalog();
      const [allowed, locations, categories, eggs, use, summary, configured, missingLinks, pending, renewal] = await Promise.all([
        ctx.settings.get('allow_servers'),
        catalog.locations(),
        catalog.categories(),
        catalog.eggs(),
        locationUse(db),
        resources.summary(user.id),
        ctx.pterodactyl.configured(),
        rules.missingLinks(user.id),
        db.selectFrom('server_queue').select('id').where('user_id', '=', user.id).where('status', 'in', ACTIVE_QUEUE_STATUSES).executeTakeFirst(),
        renewalTerms(ctx),
      ]);
      const blockers: CreateBlocker[] = [];
      if (allowed !== true) blockers.push('SERVERS_DISABLED');
      if (!configured) blockers.push('PANEL_NOT_CONFIGURED');
      blockers.push(...missingLinks);
      if (pending) blockers.push('PENDING_ENTRY');
      const free = summary!.free;
      if (free.server_slots < 1) blockers.push('NO_FREE_SLOT');
      if (free.ram < SERVER_MINIMUMS.ram || free.cpu < SERVER_MINIMUMS.cpu || free.disk < SERVER_MINIMUMS.disk || free.ports < SERVER_MINIMUMS.ports)
        blockers.push('NOT_ENOUGH_RESOURCES');
      reply.header('cache-control', 'no-store');
      return {
        locations: locations
          .filter((l) => l.enabled)
          .map((l) => {
            const used = use.get(l.id) ?? 0;
            const reason = locationReason(l, used, vip);
            return {
              id: l.id,
              name: l.name,
              description: l.description,
              image: l.image,
              status: l.status,
              vipOnly: l.vipOnly,
              slots: l.slots,
              used,
              available: reason === null,
              reason,
            };
          }),
        categories: categories
          .filter((c) => c.enabled)
          .map((c) => ({
            id: c.id,
            name: c.name,
            description: c.description,
            image: c.image,
            vipOnly: c.vipOnly,
            eggs: eggs
              .filter((e) => e.categoryId === c.id && e.enabled)
              .map((e) => ({ id: e.id, name: e.name, description: e.description, image: e.image, vipOnly: e.vipOnly || c.vipOnly })),
          }))
          .filter((c) => c.eggs.length > 0),
        free,
        totals: summary!.totals,
        broken_resources: summary!.broken,
        minimums: { ...SERVER_MINIMUMS },
        blockers,
        vip,
        renewal,
      };
    },
  );

  app.post<{ Body: CreateServerRequest }>(
    '/user/server/create',
    { config: { auth: true, flag: 'allow_servers' }, schema: { body: schema.createBody, response: { 201: schema.entryAnswer } } },
    async (request, reply): Promise<CreateServerResponse> => {
      const user = await signedIn(request);
      const body = request.body;
      await rules.checkLinks(user.id);
      rules.checkWanted(body);
      await rules.checkPanelConfigured();
      const choice = await rules.checkCatalog(body, holdsVip(user.permissions));
      const entry = await queue.enqueue(user.id, body, choice, { onePending: true, createdBy: null });
      ctx.jobs.kick(QUEUE_JOB);
      await ctx.audit.record(request, {
        action: 'servers.queue.create',
        targetUserId: user.id,
        details: { entry: entry.id, name: entry.name, location: choice.location.id, egg: choice.egg.id },
      });
      reply.code(201).header('cache-control', 'no-store');
      return { entry: queueEntryView(entry, await catalogNames(plugin.catalog()), ctx.log) };
    },
  );

  app.get('/user/session/servers', { config: { auth: true }, schema: { response: { 200: schema.myServersAnswer } } }, async (request, reply): Promise<MyServersResponse> => {
    const user = await signedIn(request);
    const [rows, entries, names] = await Promise.all([servers.forUser(user.id), queue.forUser(user.id), catalogNames(plugin.catalog())]);
    reply.header('cache-control', 'no-store');
    return { servers: await Promise.all(rows.map((row) => serverView(row, names, ctx))), queue: entries.map((e) => queueEntryView(e, names, ctx.log)) };
  });

  app.get<IdParams>('/user/server/:id', { config: { auth: true }, schema: { params: schema.idParams, response: { 200: schema.serverDetail } } }, async (request, reply) => {
    const user = await signedIn(request);
    reply.header('cache-control', 'no-store');
    return detailOf(await servers.owned(request.params.id, user.id));
  });

  app.post<IdParams & { Body: UpdateServerRequest }>(
    '/user/server/:id/update',
    { config: { auth: true }, schema: { params: schema.idParams, body: schema.updateBody, response: { 200: schema.serverDetail } } },
    async (request) => {
      const user = await signedIn(request);
      const row = await servers.resize(request.params.id, user.id, request.body);
      await ctx.audit.record(request, {
        action: 'servers.update',
        targetUserId: user.id,
        details: { server: row.id, ram: row.ram, disk: row.disk, cpu: row.cpu, ports: row.ports, databases: row.databases, backups: row.backups },
      });
      return detailOf(row);
    },
  );

  app.post<IdParams & { Body: RenewServerRequest }>(
    '/user/server/:id/renew',
    { config: { auth: true, flag: 'server_renew_enabled' }, schema: { params: schema.idParams, body: schema.renewBody, response: { 200: schema.serverDetail } } },
    async (request) => {
      const user = await signedIn(request);
      const { row, replayed } = await servers.renew(request.params.id, user.id, request.body.idempotency_key);
      if (!replayed) await ctx.audit.record(request, { action: 'servers.renew', targetUserId: user.id, details: { server: row.id, expires_at: row.expires_at } });
      // a suspension the panel did not lift now is lifted by the renewal pass
      if (row.status === 'suspended' && row.suspended_reason === 'expired') ctx.jobs.kick(RENEWALS_JOB);
      return detailOf(row);
    },
  );

  app.post<IdParams>(
    '/user/server/:id/delete',
    { config: { auth: true }, schema: { params: schema.idParams, response: { 200: schema.okAnswer } } },
    async (request): Promise<OkResponse> => {
      const user = await signedIn(request);
      const row = await servers.remove(request.params.id, user.id);
      await ctx.audit.record(request, { action: 'servers.delete', targetUserId: user.id, details: { server: row.id, name: row.name, panel_id: row.panel_id } });
      return { ok: true };
    },
  );

  app.post<IdParams>(
    '/user/queue/:id/delete',
    { config: { auth: true }, schema: { params: schema.idParams, response: { 200: schema.okAnswer } } },
    async (request): Promise<OkResponse> => {
      const user = await signedIn(request);
      await queue.remove(request.params.id, user.id);
      await ctx.audit.record(request, { action: 'servers.queue.delete', targetUserId: user.id, details: { entry: request.params.id } });
      return { ok: true };
    },
  );
}
