// spec §7: GET /sw.js — the service worker is registered when the `enableCaching` performance setting
// is on (its default), and unregistered when the user turns it off. It caches only content-hashed
// files (see public/sw.js), so a new release is never hidden behind an old cache.
export const SERVICE_WORKER_URL = '/sw.js';

type Container = Pick<ServiceWorkerContainer, 'register' | 'getRegistrations'>;

function container(): Container | null {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator ? navigator.serviceWorker : null;
}

/** Registers or unregisters the panel's service worker to match `enabled`. */
export async function syncServiceWorker(enabled: boolean, sw: Container | null = container()): Promise<void> {
  if (!sw) return;
  if (enabled) {
    await sw.register(SERVICE_WORKER_URL, { scope: '/' });
    return;
  }
  const registrations = await sw.getRegistrations();
  await Promise.all(registrations.filter((r) => (r.active ?? r.waiting ?? r.installing)?.scriptURL.endsWith(SERVICE_WORKER_URL)).map((r) => r.unregister()));
}
