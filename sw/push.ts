/// <reference lib="webworker" />
// Claim reminders (decisions §6): the server's Web Push carries a JSON PushPayload; the worker shows
// it, and a click brings the player to the miner — an open tab if there is one, else a new window.
import type { PushPayload } from '@shared/api/push';

declare const self: ServiceWorkerGlobalScope;

export const DEFAULT_URL = '/miner';
const ICON = '/icons/icon-192.png';

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { data: { url: string } };
}

/** Same-origin app path to open; anything else (or nothing) opens the miner. */
export function safeAppPath(url: unknown, origin: string): string {
  if (typeof url !== 'string' || url === '') return DEFAULT_URL;
  try {
    const parsed = new URL(url, origin);
    return parsed.origin === origin ? parsed.pathname + parsed.search + parsed.hash : DEFAULT_URL;
  } catch {
    return DEFAULT_URL;
  }
}

/** The notification for a push body; a body that is not the expected JSON still shows a reminder. */
export function notificationFor(text: string | null, origin: string): ShownNotification {
  let payload: Partial<PushPayload> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object') payload = parsed as Partial<PushPayload>;
  } catch {
    /* not JSON: the default reminder below */
  }
  const title = typeof payload.title === 'string' && payload.title ? payload.title : 'PXT Companion';
  const body = typeof payload.body === 'string' ? payload.body : '';
  const tag = typeof payload.tag === 'string' && payload.tag ? payload.tag : 'pxt-reminder';
  return {
    title,
    options: { body, tag, icon: ICON, badge: ICON, data: { url: safeAppPath(payload.url, origin) } },
  };
}

/** The open window to reuse for `path`: one already there, else any window (navigated), else none. */
export function pickClient<T extends { url: string; focused?: boolean }>(clients: readonly T[], path: string, origin: string): { client: T; navigate: boolean } | null {
  const target = new URL(path, origin).pathname.replace(/\/+$/, '') || '/';
  const samePage = clients.find((c) => (new URL(c.url).pathname.replace(/\/+$/, '') || '/') === target);
  if (samePage) return { client: samePage, navigate: false };
  const any = clients.find((c) => c.focused) ?? clients[0];
  return any ? { client: any, navigate: true } : null;
}

export function setUpPush(): void {
  self.addEventListener('push', (event) => {
    const { title, options } = notificationFor(event.data?.text() ?? null, self.location.origin);
    event.waitUntil(self.registration.showNotification(title, options));
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = safeAppPath((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
    event.waitUntil(
      (async () => {
        const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const pick = pickClient(windows, path, self.location.origin);
        if (!pick) {
          await self.clients.openWindow(path);
          return;
        }
        const focused = await pick.client.focus();
        if (pick.navigate) {
          // navigate() works only for windows this worker controls; otherwise open a new one.
          const moved = await focused.navigate(path).catch(() => null);
          if (!moved) await self.clients.openWindow(path);
        }
      })(),
    );
  });
}
