/// <reference lib="webworker" />
// Claim reminders (decisions §6): the server's Web Push carries a JSON PushPayload. If the player
// is looking at their miner right now (a focused, visible window at /miner that says the session is
// theirs), that page shows its own line and no system notification pops up. A click on a
// notification focuses an open window and moves it to the target inside the app, and opens a new
// window only when there is none to reuse.
import type { PushPayload } from '@shared/api/push';
import { NAVIGATE, PUSH_REMINDER, type ReminderReply } from '@shared/sw-messages';

declare const self: ServiceWorkerGlobalScope;

export const DEFAULT_URL = '/miner';
const ICON = '/icons/icon-192.png';
/** How long a page has to answer the worker before it is treated as not there (frozen, old code). */
export const PAGE_ANSWER_MS = 1500;

export interface ShownNotification {
  title: string;
  options: NotificationOptions & { data: { url: string } };
  payload: Partial<PushPayload>;
}

/** The part of a WindowClient these rules use (so unit tests can pass plain objects). */
export interface WindowLike {
  url: string;
  focused?: boolean;
  visibilityState?: DocumentVisibilityState;
  postMessage(message: unknown, transfer: Transferable[]): void;
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
    payload,
  };
}

const pathOf = (url: string, origin: string) => new URL(url, origin).pathname.replace(/\/+$/, '') || '/';

/** The open window to reuse for `path`: one already there, else any window (navigated), else none. */
export function pickClient<T extends { url: string; focused?: boolean }>(
  clients: readonly T[],
  path: string,
  origin: string,
): { client: T; navigate: boolean } | null {
  const target = pathOf(path, origin);
  const samePage = clients.find((c) => pathOf(c.url, origin) === target);
  if (samePage) return { client: samePage, navigate: false };
  const any = clients.find((c) => c.focused) ?? clients[0];
  return any ? { client: any, navigate: true } : null;
}

/** Windows where the player is looking at the miner now: focused and visible, at /miner. */
export function watchingMiner<T extends WindowLike>(clients: readonly T[], origin: string): T[] {
  return clients.filter(
    (c) => c.focused === true && c.visibilityState !== 'hidden' && pathOf(c.url, origin) === DEFAULT_URL,
  );
}

/** Posts `message` with a reply port; resolves with the answer, or null if none comes in time. */
export function ask<R>(client: WindowLike, message: object, withinMs = PAGE_ANSWER_MS): Promise<R | null> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(null);
    }, withinMs);
    channel.port1.onmessage = (event: MessageEvent) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(event.data as R);
    };
    try {
      client.postMessage(message, [channel.port2]);
    } catch {
      clearTimeout(timer);
      resolve(null);
    }
  });
}

export interface PushEnv {
  origin: string;
  windows(): Promise<readonly WindowLike[]>;
  showNotification(title: string, options: NotificationOptions): Promise<void>;
}

/** A push arrived: the page on the player's miner shows it itself, else a system notification. */
export async function deliverReminder(text: string | null, env: PushEnv): Promise<'page' | 'notification'> {
  const { title, options, payload } = notificationFor(text, env.origin);
  const watching = watchingMiner(await env.windows(), env.origin);
  const replies = await Promise.all(watching.map((c) => ask<ReminderReply>(c, { type: PUSH_REMINDER, payload })));
  if (replies.some((r) => r?.shown === true)) return 'page';
  await env.showNotification(title, options);
  return 'notification';
}

/** The part of a WindowClient the click rules use. */
export interface ClickWindow extends WindowLike {
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
}

export interface ClickEnv<W extends ClickWindow> {
  origin: string;
  windows(): Promise<readonly W[]>;
  openWindow(path: string): Promise<unknown>;
}

/**
 * A notification was clicked: focus an open window and bring it to `path` — by asking the page to
 * route there (no reload: nothing typed is lost, and it works for a window this worker does not
 * control), else by navigating the window — and open a new window only when neither is possible.
 */
export async function openFromNotification<W extends ClickWindow>(
  path: string,
  env: ClickEnv<W>,
): Promise<'focused' | 'navigated' | 'opened'> {
  const pick = pickClient(await env.windows(), path, env.origin);
  if (!pick) {
    await env.openWindow(path);
    return 'opened';
  }
  await pick.client.focus().catch(() => undefined); // focus needs the click's activation; go on without it
  if (!pick.navigate) return 'focused';
  const routed = await ask<{ ok?: boolean }>(pick.client, { type: NAVIGATE, path });
  if (routed?.ok) return 'navigated';
  const moved = await pick.client.navigate(new URL(path, env.origin).href).catch(() => null);
  if (moved) return 'navigated';
  await env.openWindow(path);
  return 'opened';
}

export function setUpPush(): void {
  const windows = () => self.clients.matchAll({ type: 'window', includeUncontrolled: true });

  self.addEventListener('push', (event) => {
    event.waitUntil(
      deliverReminder(event.data?.text() ?? null, {
        origin: self.location.origin,
        windows,
        showNotification: (title, options) => self.registration.showNotification(title, options),
      }),
    );
  });

  self.addEventListener('notificationclick', (event) => {
    event.notification.close();
    const path = safeAppPath((event.notification.data as { url?: unknown } | null)?.url, self.location.origin);
    event.waitUntil(
      openFromNotification(path, {
        origin: self.location.origin,
        windows,
        openWindow: (p) => self.clients.openWindow(p),
      }),
    );
  });
}
