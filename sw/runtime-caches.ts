/// <reference lib="webworker" />
// Caches filled while the app is used: the blog (list and articles) stale-while-revalidate, so an
// article read once opens offline and a fresh copy replaces it in the background; images
// cache-first. Both expire, so the caches cannot grow without end. (Under injectManifest the
// plugin's `runtimeCaching` option is ignored: the routes are written here.)
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, StaleWhileRevalidate } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope;

/** Bump a name to drop its old entries on the next activation. */
export const RUNTIME_CACHES = { blog: 'pxt-blog-v1', images: 'pxt-images-v1' } as const;
const DAY = 24 * 60 * 60;

export const isBlogApi = (url: URL, origin: string) =>
  url.origin === origin && /^\/api\/v1\/blog(\/|$)/.test(url.pathname);

export function setUpRuntimeCaches(): void {
  registerRoute(
    ({ url, request }) => request.method === 'GET' && isBlogApi(url, self.location.origin),
    new StaleWhileRevalidate({
      cacheName: RUNTIME_CACHES.blog,
      plugins: [new ExpirationPlugin({ maxEntries: 80, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true })],
    }),
  );
  registerRoute(
    ({ request }) => request.destination === 'image',
    new CacheFirst({
      cacheName: RUNTIME_CACHES.images,
      plugins: [new ExpirationPlugin({ maxEntries: 150, maxAgeSeconds: 30 * DAY, purgeOnQuotaError: true })],
    }),
  );

  // Runtime caches of this app under an older name are dropped once this worker takes over.
  self.addEventListener('activate', (event) => {
    const keep = new Set<string>(Object.values(RUNTIME_CACHES));
    event.waitUntil(
      caches
        .keys()
        .then((names) =>
          Promise.all(names.filter((n) => n.startsWith('pxt-') && !keep.has(n)).map((n) => caches.delete(n))),
        ),
    );
  });
}
