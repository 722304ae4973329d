// Kozyr's service worker: it keeps this build's app shell (the page, its CSS, modules,
// translations and icons) so the app opens offline, and shows pushes as notifications.
// The server writes the build's id and its files' versioned addresses into BUILD and SHELL
// when it starts (app/static.py); a new build is a new worker, which waits until the page
// asks it to take over (the page's "new version: reload", js/pwa.js).
const BUILD = '__KOZYR_BUILD__';
const SHELL = '__KOZYR_SHELL__';
const CACHE = `kozyr-${BUILD}`;
const PAGE = '/';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([PAGE, ...SHELL])));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'take-over') self.skipWaiting();
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/v/')) {
    // a versioned file never changes: the kept copy, else the network
    event.respondWith(caches.match(request, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
  } else if (request.mode === 'navigate') {
    // a page: the network (a deploy is seen at once), else the kept page, which routes by its address
    event.respondWith(fetch(request).catch(() => caches.match(PAGE, { cacheName: CACHE })));
  }
});

// A push: {title, body, url, tag} (README "Install and offline"); never a card of any hand.
self.addEventListener('push', (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = { body: event.data.text() }; }
  event.waitUntil(self.registration.showNotification(data.title || 'Kozyr', {
    body: data.body || '', tag: data.tag || undefined, icon: '/icons/icon-192.png',
    data: { url: data.url || '/' },
  }));
});

// A click on a notification: the window already on that page, else an open window of
// Kozyr taken there, else a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin);
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
    const open = windows.find((w) => new URL(w.url).pathname === target.pathname
      && new URL(w.url).hash === target.hash && 'focus' in w);
    if (open) return open.focus();
    const other = windows.find((w) => 'navigate' in w && w.url.startsWith(self.location.origin));
    if (other) {
      const moved = await other.navigate(target.href).catch(() => null);
      if (moved) return moved.focus().catch(() => moved);
    }
    return self.clients.openWindow(target.href);
  })());
});
