/// <reference lib="webworker" />
// The app shell (index.html, every JS/CSS chunk so lazy pages open offline), the translation files
// and the icons, listed by the build in self.__WB_MANIFEST. Navigations are answered from the cache so
// any client route opens offline — except /api/, which must always reach the server: / with
// index.html (the prerendered landing), /blog with blog.html (its list prerendered) and every other
// path with app.html (the shell without a page), as the server answers them (plugins/static-app.ts);
// a build without the last two answers everything with index.html.
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
  const built = (file: string) => manifest.some((entry) => (typeof entry === 'string' ? entry : entry.url) === file);
  if (built('blog.html'))
    registerRoute(new NavigationRoute(createHandlerBoundToURL('/blog.html'), { allowlist: [/^\/blog\/?$/] }));
  const shell = built('app.html') ? '/app.html' : '/index.html';
  // The allowlist sees the path and the query: `/?refCode=…` is the landing too.
  if (shell !== '/index.html')
    registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { allowlist: [/^\/(\?.*)?$/] }));
  registerRoute(new NavigationRoute(createHandlerBoundToURL(shell), { denylist: NAVIGATION_DENYLIST }));
}
