// Claim reminders (decisions §6) from the browser's side: ask permission, subscribe with the
// server's VAPID key, hand the subscription to the server; and the reverse. The server drops
// subscriptions the push service reports gone, so a browser-side unsubscribe is never harmful.
import type {
  PushPublicKey,
  PushSubscribeResponse,
  PushSubscriptionJson,
  PushUnsubscribeResponse,
} from '@shared/api/push';
import { api } from '@/lib/api-client';
import { base64UrlToBytes, sameBytes } from './base64url';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null;
  return (await navigator.serviceWorker.getRegistration('/')) ?? null;
}

export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return reg ? reg.pushManager.getSubscription() : null;
}

const toJson = (sub: PushSubscription) => sub.toJSON() as PushSubscriptionJson;

export type EnableResult = 'subscribed' | 'denied' | 'dismissed' | 'unsupported';

/** Asks permission (if not granted yet), subscribes this browser and registers it with the server. */
export async function enablePush(): Promise<EnableResult> {
  const reg = await registration();
  if (!reg) return 'unsupported';
  const permission = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
  if (permission === 'denied') return 'denied';
  if (permission !== 'granted') return 'dismissed';
  const { public_key } = await api<PushPublicKey>('push/public-key/', { skipAuth: true });
  const key = base64UrlToBytes(public_key);
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with another server key (keys rotated) cannot receive our pushes.
  if (sub && !sameBytes(sub.options.applicationServerKey, key)) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  await api<PushSubscribeResponse>('push/subscribe/', { method: 'POST', body: toJson(sub) });
  return 'subscribed';
}

/** Stops reminders on both sides. The server part is best effort (offline, it drops the gone endpoint later). */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  try {
    await api<PushUnsubscribeResponse>('push/unsubscribe/', { method: 'POST', body: { endpoint: sub.endpoint } });
  } catch (err) {
    console.warn(
      'The server did not hear the unsubscribe; it drops the endpoint once the push service says it is gone',
      err,
    );
  }
  await sub.unsubscribe();
}

/** At start (signed in, permission granted): re-post the subscription so the server has the current one. */
export async function resyncPush(): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const sub = await currentSubscription();
  if (sub) await api<PushSubscribeResponse>('push/subscribe/', { method: 'POST', body: toJson(sub) });
}

/** After sign-out the server still links this browser to the old player: end the subscription here. */
export async function dropBrowserSubscription(): Promise<void> {
  const sub = await currentSubscription();
  await sub?.unsubscribe();
}
