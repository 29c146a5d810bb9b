// The service worker: it keeps the page's own files (PAGE_FILES) in the browser's cache, so the
// table opens at once, even before the server answers; each file served from the cache is
// fetched again behind it, so the next opening has what the server has now. It answers
// nothing else: the game's API (/api/...) and any address with a query (the token's
// /?token=...) go to the server as if it were not there, and are never kept.

const CACHE = "castle-page";
// Every file of the page (tests/serve/test_app.py checks the list against the page's folder).
const PAGE_FILES = [
  "/",
  "/api.js",
  "/cards.js",
  "/drag.js",
  "/icon-192.png",
  "/icon-512.png",
  "/icon-maskable-512.png",
  "/icon.svg",
  "/main.js",
  "/manifest.webmanifest",
  "/sound.js",
  "/style.css",
  "/table.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) => cache.addAll(PAGE_FILES)).then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

/** The page's file ``request`` asks for, as a key of PAGE_FILES (null: not one of them). */
function pageFile(request) {
  if (request.method !== "GET") return null;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.search) return null;
  const path = url.pathname === "/index.html" ? "/" : url.pathname;
  return PAGE_FILES.includes(path) ? path : null;
}

/** The file from the server, kept when it is a good answer. */
async function fetched(path) {
  const response = await fetch(path, { cache: "no-store" });
  if (response.ok) {
    const cache = await caches.open(CACHE);
    await cache.put(path, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const path = pageFile(event.request);
  if (path === null) return; // the server answers
  const fresh = fetched(path);
  event.waitUntil(fresh.catch(() => {}));
  event.respondWith(
    caches.match(path).then((kept) => kept || fresh),
  );
});
