// Replays the offline outbox (lib/outbox.ts) while a player is signed in: at start, when the device
// comes back online and when the app becomes visible again. The outbox (and Dexie) load on demand,
// so a visitor's first page load carries neither. After a replay that reached the server the
// player's record is fetched again (a replayed claim changes the PXT balance).
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { refreshCurrentUser } from '../lib/current-user';
import { signedInAtom } from '../lib/session';

export function OutboxSync() {
  const signedIn = useAtomValue(signedInAtom);

  useEffect(() => {
    if (!signedIn) return;
    const replay = () => {
      import('../lib/outbox')
        .then(({ replayOutbox }) => replayOutbox())
        .then((summary) => {
          if (summary.sent > 0 || summary.failed > 0) void refreshCurrentUser();
        })
        .catch((err) => console.warn('Outbox replay failed', err));
    };
    const onVisibility = () => {
      if (document.visibilityState === 'visible') replay();
    };
    replay();
    window.addEventListener('online', replay);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('online', replay);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [signedIn]);

  return null;
}
