// The AFK socket's protocol, shared by the page and the server so the two cannot drift apart.
//
// The page opens AFK_SOCKET_PATH and, while it is visible, sends `{ type: 'heartbeat', visible: true }`
// every HEARTBEAT_INTERVAL_MS; when it is hidden it sends one `{ visible: false }` and stops. The
// server pays a UTC minute only when this socket held the user's AFK lease and heartbeats arrived at
// most HEARTBEAT_GAP_MS apart, visible, from before the minute began until it ended. It answers every
// message (and every change) with a `state` message.

export const AFK_STATUS_PATH = '/api/user/earn/afk';
export const AFK_SOCKET_PATH = '/api/user/earn/afk/socket';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;
/**
 * how often a visible page sends a heartbeat: half the allowed gap, so a late timer, network jitter
 * or a busy server (heartbeats are stamped when the server reads them) never breaks a stretch
 */
export const HEARTBEAT_INTERVAL_MS = 10_000;
/** the longest silence between two heartbeats that still counts as one unbroken live stretch */
export const HEARTBEAT_GAP_MS = 20_000;

export type AfkClientMessage = { type: 'heartbeat'; visible: boolean } | { type: 'takeover' };

/**
 * earning: this socket holds the user's paying session and is live; standby: another tab or device
 * holds it; paused: this page is hidden or stopped sending heartbeats; capped: the daily cap is reached.
 */
export type AfkStatus = 'earning' | 'standby' | 'paused' | 'capped';

export interface AfkStateMessage {
  type: 'state';
  status: AfkStatus;
  /** coins per full minute */
  rate: number;
  /** coins per UTC day */
  dailyCap: number;
  earnedToday: number;
  remainingToday: number;
  /** when the UTC day (and the cap) starts over, epoch ms */
  resetsAt: number;
  /** what this socket has been paid */
  session: { minutes: number; coins: number };
  /** the end of the first minute this socket can still be paid for while it stays earning, epoch ms */
  nextPayoutAt: number | null;
  /** the latest minute paid to this socket */
  lastPayout: { minute: string; coins: number } | null;
  /** how many of this socket's messages the server has handled (a state with handled ≥ n answers message n) */
  handled: number;
  serverTime: number;
}

export type AfkServerMessage = AfkStateMessage;

/** Close codes the server ends a socket with (4000–4999 are the application's own). */
export const AFK_CLOSE = {
  /** a message the protocol does not know */
  PROTOCOL: 4400,
  /** the session ended (logout, revoked, banned): do not reconnect */
  SESSION_ENDED: 4401,
  /** afk_enabled was switched off or the plugin disabled: do not reconnect */
  FEATURE_DISABLED: 4403,
  /** too many sockets of this user, or too many messages */
  TOO_MANY: 4429,
  /** the server is shutting down: reconnect */
  GOING_AWAY: 1001,
} as const;

/** Parses a client message; null when it is not one (the server then closes with PROTOCOL). */
export function parseClientMessage(text: string): AfkClientMessage | null {
  if (text.length > 256) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const message = value as Record<string, unknown>;
  const keys = Object.keys(message);
  if (message.type === 'heartbeat' && typeof message.visible === 'boolean' && keys.length === 2) return { type: 'heartbeat', visible: message.visible };
  if (message.type === 'takeover' && keys.length === 1) return { type: 'takeover' };
  return null;
}
