// After a redirect link was created, changed or deleted, this plugin says so on the event bus:
// the app shell (kernel/shell/redirect-links.ts) then fetches the links of its navigation again, so
// the sidebar shows the new set without a reload.
import type { PluginEvents } from '@orepanel/sdk';

/** `redirect-links:changed`: the plugin's own event (the bus prefixes nothing; the name is whole). */
export const LINKS_CHANGED_EVENT = 'redirect-links:changed';

let bus: PluginEvents | null = null;

/** Called once by the plugin's setup with its `ctx.events`. */
export function connectLinkEvents(events: PluginEvents): void {
  bus = events;
}

export function announceLinksChanged(): void {
  bus?.emit(LINKS_CHANGED_EVENT);
}
