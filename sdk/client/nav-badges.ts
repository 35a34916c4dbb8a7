// The counts on the sidebar's items (plugin.json `badge` on a nav item; the plugin's server part
// counts with ctx.nav.badge). The kernel fetches them after each session load and as the user moves
// around; a page that just changed what a badge counts (opened an unread ticket, answered one) asks
// for them at once instead of leaving a stale count for up to a minute.
import { kernelEvents } from './events';

/** Asks the kernel to fetch the sidebar's counts again now (several calls at once make one fetch). */
export function refreshNavBadges(): void {
  kernelEvents.emit('nav:refresh-badges', undefined);
}
