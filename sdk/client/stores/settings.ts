// Public application settings (spec §3: read from a locally cached copy, refreshed from
// GET /api/system/settings by the kernel at start-up).
import { create } from 'zustand';
import type { PublicSettings } from '../../types';
import { kernelEvents } from '../events';
import { readStored, STORAGE_KEYS, writeStored } from '../storage';

export type SettingValue = PublicSettings[string];

export interface SettingsState {
  settings: PublicSettings;
  /** true once the server's copy arrived (the cached copy alone does not count) */
  loaded: boolean;
  /** Reads the cached copy (local storage key `settings`). spec §8: invalid → 'Failed to parse settings'. */
  hydrateFromCache(): void;
  /** Applies the server's public settings and caches them. */
  setSettings(settings: PublicSettings): void;
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

export const settingsStore = create<SettingsState>()((set) => ({
  settings: {},
  loaded: false,
  hydrateFromCache() {
    const raw = readStored(STORAGE_KEYS.settings);
    if (raw === null) return;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!isPlainObject(parsed)) throw new TypeError('cached settings are not an object');
      set({ settings: onlyScalars(parsed) });
    } catch (error) {
      console.error('Failed to parse settings', error);
    }
  },
  setSettings(settings) {
    const clean = onlyScalars(settings);
    writeStored(STORAGE_KEYS.settings, JSON.stringify(clean));
    set({ settings: clean, loaded: true });
    kernelEvents.emit('settings:changed', { settings: clean });
  },
}));

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

/**
 * One public setting, or `fallback` while it is unknown.
 * @example const appName = useSetting('app_name', 'Orepanel');
 */
export function useSetting<T extends SettingValue = SettingValue>(key: string, fallback?: T): SettingValue | T | undefined {
  return settingsStore((s) => (key in s.settings ? s.settings[key] : fallback));
}
