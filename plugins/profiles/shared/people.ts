// What the profiles plugin's API answers and the rules both sides check (the server stays the authority).

/** /lookup by name (issue 4): at least 3 characters, at most 10 results. */
export const NAME_SEARCH = { minLength: 3, maxLength: 32, maxResults: 10 } as const;

/** The support PIN a user tells staff (the account plugin makes it): 6 digits. */
export const SUPPORT_PIN_PATTERN = /^[0-9]{6}$/;

/** A user's public id as the panel writes it (any case accepted). */
export const USER_UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/** Minecraft Java account names: 3–16 letters, digits or underscores. Only these get a skin from the skin address. */
export const MINECRAFT_NAME = /^[A-Za-z0-9_]{3,16}$/;

/** The skin every profile shows when there is no skin address (public/skins/, shipped with the panel). */
export const DEFAULT_SKIN_PATH = '/skins/default.png';

export interface PersonRole {
  name: string;
  color: string;
}

/**
 * GET /api/user/profile/{uuid}. Public on purpose: the username, pictures, role, when they joined and
 * what they did on the panel (AFK minutes, referrals, servers). Left out on purpose: e-mail and real
 * names (personal data), and the coin balance — coins can be bought with money, so a balance says
 * what someone spends and marks them for begging and scams; whoever wants to compete shows up on the
 * coins leaderboard.
 */
export interface PublicProfile {
  uuid: string;
  username: string;
  avatar: string | null;
  background: string | null;
  role: PersonRole;
  member_since: string;
  stats: { minutes_afk: number; referrals: number; servers: number };
  /** the Minecraft skin to show, or null for the bundled default skin */
  skin_url: string | null;
  /** the profile is the signed-in user's own */
  self: boolean;
  /** one of the panel's first accounts (spec §3 early_supporters_enabled) */
  early_supporter: boolean;
}

/** One row of GET /api/user/search?query= */
export interface PersonMatch {
  uuid: string;
  username: string;
  avatar: string | null;
  role: PersonRole;
}
