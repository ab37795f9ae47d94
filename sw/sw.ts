/// <reference lib="webworker" />
// The service worker (vite-plugin-pwa injectManifest builds this file to /sw.js). Each concern is
// its own file; the order matters only for routing: precached files first, then runtime caches.
import { setUpPrecache } from './precache';
import { setUpPush } from './push';
import { setUpRuntimeCaches } from './runtime-caches';
import { setUpSync } from './sync';
import { listenForSkipWaiting } from './update';

declare const self: ServiceWorkerGlobalScope;

setUpPrecache();
setUpRuntimeCaches();
setUpPush();
setUpSync();
listenForSkipWaiting();

// The first install takes the open page at once so it works offline without a reload; later
// versions wait for the player's Reload (update.ts) and only then claim.
self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});
