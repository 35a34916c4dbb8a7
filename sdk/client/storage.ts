// Safe access to localStorage: it can be missing (node, tests), full, or blocked by privacy settings,
// and none of those may break the panel.

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function readStored(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: string): void {
  try {
    storage()?.setItem(key, value);
  } catch {
    // quota exceeded or storage blocked: the value simply is not remembered
  }
}

export function removeStored(key: string): void {
  try {
    storage()?.removeItem(key);
  } catch {
    // storage blocked: nothing to remove
  }
}

/** Local storage keys the panel uses (spec §3). */
export const STORAGE_KEYS = {
  locale: 'locale',
  uiSettings: 'ui-settings',
  pageTransition: 'page-transition',
  settings: 'settings',
  role: 'role',
  permissions: 'user_permissions',
} as const;
