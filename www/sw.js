// cctv's service worker: after the first visit the site works offline and can be installed.
// It keeps the site's own files and nothing else: transcripts are read from the reader's disk,
// never fetched, so no transcript can reach this cache. www/boot.js registers it on the site
// only (the npm package and a shared HTML file do not).
//
// The page is served from the cache at once, and the site is fetched again in the background:
// when a new version was deployed, its files are cached, the old ones let go, and the open pages
// are told (they say a reload will use it; nothing open is reloaded for the reader).

const SCOPE = new URL(self.registration.scope);
const INDEX = SCOPE.href;
/** One cache per copy of the site on an origin (/cctv/ and /cctv-next/ keep their own). */
const CACHE = `cctv-site:${SCOPE.pathname}`;
/** The files every version has under the same name; the others are named in index.html. */
const FIXED = ["boot.js", "worker.js", "grammars.packdump", "manifest.webmanifest", "icons/icon-192.png", "icons/icon-512.png"];

self.addEventListener("install", (event) => {
  event.waitUntil(refresh().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  const page = request.mode === "navigate" && (url.pathname === SCOPE.pathname || url.pathname === `${SCOPE.pathname}index.html`);
  event.respondWith(answer(page ? INDEX : request, event, page));
});

/** From the cache if the site's file is there, else from the network. A visit to the page also
 *  looks for a new version, without keeping the page waiting. */
async function answer(request, event, page) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request, { ignoreSearch: true });
  if (page) event.waitUntil(refresh().then((updated) => updated && tell()).catch(() => {}));
  return cached ?? fetch(request);
}

/** Fetches index.html and what it names, and keeps exactly the current version's files; the
 *  files with fixed names are asked again each time (a conditional request, cheap when they did
 *  not change). Resolves to whether a version other than the cached one was found. */
async function refresh() {
  const cache = await caches.open(CACHE);
  const response = await fetch(INDEX, { cache: "no-cache" });
  // A redirected response cannot answer a navigation: nothing is kept from it.
  if (!response.ok || response.redirected) throw new Error(`index.html: ${response.status}`);
  const html = await response.clone().text();
  const before = await cache.match(INDEX);
  const updated = before !== undefined && (await before.text()) !== html;
  // Trunk names the page's script, wasm and styles by their hash: index.html says which.
  const named = [
    ...new Set(
      [...html.matchAll(/(?:src|href|data-cctv-js|data-cctv-wasm)="([^"]+)"/g)]
        .map((m) => new URL(m[1], INDEX))
        .filter((u) => u.origin === SCOPE.origin && u.pathname.startsWith(SCOPE.pathname))
        .map((u) => u.href),
    ),
  ];
  // What index.html names is the page itself; the fixed files are kept when the host serves them
  // (a host without worker.js still gets an offline page, which reads sessions itself).
  if (before === undefined || updated) await cache.addAll(named.map((f) => new Request(f, { cache: "no-cache" })));
  const fixed = FIXED.map((f) => new URL(f, INDEX).href);
  await Promise.all(fixed.map((f) => cache.add(new Request(f, { cache: "no-cache" })).catch(() => {})));
  await cache.put(INDEX, response);
  const keep = new Set([INDEX, ...named, ...fixed]);
  for (const request of await cache.keys()) {
    if (!keep.has(request.url)) await cache.delete(request);
  }
  return updated;
}

async function tell() {
  for (const client of await self.clients.matchAll({ type: "window" })) client.postMessage("cctv-updated");
}
