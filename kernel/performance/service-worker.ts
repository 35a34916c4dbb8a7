// spec §7: GET /sw.js — the service worker is registered when the `enableCaching` performance setting
// is on (its default), and unregistered when the user turns it off. It keeps only content-hashed
// files (see public/sw.js), so a new release is never hidden behind an old cache; while it is on, the
// page tells it which files it used (keep-used-files.ts).
import { keepUsedFiles } from './keep-used-files';

export const SERVICE_WORKER_URL = '/sw.js';

type Container = Pick<ServiceWorkerContainer, 'register' | 'getRegistrations'>;

function container(): Container | null {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
}

let stopKeeping: (() => void) | null = null;

/** Registers or unregisters the panel's service worker to match `enabled`. */
export async function syncServiceWorker(enabled: boolean, sw: Container | null = container(), keep: () => () => void = keepUsedFiles): Promise<void> {
  if (!sw) return;
  if (enabled) {
    await sw.register(SERVICE_WORKER_URL, { scope: '/' });
    stopKeeping ??= keep();
    return;
  }
  stopKeeping?.();
  stopKeeping = null;
  const registrations = await sw.getRegistrations();
  await Promise.all(registrations.filter((r) => (r.active ?? r.waiting ?? r.installing)?.scriptURL.endsWith(SERVICE_WORKER_URL)).map((r) => r.unregister()));
}
