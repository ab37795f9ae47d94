/// <reference lib="webworker" />
// Background Sync for the outbox (decisions §10). The page registers the 'outbox-replay' tag when a
// call is queued; when the browser sees the network again it fires `sync` here, and the worker asks
// an open window to replay (the replay needs the page's tokens and runs through `replayOutbox`).
// With no window open nothing is lost: the app replays at its next start.
import { OUTBOX_REPLAY, OUTBOX_SYNC_TAG, type OutboxReplayReply } from '@shared/sw-messages';

declare const self: ServiceWorkerGlobalScope;

/** How long a window may take to answer before the sync counts as failed (and is retried). */
const REPLY_TIMEOUT_MS = 60_000;

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

function askToReplay(client: Client): Promise<OutboxReplayReply> {
  return new Promise((resolve, reject) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => reject(new Error('no answer from the page')), REPLY_TIMEOUT_MS);
    channel.port1.onmessage = (event: MessageEvent<OutboxReplayReply>) => {
      clearTimeout(timer);
      resolve(event.data);
    };
    client.postMessage({ type: OUTBOX_REPLAY }, [channel.port2]);
  });
}

export function setUpSync(): void {
  self.addEventListener('sync', (event) => {
    const sync = event as SyncEvent;
    if (sync.tag !== OUTBOX_SYNC_TAG) return;
    sync.waitUntil(
      (async () => {
        const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
        const client = windows.find((c) => (c as WindowClient).focused) ?? windows[0];
        if (!client) return;
        const reply = await askToReplay(client);
        // Rejecting makes the browser retry later; on its last chance the next app start will do.
        if (reply.pending > 0 && !sync.lastChance) throw new Error(`${reply.pending} outbox calls still pending`);
      })(),
    );
  });
}
