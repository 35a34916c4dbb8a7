// The panel's service worker (spec §7: registered by the kernel when the enableCaching setting is on).
// Content-hashed files (/assets/*, /plugins/*) never change under the same name, so they are served
// cache-first; everything else — index.html, the API, the catalogues' map — always goes to the network,
// so a new release shows at the next load.
const CACHE = 'orepanel-hashed-v1';
const HASHED = /^\/(assets|plugins)\/.+-[A-Za-z0-9_-]{6,}\.(js|css|json|svg|png|jpg|jpeg|webp|woff2?)$/;

self.addEventListener('install', (event) => {
  event.waitUntil(self.skipWaiting());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE && name.startsWith('orepanel-')) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !HASHED.test(url.pathname)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const cached = await cache.match(request);
      if (cached) return cached;
      const response = await fetch(request);
      // only complete, successful answers are kept (an integrity-checked script must get the same bytes)
      if (response.ok && response.status === 200 && response.type === 'basic') await cache.put(request, response.clone());
      return response;
    })(),
  );
});
