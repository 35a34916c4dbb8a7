// Live ticket pages (issue 11: new replies appear without a reload). A page open on a ticket holds a
// websocket — the customer's GET /api/user/tickets/:id/socket, the staff's GET
// /api/admin/tickets/:id/socket — that says only "this ticket changed"; the page then reads the
// ticket again through the ordinary HTTP API. The socket never carries a message, a note or a field,
// so what a page shows is decided by the same checks as always: a customer never sees a staff note,
// a staff member whose departments no longer include the ticket (or a customer who lost it) simply
// gets 404 on that read. The notice travels on ctx.broadcast's `ticket:<id>` channel, so a reply
// written through one panel instance reaches a page whose socket another instance holds.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { idParams, type BroadcastValue, type PluginWebSocket, type ServerPluginContext } from '@orepanel/sdk/server';
import type { Departments } from './departments';
import { TICKET_LIVE_CLOSE, type TicketLiveMessage } from '../shared/live-protocol';
import type { Desk } from './desk';

/** The routes, as registered in the plugin's scope under /api (shared/live-protocol.ts builds the full addresses). */
const SOCKET_ROUTES = { customer: '/user/tickets/:id/socket', staff: '/admin/tickets/:id/socket' } as const;

/** Every tab anyone keeps open, not enough to exhaust memory. */
const MAX_SOCKETS_PER_USER = 20;
/**
 * How often (ctx.clock) the session behind each socket and the allow_tickets flag are checked. A
 * sign-out on another instance is not an event here: the check ends such a socket within this time.
 */
export const LIVE_REVIEW_MS = 30_000;
/** Transport keep-alive on real time (ws ping/pong): it finds dead TCP connections. */
const KEEPALIVE_MS = 30_000;
const OPEN = 1;

/** A write under a ticket's own address — a reply, a note, a close or reopen, a staff change, attachments. */
const TICKET_WRITE = /\/(user|admin)\/tickets\/:id(\/|$)/;

interface LiveSocket {
  socket: PluginWebSocket;
  userId: number;
  sessionId: number;
  alive: boolean;
  gone: boolean;
  unsubscribe: (() => void) | null;
}

export class TicketLive {
  private readonly sockets = new Set<LiveSocket>();
  private readonly keepalive: NodeJS.Timeout;
  private cancelReview: (() => void) | null = null;
  private stopped = false;
  private readonly offs: Array<() => void>;

  constructor(private readonly ctx: ServerPluginContext) {
    this.keepalive = setInterval(() => this.checkAlive(), KEEPALIVE_MS);
    this.keepalive.unref();
    this.scheduleReview();
    this.offs = [
      ctx.events.on('session.ended', ({ sessionId }) => this.closeWhere((s) => s.sessionId === sessionId, TICKET_LIVE_CLOSE.SESSION_ENDED, 'session ended')),
      ctx.events.on('user.deleted', ({ userId }) => this.closeWhere((s) => s.userId === userId, TICKET_LIVE_CLOSE.SESSION_ENDED, 'account deleted')),
    ];
    // A disabled plugin hears no events (its own plugin.state included) and no broadcasts: its open
    // sockets go quiet, new ones are refused with 404 like its routes, and enabling it wakes them.
  }

  /** Tells every page open on ticket `id`, on every instance, that it changed. Never throws. */
  changed(id: number): void {
    const message: TicketLiveMessage = { type: 'changed', id, at: new Date(this.ctx.clock.now()).toISOString() };
    this.ctx.broadcast.publish(`ticket:${id}`, message).catch((error: unknown) => this.ctx.log.error({ err: error, ticket: id }, 'announcing a ticket change failed'));
  }

  /** A socket the route accepted (session, flag or permission, origin and access to the ticket already checked). */
  async open(socket: PluginWebSocket, request: FastifyRequest, ticketId: number): Promise<void> {
    const user = await this.ctx.auth.currentUser(request);
    if (!user) return socket.close(TICKET_LIVE_CLOSE.SESSION_ENDED, 'not signed in');
    const live: LiveSocket = { socket, userId: user.id, sessionId: user.sessionId, alive: true, gone: false, unsubscribe: null };
    if ([...this.sockets].filter((s) => s.userId === user.id).length >= MAX_SOCKETS_PER_USER) {
      return socket.close(TICKET_LIVE_CLOSE.TOO_MANY, 'too many live ticket pages');
    }
    this.sockets.add(live);
    socket.on('close', () => this.forget(live));
    socket.on('pong', () => {
      live.alive = true;
    });
    socket.on('message', () => this.close(live, TICKET_LIVE_CLOSE.PROTOCOL, 'this socket only listens'));
    const unsubscribe = await this.ctx.broadcast.subscribe(`ticket:${ticketId}`, (message) => this.forward(live, ticketId, message));
    // the page may have gone while the subscription was being made
    if (live.gone) return unsubscribe();
    live.unsubscribe = unsubscribe;
    this.send(live, { type: 'ready' });
  }

  /** Closes every socket (the panel is stopping): pages reconnect to an instance that runs. */
  stop(): void {
    this.stopped = true;
    clearInterval(this.keepalive);
    this.cancelReview?.();
    for (const off of this.offs) off();
    this.closeWhere(() => true, TICKET_LIVE_CLOSE.GOING_AWAY, 'server restarting');
  }

  /** Only the notice's own shape is passed on, whatever the channel carried. */
  private forward(live: LiveSocket, ticketId: number, message: BroadcastValue): void {
    const sent = typeof message === 'object' && message !== null && !Array.isArray(message) ? message.at : null;
    const at = typeof sent === 'string' ? sent : new Date(this.ctx.clock.now()).toISOString();
    this.send(live, { type: 'changed', id: ticketId, at });
  }

  private send(live: LiveSocket, message: TicketLiveMessage): void {
    if (!live.gone && live.socket.readyState === OPEN) live.socket.send(JSON.stringify(message));
  }

  private forget(live: LiveSocket): void {
    live.gone = true;
    live.unsubscribe?.();
    live.unsubscribe = null;
    this.sockets.delete(live);
  }

  private close(live: LiveSocket, code: number, reason: string): void {
    this.forget(live);
    live.socket.close(code, reason);
  }

  private closeWhere(match: (live: LiveSocket) => boolean, code: number, reason: string): void {
    for (const live of [...this.sockets]) if (match(live)) this.close(live, code, reason);
  }

  private scheduleReview(): void {
    if (this.stopped) return;
    this.cancelReview = this.ctx.clock.setTimeout(() => void this.review().finally(() => this.scheduleReview()), LIVE_REVIEW_MS);
  }

  private async review(): Promise<void> {
    try {
      if ((await this.ctx.settings.get('allow_tickets')) !== true) return this.closeWhere(() => true, TICKET_LIVE_CLOSE.FEATURE_OFF, 'tickets are turned off');
      for (const live of [...this.sockets]) {
        if (!(await this.ctx.auth.sessionLive(live.sessionId))) this.close(live, TICKET_LIVE_CLOSE.SESSION_ENDED, 'session ended');
      }
    } catch (error) {
      this.ctx.log.error({ err: error }, 'reviewing the live ticket sockets failed');
    }
  }

  private checkAlive(): void {
    for (const live of [...this.sockets]) {
      if (!live.alive) {
        this.forget(live);
        live.socket.terminate();
        continue;
      }
      live.alive = false;
      live.socket.ping();
    }
  }
}

/**
 * The two socket routes, and the one place that announces changes: every successful write under a
 * ticket's address is a change to that ticket, announced once its answer has gone out (so after the
 * change committed). Routes added later under that address are covered without a word of their own.
 * Changes made elsewhere (the auto-close job) call `changed` themselves.
 */
export function registerLiveRoutes(app: FastifyInstance, ctx: ServerPluginContext, desk: Desk, departments: Departments): TicketLive {
  const live = new TicketLive(ctx);
  app.addHook('preClose', async () => live.stop());
  app.addHook('onResponse', async (request, reply) => {
    if (request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 300) return;
    if (!TICKET_WRITE.test(request.routeOptions.url ?? '')) return;
    const { id } = request.params as { id?: unknown };
    if (typeof id === 'number') live.changed(id);
  });

  type TicketRequest = FastifyRequest<{ Params: { id: number } }>;
  const userOf = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;
  // checked before the upgrade, so a ticket that is not the caller's answers 404 like its HTTP twin
  const ownTicket = async (request: TicketRequest) => {
    await desk.mine((await userOf(request)).id, request.params.id);
  };
  const ticketInScope = async (request: TicketRequest) => {
    await desk.inScope(await departments.scopeOf(await userOf(request)), request.params.id);
  };

  app.get<{ Params: { id: number } }>(
    SOCKET_ROUTES.customer,
    { websocket: true, config: { auth: true, flag: 'allow_tickets' }, schema: { params: idParams }, preHandler: ownTicket },
    (socket, request) => live.open(socket, request, request.params.id),
  );
  app.get<{ Params: { id: number } }>(
    SOCKET_ROUTES.staff,
    { websocket: true, config: { permission: 'admin.tickets.view' }, schema: { params: idParams }, preHandler: ticketInScope },
    (socket, request) => live.open(socket, request, request.params.id),
  );
  return live;
}
