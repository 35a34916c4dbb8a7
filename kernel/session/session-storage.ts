// spec §3: every non-null entry of user_info, billing and stats is stored in local storage under its
// own key (so `role` is a stored key, a number as text); the permissions are cached as JSON under
// user_permissions and shown before the first session fetch answers (spec §4).
import type { SessionResponse } from '../../sdk/types';

export const PERMISSIONS_KEY = 'user_permissions';
export const ROLE_KEY = 'role';

/**
 * The entries the core's session answer holds (the team contract), so that a logout can remove them
 * even before this page fetched a session; the `stats` counters plugins declare (plugin.json `stats`)
 * come from their manifests.
 */
export const KNOWN_SESSION_KEYS: readonly string[] = [
  'uuid',
  'username',
  'email',
  'first_name',
  'last_name',
  'avatar',
  'background',
  'role',
  'role_name',
  'verified',
  'two_fa_enabled',
  'created_at',
  'coins',
  'ram',
  'disk',
  'cpu',
  'ports',
  'databases',
  'backups',
  'server_slots',
  'minutes_afk',
];

type Group = SessionResponse['user_info'];

/** The local storage a session writes to (window.localStorage in the browser). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'clear'>;

function safely(action: () => void): void {
  try {
    action();
  } catch {
    // storage full or blocked: the value is simply not cached
  }
}

/**
 * Writes a successful session answer. Returns the keys written, so they can be removed at logout.
 * A null entry removes an older stored value instead of leaving it stale.
 */
export function storeSession(storage: KeyValueStorage, response: SessionResponse): string[] {
  const keys: string[] = [];
  const groups: Group[] = [response.user_info, response.billing, response.stats];
  for (const group of groups) {
    if (!group) continue;
    for (const [key, value] of Object.entries(group)) {
      keys.push(key);
      if (value === null || value === undefined) safely(() => storage.removeItem(key));
      else safely(() => storage.setItem(key, String(value)));
    }
  }
  safely(() => storage.setItem(PERMISSIONS_KEY, JSON.stringify(response.permissions ?? [])));
  keys.push(PERMISSIONS_KEY);
  return keys;
}

/** spec §4: the cached permissions, [] when none or unreadable. */
export function readCachedPermissions(storage: KeyValueStorage): string[] {
  let raw: string | null = null;
  try {
    raw = storage.getItem(PERMISSIONS_KEY);
  } catch {
    return [];
  }
  if (raw === null) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/** The stored role number, null when none is stored or it is not a number. */
export function readStoredRole(storage: Pick<KeyValueStorage, 'getItem'>): number | null {
  let raw: string | null = null;
  try {
    raw = storage.getItem(ROLE_KEY);
  } catch {
    return null;
  }
  if (raw === null || !/^\s*\d+\s*$/.test(raw)) return null;
  return Number(raw);
}

/**
 * Removes what a session stored (logout keeps the language and interface settings): the keys this
 * page stored, the core's, and `pluginKeys` (the stats the installed plugins declare).
 */
export function forgetSession(storage: KeyValueStorage, keys: Iterable<string>, pluginKeys: Iterable<string> = []): void {
  for (const key of new Set([...KNOWN_SESSION_KEYS, PERMISSIONS_KEY, ...pluginKeys, ...keys])) safely(() => storage.removeItem(key));
}

/**
 * The window's local storage behind a facade that never throws: reading `localStorage` itself throws
 * when the browser blocks storage, and the panel must still start (without caching anything).
 */
export function browserStorage(win: Pick<Window, 'localStorage'>): KeyValueStorage {
  const local = (): Storage | null => {
    try {
      return win.localStorage;
    } catch {
      return null;
    }
  };
  const attempt = <T>(action: (s: Storage) => T, fallback: T): T => {
    try {
      const s = local();
      return s ? action(s) : fallback;
    } catch {
      return fallback;
    }
  };
  return {
    getItem: (key) => attempt((s) => s.getItem(key), null),
    setItem: (key, value) => attempt((s) => s.setItem(key, value), undefined),
    removeItem: (key) => attempt((s) => s.removeItem(key), undefined),
    clear: () => attempt((s) => s.clear(), undefined),
  };
}
