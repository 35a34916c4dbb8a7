// The customer's card beside a ticket, for staff (issue 11): who wrote it — name, e-mail, role, coins
// — the server the ticket names and the customer's servers with their links on the game panel, and a
// support PIN check: staff type the PIN the caller reads out and learn whether it matches, never
// the PIN itself. Within the staff member's departments, as every staff route of a ticket.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, idParams, type ServerPluginContext } from '@orepanel/sdk/server';
import type { Departments } from './departments';
import type { Desk } from './desk';
import { staffServerSchema, staffServerView, type LinkedServers } from './linked-server';

const nullableString = { type: ['string', 'null'] } as const;

const cardSchema = {
  type: 'object',
  required: ['customer', 'linked_server', 'servers'],
  properties: {
    customer: {
      type: ['object', 'null'],
      required: ['uuid', 'username', 'first_name', 'last_name', 'email', 'role_name', 'role_color', 'coins', 'has_pin'],
      properties: {
        uuid: { type: 'string' },
        username: { type: 'string' },
        first_name: { type: 'string' },
        last_name: { type: 'string' },
        email: { type: 'string' },
        role_name: nullableString,
        role_color: nullableString,
        coins: { type: 'integer' },
        /** whether the customer made a support PIN (the check below can match only then) */
        has_pin: { type: 'boolean' },
      },
    },
    // the server the customer named: its id always; `owned` false when it is no longer theirs
    linked_server: {
      type: ['object', 'null'],
      required: ['id', 'owned', 'server'],
      properties: { id: { type: 'integer' }, owned: { type: 'boolean' }, server: { ...staffServerSchema, type: ['object', 'null'] } },
    },
    // null while the servers plugin is off
    servers: { type: ['array', 'null'], items: staffServerSchema },
  },
} as const;

export const SUPPORT_PIN_PATTERN = '^[0-9]{6}$';

export function registerCustomerCardRoutes(app: FastifyInstance, ctx: ServerPluginContext, desk: Desk, departments: Departments, linked: LinkedServers): void {
  const VIEW = { permission: 'admin.tickets.view' } as const;
  /** the ticket, when it is in the staff member's departments (else 404) */
  const ticketOf = async (request: FastifyRequest<{ Params: { id: number } }>) => {
    const user = (await ctx.auth.currentUser(request))!;
    return desk.inScope(await departments.scopeOf(user), request.params.id);
  };

  app.get<{ Params: { id: number } }>(
    '/admin/tickets/:id/customer',
    { config: VIEW, schema: { params: idParams, response: { 200: cardSchema, ...errorResponses } } },
    async (request, reply) => {
      const ticket = await ticketOf(request);
      const userId = Number(ticket.user_id);
      const [account, contact, pin] = await Promise.all([
        ctx.db.selectFrom('user_public').select(['uuid', 'username', 'role_name', 'role_color', 'coins']).where('id', '=', userId).executeTakeFirst(),
        ctx.accounts.contact(userId),
        ctx.accounts.supportPin(userId),
      ]);
      const servers = linked.service();
      reply.header('cache-control', 'no-store');
      return {
        customer:
          account && contact
            ? {
                uuid: account.uuid,
                username: account.username,
                first_name: contact.firstName,
                last_name: contact.lastName,
                email: contact.email,
                role_name: account.role_name,
                role_color: account.role_color,
                coins: Number(account.coins),
                has_pin: pin !== null,
              }
            : null,
        linked_server: await linked.forStaff(userId, ticket.server_id === null ? null : Number(ticket.server_id)),
        servers: servers ? (await servers.listOf(userId)).map(staffServerView) : null,
      };
    },
  );

  app.post<{ Params: { id: number }; Body: { pin: string } }>(
    '/admin/tickets/:id/customer/pin',
    {
      config: VIEW,
      schema: {
        params: idParams,
        body: { type: 'object', required: ['pin'], additionalProperties: false, properties: { pin: { type: 'string', pattern: SUPPORT_PIN_PATTERN } } },
        response: { 200: { type: 'object', required: ['matches'], properties: { matches: { type: 'boolean' } } }, ...errorResponses },
      },
    },
    async (request) => {
      const ticket = await ticketOf(request);
      const pin = await ctx.accounts.supportPin(Number(ticket.user_id));
      const matches = pin !== null && pin === request.body.pin;
      // who checked whose identity, and the outcome (never the PIN)
      await ctx.audit.record(request, { action: 'admin.ticket.pin_check', targetUserId: Number(ticket.user_id), details: { ticket_id: Number(ticket.id), matches } });
      return { matches };
    },
  );
}
