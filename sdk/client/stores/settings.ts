// Public application settings (spec §3: read from a locally cached copy, refreshed from
// GET /api/system/settings by the kernel at start-up).
import { create } from 'zustand';
import type { PublicSettings, SettingsDebugInfo } from '../../types';
import { kernelEvents } from '../events';
import { readStored, removeStored, STORAGE_KEYS, writeStored } from '../storage';

export type SettingValue = PublicSettings[string];

export interface SettingsState {
  settings: PublicSettings;
  /** spec §3 Debug info: the `debug` object of the settings call, null when it has none */
  debug: SettingsDebugInfo | null;
  /** true once the server's copy arrived (the cached copy alone does not count) */
  loaded: boolean;
  /**
   * Reads the cached copy (local storage key `settings`); false when there is none. spec §8: an
   * invalid copy logs 'Failed to parse settings' and is removed, for the server's copy to replace it.
   */
  hydrateFromCache(): boolean;
  /** Applies the server's public settings (flat values and the `debug` object) and caches them. */
  setSettings(settings: Readonly<Record<string, unknown>>): void;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function onlyScalars(value: Record<string, unknown>): PublicSettings {
  const out: PublicSettings = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[key] = v;
  }
  return out;
}

/** The `debug` object when it has the spec §3 shape, else null. */
function debugInfoFrom(value: unknown): SettingsDebugInfo | null {
  if (!isPlainObject(value) || typeof value.useRedis !== 'boolean' || !isPlainObject(value.rateLimit)) return null;
  const { enabled, limit } = value.rateLimit;
  if (typeof enabled !== 'boolean' || typeof limit !== 'number' || !Number.isFinite(limit)) return null;
  return { useRedis: value.useRedis, rateLimit: { enabled, limit } };
}

export const settingsStore = create<SettingsState>()((set) => ({
  settings: {},
  debug: null,
  loaded: false,
  hydrateFromCache() {
    const raw = readStored(STORAGE_KEYS.settings);
    if (raw === null) return false;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!isPlainObject(parsed)) throw new TypeError('cached settings are not an object');
      set({ settings: onlyScalars(parsed), debug: debugInfoFrom(parsed.debug) });
      return true;
    } catch (error) {
      console.error('Failed to parse settings', error);
      removeStored(STORAGE_KEYS.settings);
      return false;
    }
  },
  setSettings(settings) {
    const clean = onlyScalars(settings);
    const debug = debugInfoFrom(settings.debug);
    writeStored(STORAGE_KEYS.settings, JSON.stringify(debug ? { ...clean, debug } : clean));
    set({ settings: clean, debug, loaded: true });
    kernelEvents.emit('settings:changed', { settings: clean });
  },
}));

/**
 * spec §3: the copy is shared by the panel's tabs — when another tab refreshes it, this one reads it
 * too (a `storage` event fires only in the other tabs). Returns the unsubscribe.
 */
export function followCachedSettings(win: Pick<Window, 'addEventListener' | 'removeEventListener'> = window): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.settings && event.newValue !== null) settingsStore.getState().hydrateFromCache();
  };
  win.addEventListener('storage', onStorage);
  return () => win.removeEventListener('storage', onStorage);
}

/**
 * Is a feature flag on? Settings arrive as booleans, numbers or text ("true", "1") depending on the
 * database; a route or slot with `flag` exists only while this is true.
 */
export function isSettingEnabled(value: SettingValue | undefined): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
  return false;
}

/** All public settings, re-rendering when they change. */
export function useSettings(): PublicSettings {
  return settingsStore((s) => s.settings);
}

/** spec §3 Debug info: whether Redis is in use and the app-wide rate limit (null until the settings say). */
export function useSettingsDebugInfo(): SettingsDebugInfo | null {
  return settingsStore((s) => s.debug);
}

/**
 * One public setting, or `fallback` while it is unknown.
 * @example const appName = useSetting('app_name', 'Orepanel');
 */
export function useSetting<T extends SettingValue = SettingValue>(key: string, fallback?: T): SettingValue | T | undefined {
  return settingsStore((s) => (key in s.settings ? s.settings[key] : fallback));
}
