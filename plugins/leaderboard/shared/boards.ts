// The leaderboard's boards (reference: coins, servers, minutes_afk, link providers, referrals) and
// where each one's numbers come from. Shared by the API and the page, so the tabs and the route's
// `type` parameter can never disagree.

export const BOARD_TYPES = ['coins', 'servers', 'minutes_afk', 'referrals', 'links'] as const;
export type BoardType = (typeof BOARD_TYPES)[number];

/**
 * A board reads either a column of the users table (the wallet keeps `coins`, earn-afk keeps
 * `minutes_afk`) or a counter another plugin publishes through ctx.counters — never that plugin's
 * own tables. `servers` is published by the hosting plugin; until it exists the board is empty.
 */
export type BoardSource = { column: 'coins' | 'minutes_afk' } | { counter: 'servers' | 'referrals' | 'links' };

export const BOARD_SOURCES: Readonly<Record<BoardType, BoardSource>> = Object.freeze({
  coins: { column: 'coins' },
  servers: { counter: 'servers' },
  minutes_afk: { column: 'minutes_afk' },
  referrals: { counter: 'referrals' },
  links: { counter: 'links' },
});

export function isBoardType(value: unknown): value is BoardType {
  return typeof value === 'string' && (BOARD_TYPES as readonly string[]).includes(value);
}

/** reference: leaderboard_limit 15; the API never ranks more than this many at once */
export const LEADERBOARD_LIMIT = { default: 15, min: 1, max: 100 } as const;

/** One ranked user as GET /api/user/leaderboard/{type} answers it (no e-mail, no names beyond the username). */
export interface RankedUser {
  rank: number;
  uuid: string;
  username: string;
  avatar: string | null;
  role: { name: string; color: string };
  value: number;
  /** one of the panel's first accounts (spec §3 early_supporters_enabled) */
  early_supporter: boolean;
}

export interface LeaderboardAnswer {
  type: BoardType;
  /** the top N setting in force */
  limit: number;
  data: RankedUser[];
  /** the signed-in user's own place: rank null while their value is 0 (not on the board) */
  me: { rank: number | null; value: number };
}
