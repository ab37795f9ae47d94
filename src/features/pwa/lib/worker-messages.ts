// The page's side of the worker's reminder and navigation messages (sw/push.ts). The worker asks a
// page that shows the miner whether it takes a claim reminder itself (then no system notification),
// and asks a window picked by a notification click to route to a path without reloading.
import { NAVIGATE, PUSH_REMINDER, type ReminderReply } from '@shared/sw-messages';

export interface ReminderFacts {
  path: string;
  visible: boolean;
  focused: boolean;
  /** The reminder's session is one of this browser's signed-in player's sessions (Dexie). */
  ownSession: boolean;
}

/** The page shows the reminder itself only while the player looks at their own miner. */
export function takesReminder(facts: ReminderFacts): boolean {
  const path = facts.path.replace(/\/+$/, '') || '/';
  return path === '/miner' && facts.visible && facts.focused && facts.ownSession;
}

type Handler<T> = (data: T) => Promise<boolean> | boolean;

/** Listens for worker messages of `type`; answers on the message's port. Returns the unsubscribe. */
function onWorkerMessage<T>(type: string, handle: Handler<T>, reply: (ok: boolean) => unknown): () => void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return () => undefined;
  const listener = (event: MessageEvent) => {
    const data = event.data as ({ type?: string } & T) | null;
    if (data?.type !== type) return;
    const port = event.ports[0];
    void Promise.resolve(handle(data))
      .catch(() => false)
      .then((ok) => port?.postMessage(reply(ok)));
  };
  navigator.serviceWorker.addEventListener('message', listener);
  return () => navigator.serviceWorker.removeEventListener('message', listener);
}

export function onReminder(handle: Handler<{ payload?: { session_id?: unknown } }>): () => void {
  return onWorkerMessage(PUSH_REMINDER, handle, (shown): ReminderReply => ({ shown }));
}

export function onNavigate(handle: Handler<{ path?: unknown }>): () => void {
  return onWorkerMessage(NAVIGATE, handle, (ok) => ({ ok }));
}
