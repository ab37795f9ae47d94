// The signed-in player's record. GET /auth/me writes it into Dexie (`user`, key 'me'); the shell
// (header, footer, guards) reads it through `currentUserAtom`, a mirror of that Dexie row kept by
// a live query. Dexie itself is loaded on demand, so a visitor's first page load does not carry
// it (see scripts/check-budgets.mjs). Lazy feature pages may read `db.user` with useLiveQuery.
// Its calls (GET /auth/me and what the answer means, the logout) load on demand with the API client
// (ofetch), from current-user-calls.ts: a visitor never makes them on the landing page.
import { atom, useAtomValue } from 'jotai';
import { startTransition } from 'react';
import type { Me } from '@shared/api/auth';
import type { UserRow } from './db';
import { getAccessToken, getRefreshToken, isSignedIn, signedInAtom } from './session';
import { store } from './store';

export type UserStatus = 'unknown' | 'loading' | 'authenticated' | 'anonymous';
/** Spec §3 client user state: isAuthenticated and loading; the record itself is in Dexie. */
export const userStatusAtom = atom<UserStatus>('unknown');
/** The last profile fetch failed (the UI shows the translated 'request error'). */
export const userFetchFailedAtom = atom(false);
/** Mirror of Dexie `user` 'me': undefined until read, null when there is none. */
export const currentUserAtom = atom<UserRow | null | undefined>(undefined);

const loadDb = () => import('./db');

let mirror: { unsubscribe(): void } | null = null;
async function startMirror(): Promise<void> {
  if (mirror) return;
  const [{ db }, { liveQuery }] = await Promise.all([loadDb(), import('dexie')]);
  if (mirror || !isSignedIn()) return;
  mirror = liveQuery(() => db.user.get('me')).subscribe({
    // saveCurrentUser has already shown the record it writes: the same record read back is not set
    // again (a new object would re-render every reader of the player, the header included).
    // As a transition: the record read back from IndexedDB re-renders the shell (header, guards,
    // the page) in slices that yield to the page, not in one long task (issue 25's TBT).
    next: (read) => {
      const row = read ?? null;
      if (!sameRecord(store.get(currentUserAtom), row)) startTransition(() => store.set(currentUserAtom, row));
    },
    error: (err) => console.warn('Cannot read the local user record', err),
  });
}
function sameRecord(a: UserRow | null | undefined, b: UserRow | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  const keys = Object.keys(a) as (keyof UserRow)[];
  return keys.length === Object.keys(b).length && keys.every((k) => Object.is(a[k], b[k]));
}
function stopMirror(): void {
  mirror?.unsubscribe();
  mirror = null;
  store.set(currentUserAtom, null);
}

/** Keeps the mirror running exactly while signed in. Called once at start (main.tsx). */
export function watchCurrentUser(): void {
  const sync = () => (isSignedIn() ? void startMirror() : stopMirror());
  store.sub(signedInAtom, sync);
  sync();
}

/** Writes a fresh /auth/me record (also for features that receive one). */
export async function saveCurrentUser(me: Me): Promise<void> {
  const row: UserRow = { ...me, key: 'me', fetchedAt: Date.now() };
  store.set(currentUserAtom, row);
  const { db } = await loadDb();
  await db.user.put(row);
}

export type Fetched = { me: Me | null; fresh: boolean };
/** The sign-in a fetch is for: its refresh token, which a renewal of the access token keeps. */
const signInKey = () => getRefreshToken() ?? getAccessToken();
/** The fetch under way and the sign-in it was sent for: the record, and whether it came from the
 * server (else the cached one). */
let inFlight: { signIn: string | null; result: Promise<Fetched> } | null = null;

/** Fetches /auth/me into Dexie. Offline, the cached record stays and the player stays signed in. */
export function refreshCurrentUser(): Promise<Me | null> {
  return fetchCurrentUser().then((r) => r.me);
}

/**
 * How old a record of the player may be for a page that opens to show it without asking the server
 * again: long enough for the app's start-up fetch to count on a cold start, short enough that a
 * later visit to the page shows the server's record.
 */
export const FRESH_RECORD_MS = 10_000;

/**
 * Fetches /auth/me unless the record in hand came from the server less than `maxAgeMs` ago. A page
 * that refreshes the record when it opens (the profile, the miner, the tasks) then takes the one the
 * app's start-up fetch has just brought, instead of asking again on a cold start (issue 25).
 */
export function refreshCurrentUserUnlessFresh(maxAgeMs = FRESH_RECORD_MS): Promise<Me | null> {
  const known = store.get(currentUserAtom);
  if (!inFlight && isSignedIn() && known && Date.now() - known.fetchedAt < maxAgeMs) return Promise.resolve(known);
  return refreshCurrentUser();
}

/**
 * The player's record as the server has it now, from a fetch started after this call (one already
 * under way may have read it before the caller's change: a claim made while the countdown's refresh
 * was out); null when it could not be fetched (offline, refused).
 */
export async function serverCurrentUser(): Promise<Me | null> {
  if (inFlight) await inFlight.result;
  const r = await fetchCurrentUser();
  return r.fresh ? r.me : null;
}

function fetchCurrentUser(): Promise<Fetched> {
  if (!isSignedIn()) {
    store.set(userStatusAtom, 'anonymous');
    return Promise.resolve({ me: null, fresh: false });
  }
  const signIn = signInKey();
  // A fetch sent for an earlier sign-in (a session since ended elsewhere) is not this one's answer:
  // the login dialog waited on it, then closed with no record.
  if (inFlight?.signIn === signIn) return inFlight.result;
  const result = loadCurrentUser(signIn).finally(() => {
    if (inFlight?.result === result) inFlight = null;
  });
  inFlight = { signIn, result };
  return result;
}

async function loadCurrentUser(signIn: string | null): Promise<Fetched> {
  store.set(userStatusAtom, 'loading');
  const { fetchCurrentUserRecord } = await import('./current-user-calls');
  // Signed in again meanwhile: this answer, or this failure, is not about the player now signed in.
  return fetchCurrentUserRecord(() => isSignedIn() && signInKey() !== signIn);
}

let firstLoad: Promise<Me | null> | null = null;
/** The record as soon as it is known: the cached row, else the start-up fetch. */
export async function currentUserOnce(): Promise<Me | null> {
  if (!isSignedIn()) return null;
  const known = store.get(currentUserAtom);
  if (known) return known;
  const { db } = await loadDb();
  const cached = await db.user.get('me').catch(() => undefined);
  if (cached) return cached;
  firstLoad ??= refreshCurrentUser().finally(() => {
    firstLoad = null;
  });
  return firstLoad;
}

/** The player's record for the shell (undefined while unknown or signed out). */
export function useCurrentUser(): UserRow | undefined {
  const signedIn = useAtomValue(signedInAtom);
  const user = useAtomValue(currentUserAtom);
  return signedIn && user ? user : undefined;
}

/** Spec §2: the player block shows when there is a username or a wallet; Connect shows otherwise. */
export const hasIdentity = (u: Pick<Me, 'username' | 'wallet_address'> | null | undefined) =>
  Boolean(u && (u.username || u.wallet_address));

/** Logout (spec §4): tell the server (POST auth/logout/ {refresh}), then forget everything locally. */
export const logout = () => import('./current-user-calls').then((calls) => calls.logout());
