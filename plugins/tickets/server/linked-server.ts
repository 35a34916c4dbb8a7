// A ticket's linked server (issue 11: /ticket/create takes an optional server of the customer's own,
// checked as theirs; staff see it beside the ticket). Servers are the servers plugin's: the tickets
// plugin lists it in plugin.json `optional` and asks its servers.owned service at each use
// (ctx.services.find), so tickets keep working while the servers plugin is off — the customer then
// has no servers to choose, and a ticket's link shows as a server id with no details.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, idParams, rowId, type ServerPluginContext } from '@orepanel/sdk/server';
import { OWNED_SERVERS, type OwnedServer, type OwnedServers } from '../../servers/contract';
import type { Desk } from './desk';
import type { TicketDb } from './tables';

/** A server as its owner sees it in the tickets pages. */
export interface ServerChoice {
  id: number;
  name: string;
  identifier: string;
}

/** A server as staff see it: with its state and the way to it on the game panel. */
export interface StaffServerView extends ServerChoice {
  status: OwnedServer['status'];
  panel_url: string | null;
}

const choice = (server: OwnedServer): ServerChoice => ({ id: server.id, name: server.name, identifier: server.identifier });
export const staffServerView = (server: OwnedServer): StaffServerView => ({ ...choice(server), status: server.status, panel_url: server.panelUrl });

const serverChoiceSchema = {
  type: 'object',
  required: ['id', 'name', 'identifier'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, identifier: { type: 'string' } },
} as const;

export const staffServerSchema = {
  type: 'object',
  required: ['id', 'name', 'identifier', 'status', 'panel_url'],
  properties: { ...serverChoiceSchema.properties, status: { type: 'string' }, panel_url: { type: ['string', 'null'] } },
} as const;

/** the `server_id` a new ticket may carry (the create body's schema) */
export const serverIdProperty = rowId();

export class LinkedServers {
  constructor(
    private readonly ctx: Pick<ServerPluginContext, 'services' | 'httpError'>,
    private readonly db: TicketDb,
  ) {}

  /** the servers plugin's service while it is on, else null */
  service(): OwnedServers | null {
    return this.ctx.services.find(OWNED_SERVERS);
  }

  /** The customer's servers to pick from; none while the servers plugin is off. */
  async choicesOf(userId: number): Promise<{ available: boolean; data: ServerChoice[] }> {
    const servers = this.service();
    return { available: servers !== null, data: servers ? (await servers.listOf(userId)).map(choice) : [] };
  }

  /**
   * Checks a server a customer names for a new ticket is theirs, before anything is written: another's,
   * an unknown one, and any one while the servers plugin is off are all 400 SERVER_NOT_YOURS.
   */
  async requireOwn(userId: number, serverId: number): Promise<void> {
    const owned = await this.service()?.ownedBy(userId, serverId);
    if (!owned) throw this.ctx.httpError(400, 'SERVER_NOT_YOURS', 'Choose one of your own servers.', 'server_id');
  }

  /** Records the (checked) server on a ticket just opened. */
  async link(ticketId: number, serverId: number): Promise<void> {
    await this.db.updateTable('tickets').set({ server_id: serverId }).where('id', '=', ticketId).execute();
  }

  /** The ticket's server as its owner sees it: null when none is linked, or it is no longer theirs (deleted, or the plugin off). */
  async forCustomer(userId: number, serverId: number | null): Promise<ServerChoice | null> {
    if (serverId === null) return null;
    const owned = await this.service()?.ownedBy(userId, serverId);
    return owned ? choice(owned) : null;
  }

  /**
   * The ticket's server as staff see it: `id` always (what the customer named), the details while the
   * servers plugin knows the server, and whether it still belongs to the ticket's customer.
   */
  async forStaff(customerId: number, serverId: number | null): Promise<{ id: number; owned: boolean; server: StaffServerView | null } | null> {
    if (serverId === null) return null;
    const found = await this.service()?.get(serverId);
    return { id: serverId, owned: found?.userId === customerId, server: found ? staffServerView(found) : null };
  }
}

/** GET /user/tickets/servers (the create form's choices) and GET /user/tickets/:id/server (the ticket's). */
export function registerLinkedServerRoutes(app: FastifyInstance, ctx: ServerPluginContext, desk: Desk, linked: LinkedServers): void {
  const USER = { auth: true, flag: 'allow_tickets' } as const;
  const userOf = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;

  app.get(
    '/user/tickets/servers',
    {
      config: USER,
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['available', 'data'],
            // available: false while the servers plugin is off (the form then offers no choice)
            properties: { available: { type: 'boolean' }, data: { type: 'array', items: serverChoiceSchema } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return linked.choicesOf((await userOf(request)).id);
    },
  );

  app.get<{ Params: { id: number } }>(
    '/user/tickets/:id/server',
    {
      config: USER,
      schema: {
        params: idParams,
        response: { 200: { type: 'object', required: ['server'], properties: { server: { ...serverChoiceSchema, type: ['object', 'null'] } } }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = await userOf(request);
      // another customer's ticket is as missing as one that does not exist
      const row = await desk.mine(user.id, request.params.id);
      reply.header('cache-control', 'no-store');
      return { server: await linked.forCustomer(user.id, row.server_id === null ? null : Number(row.server_id)) };
    },
  );
}
