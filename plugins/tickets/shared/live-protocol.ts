// The live ticket socket's protocol, shared by the pages and the server so the two cannot drift apart.
// The server speaks, the page only listens: `ready` once it listens (the page reads the ticket then,
// a change may have come before), `changed` after every change to the ticket. Neither carries
// anything of the ticket: the page reads it through the HTTP API, with that API's checks.

export type TicketLiveMessage = { type: 'ready' } | { type: 'changed'; id: number; at: string };

/** Why the server closed a socket: the page reconnects after GOING_AWAY only. */
export const TICKET_LIVE_CLOSE = {
  /** the panel is restarting: reconnect */
  GOING_AWAY: 1001,
  /** the page sent something; it has nothing to say */
  PROTOCOL: 4400,
  /** signed out, session revoked or account deleted */
  SESSION_ENDED: 4401,
  /** the allow_tickets flag was turned off */
  FEATURE_OFF: 4403,
  /** more sockets of one account on this instance than any set of tabs needs */
  TOO_MANY: 4429,
} as const;

export type TicketSide = 'customer' | 'staff';

/** The socket of a ticket's page: the customer's under /api/user, the staff's under /api/admin. */
export function ticketSocketPath(side: TicketSide, id: number | string): string {
  return `/api/${side === 'staff' ? 'admin' : 'user'}/tickets/${encodeURIComponent(String(id))}/socket`;
}
