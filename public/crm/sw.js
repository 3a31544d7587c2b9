/*
 * The CRM's service worker (issue 25, decision 029). Hand-written on purpose: read it top to
 * bottom. Registered by the CRM layout only (app/features/pwa/) with scope /crm (the server
 * sends Service-Worker-Allowed: /crm with this file), so the public site never meets it.
 *
 *   1. Names and limits
 *   2. Install / activate: the offline page; old versions' caches go
 *   3. Fetch: build assets (cache first), the CRM's pages (network first, saved per user),
 *      the client router's .data requests while offline
 *   4. Saved pages: stored under the signed-in user's key, served with a marker
 *   5. Web Push: `push` and `notificationclick` live in /crm-sw-push.js (decision 030)
 *
 * What is private never leaves this browser: pages are saved in a cache named after the user's
 * key (X-Offline-Key, a hash the CRM layout sends), a page saved for another key is deleted the
 * moment a new key shows up, and 'Sair' answers with Clear-Site-Data, which empties every cache.
 */

// ---- 1. Names and limits --------------------------------------------------------------------

// Bump to drop the previous version's offline page and assets on activation.
const VERSION = "v1";
const STATIC_CACHE = `crm-static-${VERSION}`;
const PAGES_PREFIX = "crm-pages-";
const OFFLINE_URL = "/crm/offline.html";
// The pages worth reading without network: the dashboard, the leads list, a lead.
const SAVED_PAGE = /^\/crm(\/leads(\/[0-9a-f-]{36})?)?$/i;
// Saved lead pages kept per user, the oldest dropped first.
const MAX_SAVED_PAGES = 60;
// A saved copy older than a session can last (SESSION_MAX_SECONDS, 7 days) is never shown.
const MAX_SAVED_AGE_MS = 7 * 24 * 60 * 60 * 1000;
const KEY_HEADER = "X-Offline-Key";
const SAVED_AT_HEADER = "X-Offline-Saved-At";

// ---- 2. Install / activate ------------------------------------------------------------------

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC_CACHE)
      .then((cache) => cache.add(new Request(OFFLINE_URL, { cache: "reload" })))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("crm-static-") && name !== STATIC_CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

// ---- 3. Fetch -------------------------------------------------------------------------------

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;

  if (request.mode === "navigate" && url.pathname.startsWith("/crm")) {
    event.respondWith(navigation(request, url));
  } else if (url.pathname.startsWith("/assets/")) {
    // Fingerprinted, public and immutable: whatever a saved page needs stays at hand.
    event.respondWith(cacheFirst(request));
  } else if (/^\/crm(\/.*)?\.data$/.test(url.pathname)) {
    event.respondWith(routerData(event, url));
  }
  // Anything else (events, photos, resources) goes to the network as if there were no worker.
});

async function cacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const hit = await cache.match(request, { ignoreVary: true });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

/** Network first; offline, the page as last seen by this user, or the offline page. */
async function navigation(request, url) {
  try {
    const response = await fetch(request);
    if (SAVED_PAGE.test(url.pathname)) await savePage(url, response);
    return response;
  } catch {
    return (await savedPage(url)) ?? (await caches.match(OFFLINE_URL)) ?? Response.error();
  }
}

/**
 * The client router fetches /crm/….data when a link is followed. Offline, it is told to load the
 * page as a document instead (the answer React Router gives for a redirect with reloadDocument),
 * which the navigation handler above answers from the saved copies. Not when the page asking is
 * that page already: a revalidation would reload it forever.
 */
async function routerData(event, url) {
  try {
    return await fetch(event.request);
  } catch {
    const page = url.pathname.replace(/\.data$/, "").replace(/\/_root$/, "") || "/crm";
    const client = event.clientId ? await self.clients.get(event.clientId) : null;
    if (client && new URL(client.url).pathname === page) return Response.error();
    return new Response(null, { status: 204, headers: { "X-Remix-Redirect": page, "X-Remix-Reload-Document": "true", "X-Remix-Status": "302" } });
  }
}

// ---- 4. Saved pages -------------------------------------------------------------------------

async function savePage(url, response) {
  const key = response.headers.get(KEY_HEADER);
  const type = response.headers.get("Content-Type") ?? "";
  if (response.status !== 200 || !key || !/^[0-9a-f]{16,64}$/.test(key) || !type.startsWith("text/html")) return;
  const name = PAGES_PREFIX + key;
  // Another user's pages go the moment this user is seen: one user's copies on a device at a time.
  const names = await caches.keys();
  await Promise.all(names.filter((other) => other.startsWith(PAGES_PREFIX) && other !== name).map((other) => caches.delete(other)));
  const headers = new Headers(response.headers);
  headers.set(SAVED_AT_HEADER, new Date().toISOString());
  // The body read here is already decoded: no encoding or length of the transfer goes with it.
  headers.delete("Content-Encoding");
  headers.delete("Content-Length");
  const copy = new Response(await response.clone().arrayBuffer(), { status: 200, headers });
  const cache = await caches.open(name);
  await cache.put(url.pathname, copy);
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_SAVED_PAGES))) await cache.delete(old);
}

/** The saved copy of this page, marked on <html> so the page shows the offline banner. */
async function savedPage(url) {
  if (!SAVED_PAGE.test(url.pathname)) return null;
  const names = (await caches.keys()).filter((name) => name.startsWith(PAGES_PREFIX));
  if (names.length !== 1) return null;
  const saved = await (await caches.open(names[0])).match(url.pathname, { ignoreVary: true });
  const savedAt = saved?.headers.get(SAVED_AT_HEADER);
  if (!saved || !savedAt || Date.now() - Date.parse(savedAt) > MAX_SAVED_AGE_MS) return null;
  const html = (await saved.text()).replace(/<html\b/i, `<html data-offline-saved-at="${savedAt}"`);
  return new Response(html, { status: 200, headers: saved.headers });
}

// ---- 5. Web Push ----------------------------------------------------------------------------

// The push alerts' handlers (issue 25, decision 030) in their own file, pulled in at the top
// level as importScripts requires; this worker adds no push listener of its own (each push
// would show twice). The browser re-checks the imported file with this one for updates.
importScripts("/crm-sw-push.js");
