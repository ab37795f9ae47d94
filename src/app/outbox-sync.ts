// Replays the offline outbox (lib/outbox.ts) while a player is signed in: at start, when the device
// comes back online and when the app becomes visible again. Loaded by main.tsx at the first moment a
// player is signed in, so a visitor's first page load carries neither this nor the outbox (Dexie).
// After a replay that reached the server the player's record is fetched again (a replayed claim
// changes the PXT balance).
import { refreshCurrentUser } from '../lib/current-user';
import { isSignedIn, signedInAtom } from '../lib/session';
import { store } from '../lib/store';

function replay(): void {
  if (!isSignedIn()) return;
  import('../lib/outbox')
    .then(({ replayOutbox }) => replayOutbox())
    .then((summary) => {
      if (summary.sent > 0 || summary.failed > 0) void refreshCurrentUser();
    })
    .catch((err) => console.warn('Outbox replay failed', err));
}

export function startOutboxSync(): void {
  // Signing in again (another account, after an ended session) replays what waits for it.
  store.sub(signedInAtom, replay);
  window.addEventListener('online', replay);
  document.addEventListener('visibilitychange', () => document.visibilityState === 'visible' && replay());
  replay();
}
