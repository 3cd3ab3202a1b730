// offline.js: the page's side of working offline (web/sw.js is the other): registering the
// service worker after the first plot, handing it what the page already loaded, and telling which
// models are saved on this device, so the picker can mark the others as needing the network.
//
//   import { registerOffline, savedUrls } from './offline.js';
//   registerOffline(new URL('./sw.js', import.meta.url));   // main.js, once its first view is drawn
//   const saved = await savedUrls([url, …]);        // Set of those stored, or null (no Cache API)
//
// Registers only where a service worker can run (http(s), a secure context, not an opaque-origin
// frame) and says nothing when it cannot: the page works the same without it, online. Deliberately
// knows no view and no string; <attn-demo> decides what to show (i18n.js model.needsNetwork).

/**
 * Register the service worker at url (web/sw.js, the demo page's; the elements of the npm package
 * never register one: that is the host page's choice), scope its folder, and, once it is active, post it every same-origin URL
 * this page has loaded so far (they were fetched before it controlled the page). Resolves to the
 * registration, or null where there can be none; never rejects.
 */
export async function registerOffline(url) {
  try {
    if (!('serviceWorker' in navigator) || !isSecureContext || !/^https?:$/.test(location.protocol))
      return null;
    const registration = await navigator.serviceWorker.register(url, {
      scope: new URL('./', url).href,
    });
    const ready = await navigator.serviceWorker.ready;
    const page = new URL(location.href);
    page.hash = '';
    const urls = [page.href, ...performance.getEntriesByType('resource').map((e) => e.name)].filter(
      (u) => new URL(u).origin === location.origin,
    );
    await new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = resolve;
      ready.active?.postMessage({ type: 'attnlab:cache', urls }, [channel.port2]);
      setTimeout(resolve, 30_000); // a worker that never answers must not hold anything up
    });
    document.documentElement.dataset.offlineReady = 'true'; // for tests: the first visit is stored
    return registration;
  } catch {
    return null; // no service worker here (blocked, an opaque origin, a private window): online only
  }
}

/** Which of urls the service worker has stored (any attnlab-* cache), or null when this page
 * cannot look (no Cache API, an opaque origin). */
export async function savedUrls(urls) {
  try {
    if (typeof caches === 'undefined') return null;
    const found = await Promise.all(urls.map((u) => caches.match(u)));
    return new Set(urls.filter((u, i) => found[i]));
  } catch {
    return null;
  }
}

/** Whether the browser says it is offline (navigator.onLine is false). */
export function isOffline() {
  return typeof navigator !== 'undefined' && navigator.onLine === false;
}
