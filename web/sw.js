// sw.js: the page's service worker, so a second visit opens without the network. Registered by
// web/shared/offline.js after the first plot (never before: on a slow network the first visit's
// bandwidth belongs to the page); its scope is web/ (the folder it is served from).
//
// What it keeps, in one cache named attnlab-<VERSION>:
//   - the page, its code, its styles and the .wasm: PRECACHE at install (the production build,
//     scripts/build-web.mjs, fills the list and VERSION with its content hash), and whatever the
//     page posts it has already loaded ({ type: 'attnlab:cache', urls }: the first visit's
//     requests happened before this worker controlled the page);
//   - every same-origin GET answered 200 afterwards: the models (*.safetensors), their cards and
//     the views' modules, each once fetched.
// Network first: online, every request goes to the network as without this worker (a new page or
// model is never hidden behind a stale copy) and the answer is stored; offline, or when the
// server does not answer, the stored copy is served, else a network error, which the page reports
// as "needs the network" (i18n.js model.offline); an error status (404, 5xx) for a file it stored
// is answered with the copy too (a page of the previous release, still open, asking for a chunk
// the new release no longer has). Never stores an error, a redirect, a partial (206) or an opaque
// (cross-origin) answer. A new release (a new VERSION) installs beside the old one and waits until
// no page of the old one is open (no skipWaiting: those pages' lazy chunks come from the old
// cache); activating, it deletes every other attnlab-* cache, so releases replace each other
// instead of piling up. The development copy is VERSION 'dev' with an empty PRECACHE: it stores
// what the page loads.
// Bounded: the page's own files (PRECACHE, and any .js, .mjs, .css, .html or .wasm file, or page,
// fetched without a query: a set the server's folder bounds) are kept; everything else (models,
// their cards, any URL with a query) counts against MAX_OTHER = 64 entries, and past it the
// oldest stored is evicted (docs/reliability.md). A page that fetches 200 distinct URLs leaves
// at most 64 of them here, never 200.
// Deliberately handles nothing but same-origin GETs, and never answers from the cache first.

const VERSION = 'dev';
const PRECACHE = [];
const CACHE = `attnlab-${VERSION}`;

/** @type {any} */
const sw = self;
/** At most this many stored entries that are not the page's own files (see the header). */
const MAX_OTHER = 64;

/** One of the page's own files: precached, or code, a style or a page fetched without a query. */
function ownFile(/** @type {string} */ href) {
  const url = new URL(href);
  if (PRECACHE.some((u) => new URL(u, sw.location.href).href === url.href)) return true;
  return !url.search && /(\/|\.m?js|\.css|\.html|\.wasm)$/.test(url.pathname);
}

/** Store an answer, then evict the oldest stored entries that are not own files past MAX_OTHER. */
async function put(/** @type {string | Request} */ key, /** @type {Response} */ response) {
  const cache = await caches.open(CACHE);
  await cache.put(key, response);
  const others = (await cache.keys()).filter((r) => !ownFile(r.url));
  await Promise.all(others.slice(0, others.length - MAX_OTHER).map((r) => cache.delete(r)));
}

/** The cache key of a request: a page without its query (embed.html?model=… is one page). */
function keyOf(/** @type {Request} */ request) {
  if (request.mode !== 'navigate') return request;
  const url = new URL(request.url);
  url.search = '';
  return url.href;
}

/** A 200, same-origin, whole answer: the only kind stored. */
function storable(/** @type {Response} */ response) {
  return response.status === 200 && response.type === 'basic';
}

sw.addEventListener('install', (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE.map((u) => new URL(u, sw.location.href).href))),
  );
});

sw.addEventListener('activate', (/** @type {any} */ event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((n) => n.startsWith('attnlab-') && n !== CACHE).map((n) => caches.delete(n)),
        ),
      )
      .then(() => sw.clients.claim()),
  );
});

/** Store each same-origin URL not stored yet (fetched again; a static host's HTTP cache answers). */
async function store(/** @type {string[]} */ urls) {
  const cache = await caches.open(CACHE);
  await Promise.all(
    urls.map(async (href) => {
      const url = new URL(href, sw.location.href);
      if (url.origin !== sw.location.origin) return;
      url.hash = '';
      if (await cache.match(url.href)) return;
      try {
        const response = await fetch(url.href);
        if (storable(response)) await put(url.href, response);
      } catch {
        // offline again, or the file is gone: stored the next time it is fetched
      }
    }),
  );
}

sw.addEventListener('message', (/** @type {any} */ event) => {
  const data = event.data;
  if (!data || data.type !== 'attnlab:cache' || !Array.isArray(data.urls)) return;
  event.waitUntil(
    store(data.urls.filter((u) => typeof u === 'string')).then(() =>
      event.ports[0]?.postMessage({ type: 'attnlab:cached' }),
    ),
  );
});

sw.addEventListener('fetch', (/** @type {any} */ event) => {
  const request = /** @type {Request} */ (event.request);
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== sw.location.origin || request.headers.has('range'))
    return;
  event.respondWith(
    (async () => {
      let response;
      try {
        response = await fetch(request);
      } catch (err) {
        const stored = await caches.match(keyOf(request), { cacheName: CACHE });
        if (stored) return stored;
        throw err; // not stored: the network error the page would have had without this worker
      }
      if (storable(response)) {
        const copy = response.clone();
        event.waitUntil(put(keyOf(request), copy));
      } else if (response.status >= 400) {
        const stored = await caches.match(keyOf(request), { cacheName: CACHE });
        if (stored) return stored;
      }
      return response;
    })(),
  );
});
