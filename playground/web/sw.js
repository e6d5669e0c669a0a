// The playground's service worker: every file of the build is cached when it installs, and
// served from the cache first, so that the playground works offline once it has loaded. A new
// build (another VERSION) replaces the cache when the browser next loads the page; the page
// then runs the new files from the load after.
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = "gdl-playground-" + VERSION;

self.addEventListener("install", (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("gdl-playground-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (e) => {
  if (e.request.method !== "GET" || new URL(e.request.url).origin !== location.origin) return;
  e.respondWith(
    caches.open(CACHE).then(async (c) => (await c.match(e.request, { ignoreSearch: true })) ?? fetch(e.request)),
  );
});
