// The sidebar's counts (GET /api/user/nav-badges; the plugins give them, server/nav). Fetched after
// each session load — the session is refetched every 60 s (spec §4), so the counts follow it — on
// navigation (at most once per NAV_BADGES_THROTTLE_MS: a user clicking around does not send a request
// per page) and when a page asks (the sdk's refreshNavBadges). Only while someone is signed in and
// only when an installed plugin names a badge at all: the login page and a panel without badges send
// nothing.
import { create } from 'zustand';
import type { ServedPluginManifest } from '../../sdk/types';

export const NAV_BADGES_URL = '/api/user/nav-badges';
export const NAV_BADGES_THROTTLE_MS = 15_000;

/** `<plugin id>.<badge name>` → count; a badge missing here shows nothing. */
export type NavBadgeCounts = Readonly<Record<string, number>>;

export const navBadgeStore = create<{ counts: NavBadgeCounts }>(() => ({ counts: {} }));

/** The key the server answers a nav item's badge under. */
export function navBadgeKey(pluginId: string, badge: string): string {
  return `${pluginId}.${badge}`;
}

/** Whether any of the manifests names a badge on a nav item (else there is nothing to fetch). */
export function namesBadges(manifests: readonly ServedPluginManifest[]): boolean {
  return manifests.some((m) => (m.nav ?? []).some((item) => typeof item.badge === 'string'));
}

/** The counts of an answer: whole numbers ≥ 0 only (anything else is dropped, not shown). */
export function readCounts(body: unknown): NavBadgeCounts {
  const badges = typeof body === 'object' && body !== null ? (body as { badges?: unknown }).badges : undefined;
  if (typeof badges !== 'object' || badges === null || Array.isArray(badges)) return {};
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(badges)) if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) counts[key] = value;
  return counts;
}

export interface NavBadgeFetcherDeps {
  fetch(url: string, init: RequestInit): Promise<Response>;
  now(): number;
  /** true while a user is signed in and some installed plugin names a badge */
  wanted(): boolean;
  set(counts: NavBadgeCounts): void;
}

export interface NavBadgeFetcher {
  /** Fetches now; while a fetch runs, one more follows it (what changed meanwhile is counted). */
  refresh(): Promise<void>;
  /** After a navigation: fetches unless the last fetch is younger than the throttle. */
  navigated(): Promise<void>;
  /** The session ended: the counts go, and an answer still under way is dropped. */
  clear(): void;
}

export function createNavBadgeFetcher(deps: NavBadgeFetcherDeps): NavBadgeFetcher {
  let running: Promise<void> | null = null;
  let again = false;
  let lastStart = Number.NEGATIVE_INFINITY;
  // bumped by clear(): an answer that arrives after the session ended is not shown
  let generation = 0;

  const fetchOnce = async () => {
    const mine = generation;
    lastStart = deps.now();
    try {
      const response = await deps.fetch(NAV_BADGES_URL, { credentials: 'same-origin', cache: 'no-store', headers: { Accept: 'application/json' } });
      if (mine !== generation) return;
      if (response.status === 401) deps.set({});
      // another failure keeps the counts shown: the next session load tries again
      else if (response.ok) deps.set(readCounts(await response.json()));
    } catch {
      // offline for a moment: the counts stay until the next try
    }
  };

  const refresh = (): Promise<void> => {
    if (!deps.wanted()) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await fetchOnce();
      } while (again && deps.wanted());
    })().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    refresh,
    navigated: () => (deps.now() - lastStart >= NAV_BADGES_THROTTLE_MS ? refresh() : Promise.resolve()),
    clear() {
      generation++;
      again = false;
      lastStart = Number.NEGATIVE_INFINITY;
      deps.set({});
    },
  };
}
