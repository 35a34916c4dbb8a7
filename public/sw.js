// The panel's service worker (spec §7: registered by the kernel when the enableCaching setting is on).
// It keeps the panel's content-hashed files (/assets/*, /plugins/*: they never change under the same
// name) in its own cache, so a return visit reads them from the device even after the browser's HTTP
// cache has let them go.
//
// The worker itself must never stand in front of a page load: starting it and passing every request
// through a fetch handler cost a return visit 25–35 ms (issue 15). Where the browser has static routes
// (InstallEvent.addRoutes), it reads the hashed files straight from this cache without starting the
// worker (a file not in it comes from the network), and navigations, the API and every other request go
// to the network as if there were no worker. The pages tell the worker which hashed files they used
// (a "keep" message, sent when the browser is idle) and it stores the ones it has not got. A file no
// page has named for 30 days (an earlier release's) is let go.
// A browser without static routes uses the fetch handler below instead: cache first, stored on the way.
const CACHE = 'orepanel-hashed-v1';
const HASHED = /^\/(assets|plugins)\/.+-[A-Za-z0-9_-]{6,}\.(js|css|json|svg|png|jpg|jpeg|webp|woff2?)$/;
/** A "keep" message names at most this many files; more is not a page of this panel. */
const KEEP_LIMIT = 500;
/** When each kept file was last named by a page (path → ms), under a name no page requests. */
const NAMED_INDEX = '/sw-named-index.json';
const UNUSED_FOR_MS = 30 * 24 * 60 * 60 * 1000;

function hashedPath(href) {
  let url;
  try {
    url = new URL(href, self.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== self.location.origin || url.search || url.hash || !HASHED.test(url.pathname)) return null;
  return url.pathname;
}

/** Stores the response when it is complete and successful (an integrity-checked script must get the same bytes); true if it did. */
async function store(cache, request, response) {
  if (!(response.ok && response.status === 200 && response.type === 'basic')) return false;
  await cache.put(request, response.clone());
  return true;
}

/** Static routes where the browser has them; a browser that refuses them keeps the fetch handler. */
async function addRoutes(event) {
  if (typeof event.addRoutes !== 'function') return;
  const hashed = { or: [{ urlPattern: { pathname: '/assets/*' } }, { urlPattern: { pathname: '/plugins/*' } }] };
  try {
    await event.addRoutes([
      { condition: hashed, source: { cacheName: CACHE } },
      { condition: { not: hashed }, source: 'network' },
    ]);
  } catch (error) {
    console.warn('Static routes refused; the fetch handler serves the cache instead', error);
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(addRoutes(event).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE && name.startsWith('orepanel-')) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

async function readIndex(cache) {
  const stored = await cache.match(NAMED_INDEX);
  const index = stored ? await stored.json().catch(() => null) : null;
  return index && typeof index === 'object' && !Array.isArray(index) ? index : {};
}

/** Stores the named files it has not got, notes that they were named, and lets go of the long unnamed. */
async function keep(paths, now) {
  const cache = await caches.open(CACHE);
  const named = new Set(paths);
  const stored = new Set((await cache.keys()).map((request) => new URL(request.url).pathname));
  for (const path of named) {
    if (stored.has(path)) continue;
    // one at a time and from the browser's HTTP cache where it can: the page has just loaded them
    const request = new Request(path, { credentials: 'same-origin', cache: 'force-cache' });
    const response = await fetch(request).catch(() => null);
    if (response && (await store(cache, path, response))) stored.add(path);
  }
  stored.delete(NAMED_INDEX);
  const index = await readIndex(cache);
  const next = {};
  for (const path of stored) {
    // a file stored before the index knew it starts its 30 days now
    const namedAt = named.has(path) ? now : typeof index[path] === 'number' ? index[path] : now;
    if (now - namedAt > UNUSED_FOR_MS) await cache.delete(path);
    else next[path] = namedAt;
  }
  await cache.put(NAMED_INDEX, new Response(JSON.stringify(next), { headers: { 'content-type': 'application/json' } }));
}

self.addEventListener('message', (event) => {
  const data = event.data;
  if (data?.type !== 'keep' || !Array.isArray(data.urls) || data.urls.length > KEEP_LIMIT) return;
  const paths = [...new Set(data.urls.map((href) => (typeof href === 'string' ? hashedPath(href) : null)).filter((path) => path !== null))];
  event.waitUntil(keep(paths, Date.now()));
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || !hashedPath(request.url)) return;
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const cached = await cache.match(request);
      if (cached) return cached;
      const response = await fetch(request);
      await store(cache, request, response);
      return response;
    })(),
  );
});
