// The customer's side, /api/user/tickets…: their own tickets only (another user's answers 404),
// behind the allow_tickets flag; opening a ticket and replying are rate-limited per account.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, idParams, pageMeta, type PagingQuery, type ServerPluginContext } from '@orepanel/sdk/server';
import type { Attachments } from './attachments';
import type { Departments } from './departments';
import { LinkedServers } from './linked-server';
import type { Desk, TicketSettings } from './desk';
import type { TicketNotifications } from './notifications';
import { ticketSchemas as schema } from './schemas';
import type { TicketPriority, TicketStatus, TicketTables } from './tables';

const USER = { auth: true, flag: 'allow_tickets' } as const;

export async function ticketSettings(ctx: ServerPluginContext): Promise<TicketSettings> {
  const values = await ctx.settings.getMany(['tickets_max_open', 'tickets_reopen_days', 'tickets_autoclose_days']);
  return { maxOpen: Number(values.tickets_max_open), reopenDays: Number(values.tickets_reopen_days), autocloseDays: Number(values.tickets_autoclose_days) };
}

export function registerCustomerRoutes(
  app: FastifyInstance,
  ctx: ServerPluginContext,
  desk: Desk,
  departments: Departments,
  notifications: TicketNotifications,
  attachments: Attachments,
): void {
  const userOf = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;
  // the server a new ticket names (the servers plugin's, asked at each use: it may be off)
  const linked = new LinkedServers(ctx, ctx.db.withTables<TicketTables>());
  /**
   * Counting the open tickets and adding one are two statements: a lease per account (shared by
   * every instance) keeps two requests from both passing the count, so tickets_max_open holds.
   */
  const openingFor = async <T>(userId: number, work: () => Promise<T>): Promise<T> => {
    const lease = await ctx.leases.acquire(`open:${userId}`, 30_000);
    if (!lease) throw ctx.httpError(409, 'TICKET_BUSY', 'Another of your requests is opening a ticket; try again in a moment.');
    try {
      return await work();
    } finally {
      await lease.release();
    }
  };
  const ok = { 200: { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } }, ...errorResponses } as const;

  app.get('/user/tickets/departments', { config: USER, schema: { response: { 200: schema.openDepartments } } }, async () => ({
    data: await departments.openToCustomers(),
  }));

  app.get<{ Querystring: PagingQuery & { status?: TicketStatus } }>(
    '/user/tickets',
    { config: USER, schema: { querystring: schema.mineQuery, response: { 200: schema.mineList, ...errorResponses } } },
    async (request) => {
      const user = await userOf(request);
      const { page, per_page: perPage, status } = request.query;
      const { rows, total } = await desk.listMine(user.id, status, page, perPage);
      return { data: rows, meta: pageMeta(page, perPage, total) };
    },
  );

  app.post<{ Body: { department_id: number; subject: string; priority?: TicketPriority; message: string; server_id?: number } }>(
    '/user/tickets',
    // JSON, or a form with attachments (its fields checked by the same schema; limits: the settings)
    {
      config: { ...USER, rateLimit: 'tickets.create', upload: attachments.uploadLimits },
      schema: { body: schema.createBody, response: { 201: schema.created, ...errorResponses } },
    },
    async (request, reply) => {
      const user = await userOf(request);
      const body = request.body;
      const subject = body.subject.trim();
      const message = body.message.trim();
      if (subject.length < 3) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The subject is too short.', 'subject');
      if (message.length === 0) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The message is empty.', 'message');
      await departments.requireEnabled(body.department_id);
      if (body.server_id !== undefined) await linked.requireOwn(user.id, body.server_id);
      const settings = await ticketSettings(ctx);
      const priority = body.priority ?? 'medium';
      // kept before the rules below run: a refusal (the open-ticket limit, a department switched off) deletes them again
      const files = await attachments.accept(request);
      const id = await openingFor(user.id, () => desk.create(user.id, { department_id: body.department_id, subject, priority, message }, settings, files));
      if (body.server_id !== undefined) await linked.link(id, body.server_id);
      await notifications.ticketCreated(request, id, message, priority);
      const { ticket } = await desk.viewMine(user.id, id);
      return reply.code(201).send({ ticket });
    },
  );

  app.get<{ Params: { id: number } }>(
    '/user/tickets/:id',
    { config: USER, schema: { params: idParams, response: { 200: schema.mineView, ...errorResponses } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return attachments.withAttachments(await desk.viewMine((await userOf(request)).id, request.params.id));
    },
  );

  app.post<{ Params: { id: number }; Body: { message: string } }>(
    '/user/tickets/:id/replies',
    { config: { ...USER, rateLimit: 'tickets.reply', upload: attachments.uploadLimits }, schema: { params: idParams, body: schema.replyBody, response: ok } },
    async (request) => {
      const message = request.body.message.trim();
      if (message.length === 0) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The message is empty.', 'message');
      const user = await userOf(request);
      const files = await attachments.accept(request);
      await desk.customerReply(user.id, request.params.id, message, files);
      await notifications.customerReplied(request, request.params.id, user.id, message);
      return { success: true };
    },
  );

  app.post<{ Params: { id: number } }>('/user/tickets/:id/close', { config: USER, schema: { params: idParams, response: ok } }, async (request) => {
    const user = await userOf(request);
    await desk.customerClose(user.id, request.params.id);
    // the department's webhook hears of it; the customer is not mailed about their own close
    await notifications.closed(request, request.params.id, user.id, (await ticketSettings(ctx)).reopenDays);
    return { success: true };
  });

  app.post<{ Params: { id: number } }>('/user/tickets/:id/reopen', { config: USER, schema: { params: idParams, response: ok } }, async (request) => {
    const user = await userOf(request);
    const settings = await ticketSettings(ctx);
    await openingFor(user.id, () => desk.customerReopen(user.id, request.params.id, settings));
    return { success: true };
  });
}
