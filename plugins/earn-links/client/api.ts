// The earn-links API's addresses and answers (server/link-routes.ts).
import type { LinkProviderId } from '../shared/providers';

export const LINKS_API = '/api/user/earn/l4r';

/** Where the Start button leads: the server sends the browser on to the provider's short link. */
export const startPath = (provider: LinkProviderId) => `${LINKS_API}/${provider}/start`;

export interface ProviderView {
  id: LinkProviderId;
  name: string;
  coins: number;
  daily_limit: number;
  /** links completed today (UTC) */
  today: number;
  min_time_seconds: number;
  expire_seconds: number;
  cooldown_seconds: number;
  cooldown_left_seconds: number;
  /** a link started now could be paid */
  available: boolean;
}

export interface LinksAnswer {
  providers: ProviderView[];
  next_day_in_seconds: number;
}
