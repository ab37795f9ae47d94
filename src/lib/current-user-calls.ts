// The calls behind current-user.ts: GET /auth/me and what its answer means for the player's state,
// and the logout. Loaded with the API client on the first of them, so a visitor's first page load
// carries none of it.
import type { Me } from '@shared/api/auth';
import { api } from './api-client';
import { toApiFailure } from './api-errors';
import { saveCurrentUser, userFetchFailedAtom, userStatusAtom, type Fetched } from './current-user';
import { getRefreshToken, isSignedIn, signOut } from './session';
import { store } from './store';

/** Fetches the record into Dexie; `superseded` says the player signed in again meanwhile. */
export async function fetchCurrentUserRecord(superseded: () => boolean): Promise<Fetched> {
  try {
    const me = await api<Me>('auth/me');
    if (superseded()) return { me: null, fresh: false };
    await saveCurrentUser(me);
    store.set(userFetchFailedAtom, false);
    store.set(userStatusAtom, 'authenticated');
    return { me, fresh: true };
  } catch (err) {
    if (superseded()) return { me: null, fresh: false };
    const failure = toApiFailure(err, 'request error');
    // Offline is not an error here (the cached record is shown); a refusal or a fault is.
    store.set(userFetchFailedAtom, failure.status !== 0);
    if (failure.status !== 0) console.warn(failure.message);
    const { db } = await import('./db');
    const cached = (await db.user.get('me').catch(() => undefined)) ?? null;
    // Spec §4: a failed profile fetch marks the player not authenticated. Only offline with a
    // cached record (the PWA's offline mode) stays authenticated; the tokens are kept either way,
    // but nothing may treat the player as known (e.g. Connect opening the first-time username).
    store.set(userStatusAtom, failure.status === 0 && cached && isSignedIn() ? 'authenticated' : 'anonymous');
    return { me: cached, fresh: false };
  }
}

/** See `logout` in current-user.ts. */
export async function logout(): Promise<void> {
  const refresh = getRefreshToken();
  if (refresh) {
    try {
      await api('auth/logout/', { method: 'POST', body: { refresh } });
    } catch (err) {
      console.warn(toApiFailure(err, 'Logout failed').message);
    }
  }
  await signOut();
}
