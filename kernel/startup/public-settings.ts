// spec §3: application settings are read from a locally cached copy; the kernel refreshes the copy from
// GET /api/system/settings (the public subset) at start-up, before routes and navigation are built
// from the flags. The server's copy usually arrives inside index.html (boot-data.ts): no request then.
// The cached copy is always read first, so a page whose refresh fails still has every value it had.
import { http } from '../../sdk/client/http';
import { settingsStore } from '../../sdk/client/stores/settings';
import type { PublicSettings } from '../../sdk/types';

export const SETTINGS_URL = '/api/system/settings';

/**
 * Reads the cached copy at once, then refreshes it with the server's; a failed fetch keeps the cached
 * copy (a corrupt one was dropped, spec §8). `inline`:
 * the server's copy index.html carried (kernel/startup/boot-data.ts), used instead of the request.
 */
export async function refreshPublicSettings(log: Pick<Console, 'warn'> = console, inline?: PublicSettings): Promise<void> {
  settingsStore.getState().hydrateFromCache();
  if (inline) {
    settingsStore.getState().setSettings(inline);
    return;
  }
  try {
    const settings = await http.get<PublicSettings>(SETTINGS_URL, { cache: 'no-store' });
    if (settings && typeof settings === 'object' && !Array.isArray(settings)) settingsStore.getState().setSettings(settings);
  } catch (error) {
    log.warn('Failed to load the application settings; using the cached copy', error);
  }
}
