/// <reference lib="webworker" />
// The app shell (index.html, every JS/CSS chunk so lazy pages open offline), the translation files
// and the icons, listed by the build in self.__WB_MANIFEST. Navigations are answered with the cached
// index.html so any client route opens offline — except /api/, which must always reach the server.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

/** Navigations that never get the shell: the API (incl. its docs pages). */
export const NAVIGATION_DENYLIST = [/^\/api(\/|$)/];

export function setUpPrecache(): void {
  precacheAndRoute(self.__WB_MANIFEST);
  cleanupOutdatedCaches();
  registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NAVIGATION_DENYLIST }));
}
