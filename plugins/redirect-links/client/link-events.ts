// After a redirect link was created, changed or deleted, this plugin says so: its navigation section
// (RedirectLinksNav.tsx, in the sidebar) fetches the links again, so the sidebar shows the new set
// without a reload; and on the event bus, for anyone else.
import type { PluginEvents } from '@orepanel/sdk';

/** `redirect-links:changed`: the plugin's own event (the bus prefixes nothing; the name is whole). */
export const LINKS_CHANGED_EVENT = 'redirect-links:changed';

let bus: PluginEvents | null = null;

/** Called once by the plugin's setup with its `ctx.events`. */
export function connectLinkEvents(events: PluginEvents): void {
  bus = events;
}

/** the plugin's own listeners: the same bundle, so they need no round trip through the bus */
const listeners = new Set<() => void>();

/** Calls `listener` after each change; returns the function that stops it. */
export function onLinksChanged(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function announceLinksChanged(): void {
  bus?.emit(LINKS_CHANGED_EVENT);
  for (const listener of [...listeners]) listener();
}
