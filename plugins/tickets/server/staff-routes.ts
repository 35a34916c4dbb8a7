// /api/admin/tickets…: the staff's side. Reading needs admin.tickets.list (lists, counts) or
// admin.tickets.view (one ticket, and every action on it); every route sees only the departments
// the staff member's role is limited to, and every action is written to the audit log.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, idParams, pageMeta, successSchema, type PagingQuery, type ServerPluginContext } from '@orepanel/sdk/server';
import type { Attachments } from './attachments';
import type { Departments } from './departments';
import { ticketSettings } from './customer-routes';
import type { Desk, StaffChanges, StaffFilters } from './desk';
import type { TicketNotifications } from './notifications';
import { ticketSchemas as schema } from './schemas';
import type { TicketStaff } from './ticket-staff';

/** the list's query as the address has it: `assignee` names the caller's own tickets or nobody's */
type StaffListQuery = PagingQuery & Omit<StaffFilters, 'unassigned'> & { assignee?: 'me' | 'nobody' };

export function registerStaffRoutes(
  app: FastifyInstance,
  ctx: ServerPluginContext,
  desk: Desk,
  departments: Departments,
  notifications: TicketNotifications,
  staff: TicketStaff,
  attachments: Attachments,
): void {
  const staffOf = async (request: FastifyRequest) => {
    const user = (await ctx.auth.currentUser(request))!;
    return { user, scope: await departments.scopeOf(user) };
  };
  const messageBody = { params: idParams, body: schema.replyBody, response: { 200: successSchema, ...errorResponses } } as const;

  app.get<{ Querystring: StaffListQuery }>(
    '/admin/tickets',
    { config: { permission: 'admin.tickets.list' }, schema: { querystring: schema.staffQuery, response: { 200: schema.staffList, ...errorResponses } } },
    async (request) => {
      const { user, scope } = await staffOf(request);
      const { page, per_page: perPage, assignee, ...filters } = request.query;
      if (assignee !== undefined && filters.assigned_to !== undefined) {
        throw ctx.httpError(400, 'VALIDATION_ERROR', 'Ask for assignee or assigned_to, not both.', 'assignee');
      }
      if (assignee === 'me') filters.assigned_to = user.id;
      const { rows, total } = await desk.staffList(scope, { ...filters, unassigned: assignee === 'nobody' }, page, perPage);
      return { data: rows, meta: pageMeta(page, perPage, total) };
    },
  );

  app.get('/admin/tickets/counts', { config: { permission: 'admin.tickets.list' }, schema: { response: { 200: schema.counts, ...errorResponses } } }, async (request) => {
    const { scope } = await staffOf(request);
    return { counts: await desk.staffCounts(scope) };
  });

  // the departments the caller works in, by name: the pages' department filter and "move to" choice
  // (without admin.departments.list, and never one the move would be refused for)
  app.get(
    '/admin/tickets/departments',
    { config: { permission: 'admin.tickets.view' }, schema: { response: { 200: schema.staffDepartments, ...errorResponses } } },
    async (request) => ({ data: await departments.inScope((await staffOf(request)).scope) }),
  );

  // who may be given tickets (of one department, when asked): the assignee picker and filter
  app.get<{ Querystring: { department_id?: number } }>(
    '/admin/tickets/assignees',
    { config: { permission: 'admin.tickets.view' }, schema: { querystring: schema.assigneesQuery, response: { 200: schema.assignees, ...errorResponses } } },
    async (request) => {
      const { user, scope } = await staffOf(request);
      const departmentId = request.query.department_id;
      // a department outside the caller's own is as unknown to them as one that does not exist
      if (departmentId !== undefined && ((scope !== null && !scope.includes(departmentId)) || !(await departments.exists(departmentId)))) {
        throw ctx.httpError(404, 'DEPARTMENT_NOT_FOUND', 'No such department.');
      }
      const members = await staff.members({ departmentId });
      return { data: members, me: user.id };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/tickets/:id',
    { config: { permission: 'admin.tickets.view' }, schema: { params: idParams, response: { 200: schema.staffView, ...errorResponses } } },
    async (request, reply) => {
      const { scope } = await staffOf(request);
      reply.header('cache-control', 'no-store');
      return attachments.withAttachments(await desk.staffView(scope, request.params.id));
    },
  );

  const write = (internal: boolean) => async (request: FastifyRequest<{ Params: { id: number }; Body: { message: string } }>) => {
    const { user, scope } = await staffOf(request);
    const message = request.body.message.trim();
    if (message.length === 0) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The message is empty.', 'message');
    const files = await attachments.accept(request);
    const ticket = await desk.staffWrite(scope, user.id, request.params.id, message, internal, files);
    await ctx.audit.record(request, { action: internal ? 'admin.ticket.note' : 'admin.ticket.reply', targetUserId: ticket.user_id, details: { ticket_id: ticket.id } });
    // a note is between staff: it mails nobody
    if (!internal) await notifications.staffReplied(request, Number(ticket.id), user.id, message);
    return { success: true };
  };
  // JSON, or a form with attachments (limits: the settings)
  const writeConfig = { permission: 'admin.tickets.view', upload: attachments.uploadLimits };
  app.post('/admin/tickets/:id/replies', { config: writeConfig, schema: messageBody }, write(false));
  app.post('/admin/tickets/:id/notes', { config: writeConfig, schema: messageBody }, write(true));

  app.patch<{ Params: { id: number }; Body: StaffChanges }>(
    '/admin/tickets/:id',
    { config: { permission: 'admin.tickets.view' }, schema: { params: idParams, body: schema.staffChangeBody, response: { 200: schema.staffTicket, ...errorResponses } } },
    async (request) => {
      const { user, scope } = await staffOf(request);
      const before = await desk.inScope(scope, request.params.id);
      const after = await desk.staffChange(scope, request.params.id, request.body);
      const details: Record<string, string | number | null> = { ticket_id: after.id };
      for (const key of ['status', 'priority', 'department_id', 'assigned_to'] as const) {
        // a move can unassign too (an assignee who does not see the new department)
        if (request.body[key] !== undefined || before[key] !== after[key]) details[key] = `${String(before[key])}→${String(after[key])}`;
      }
      await ctx.audit.record(request, { action: 'admin.ticket.update', targetUserId: after.user_id, details });
      if (before.status !== 'closed' && after.status === 'closed') await notifications.closed(request, after.id, user.id, (await ticketSettings(ctx)).reopenDays);
      return { ticket: desk.staffTicket(after) };
    },
  );
}
