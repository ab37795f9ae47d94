/// <reference lib="webworker" />
// Updates wait until the player agrees: the page posts SKIP_WAITING from its "Reload" prompt, so a
// half-typed form is never lost to a surprise reload.
import { SKIP_WAITING } from '@shared/sw-messages';

declare const self: ServiceWorkerGlobalScope;

export function listenForSkipWaiting(): void {
  self.addEventListener('message', (event) => {
    if ((event.data as { type?: string } | null)?.type === SKIP_WAITING) void self.skipWaiting();
  });
}
