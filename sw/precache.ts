/// <reference lib="webworker" />
// The app shell (index.html, every JS/CSS chunk so lazy pages open offline), the translation files
// and the icons, listed by the build in self.__WB_MANIFEST. Navigations are answered with the cached
// index.html so any client route opens offline — except /api/, which must always reach the server —
// and /blog with the cached blog.html (its list prerendered by the build), where the build has one.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

/** Navigations that never get the shell: the API (incl. its docs pages). */
export const NAVIGATION_DENYLIST = [/^\/api(\/|$)/];

export function setUpPrecache(): void {
  const manifest = self.__WB_MANIFEST;
  precacheAndRoute(manifest);
  cleanupOutdatedCaches();
  // First: the first route that matches answers.
  if (manifest.some((entry) => (typeof entry === 'string' ? entry : entry.url) === 'blog.html'))
    registerRoute(new NavigationRoute(createHandlerBoundToURL('/blog.html'), { allowlist: [/^\/blog\/?$/] }));
  registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }));
}
