// The earn-j4r API's addresses and answers (server/user-routes.ts, server/admin-routes.ts).

export const J4R_API = {
  status: '/api/user/j4r/status',
  list: '/api/user/j4r/list',
  /** a full page load: the server sends the browser to Discord and Discord back to /earn/j4r */
  check: '/api/user/j4r/check',
} as const;

export interface DiscordAccount {
  id: string;
  username: string;
}

export interface J4rStatus {
  discord_available: boolean;
  discord_account: DiscordAccount | null;
  guilds_total: number;
  guilds_claimed: number;
  coins_earned: number;
}

export interface J4rGuild {
  guild_id: string;
  name: string;
  invite_url: string;
  icon_url: string | null;
  coins: number;
  claimed: boolean;
  claimed_coins: number | null;
  claimed_at: string | null;
}

export interface AdminGuild {
  id: number;
  guild_id: string;
  name: string;
  invite_url: string;
  icon_url: string | null;
  coins: number;
  enabled: boolean;
  /** how many users it paid */
  claims: number;
  created_at: string;
  updated_at: string;
}

export const adminUrl = {
  guilds: () => '/api/admin/j4r/guilds',
  guild: (id: number) => `/api/admin/j4r/guilds/${encodeURIComponent(String(id))}`,
};

/** the query parameters the check's return to /earn/j4r carries */
export const RETURN_PARAMS = ['j4r_paid', 'j4r_coins', 'j4r_error'] as const;
