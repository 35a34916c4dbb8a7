// Counts on the sidebar's items (ctx.nav): a plugin names a badge on a nav item in its plugin.json
// (`"badge": "unread"`) and gives its count here, per user. The core's GET /api/user/nav-badges asks
// only the badges of the items that user can see (enabled plugin, flag on, permission held), so a
// provider never counts for someone the item is hidden from.
import type { SessionUser } from './auth';

/**
 * How many things wait for `user` behind the badge (0 hides it). Throwing, or answering anything but
 * a whole number ≥ 0, leaves this badge out of the answer (logged); the other badges are unaffected.
 */
export type NavBadgeProvider = (user: SessionUser) => Promise<number>;

/** ctx.nav */
export interface PluginNav {
  /**
   * Gives the count of badge `name`, in register(). The plugin's plugin.json must name the badge on one
   * of its nav items, and a badge is given once (throws otherwise: found when the panel starts).
   */
  badge(name: string, provider: NavBadgeProvider): void;
}
