// The player's tokens (spec §3 auth state) in atoms persisted in localStorage, and signing out.
// Login, e-mail confirmation and Google store both tokens; a refresh stores only the access token.
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { closeModal, openModal } from './modal-state';
import { rememberSignInStart } from './return-to';
import { store } from './store';

export const TOKEN_STORAGE_KEYS = { access: 'pxt.accessToken', refresh: 'pxt.refreshToken' } as const;

const storage = createJSONStorage<string | null>(() => localStorage);
const persisted = (key: string) => atomWithStorage<string | null>(key, null, storage, { getOnInit: true });

export const accessTokenAtom = persisted(TOKEN_STORAGE_KEYS.access);
export const refreshTokenAtom = persisted(TOKEN_STORAGE_KEYS.refresh);
/** Signed in = holds a refresh token (the access token may have expired; the API client renews it). */
export const signedInAtom = atom((get) => Boolean(get(refreshTokenAtom) || get(accessTokenAtom)));

export const getAccessToken = () => store.get(accessTokenAtom);
export const getRefreshToken = () => store.get(refreshTokenAtom);
export const isSignedIn = () => store.get(signedInAtom);

/**
 * The account an access token belongs to (its `sub` claim), read without checking the signature:
 * only used to tell this browser's players apart (the outbox's owner, one device string each).
 */
export function accountOfToken(token: string | null | undefined): string | null {
  const body = token?.split('.')[1];
  if (!body) return null;
  try {
    const json = atob(
      body
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(body.length / 4) * 4, '='),
    );
    const sub = (JSON.parse(json) as { sub?: unknown }).sub;
    return typeof sub === 'number' || (typeof sub === 'string' && sub) ? String(sub) : null;
  } catch {
    return null;
  }
}

/** The signed-in account's id, or null (signed out, or a token without one). */
export const currentAccount = () => accountOfToken(getAccessToken());

/** Stores a sign-in's tokens (its `device` string is kept by the auth feature's calls). */
export function setTokens(tokens: { access: string; refresh: string; device?: string }): void {
  store.set(accessTokenAtom, tokens.access);
  store.set(refreshTokenAtom, tokens.refresh);
}
export const setAccessToken = (access: string) => store.set(accessTokenAtom, access);

type Listener = () => void;
const signedOutListeners = new Set<Listener>();
/** Called after every sign-out (the app navigates to /); returns an unsubscribe function. */
export function onSignedOut(listener: Listener): () => void {
  signedOutListeners.add(listener);
  return () => signedOutListeners.delete(listener);
}

/** Why the player was signed out without asking: said in the login dialog that opens. */
export type SignOutReason = 'sessionEnded';

let signingOut: Promise<void> | null = null;
/** A sign-out is under way: the pages it leaves ask no one to sign in (it opens its own dialog when it has a reason). */
export const isSigningOut = () => signingOut !== null;

/**
 * Forgets the tokens and the player's cached data (the offline outbox stays: its calls go out once
 * the same player signs in again, see lib/outbox.ts). No network: see `logout` in current-user.ts.
 * With a `reason`, the sign-in opens afterwards and says it, with the player's address filled in,
 * and signing in again goes back to the page (issue 24). Calls while one runs share it: every
 * request refused at once must not close the dialog the first one opened.
 */
export function signOut(reason?: SignOutReason): Promise<void> {
  // A call refused after that sign-out finished (it left earlier): nothing more to end or to say.
  if (!signingOut && reason && !isSignedIn()) return Promise.resolve();
  signingOut ??= endSession(reason).finally(() => {
    signingOut = null;
  });
  return signingOut;
}

async function endSession(reason?: SignOutReason): Promise<void> {
  const page = `${window.location.pathname}${window.location.search}`;
  store.set(accessTokenAtom, null);
  store.set(refreshTokenAtom, null);
  closeModal();
  let email = '';
  try {
    // Loaded on demand: Dexie is not part of a visitor's first page load.
    const { clearPlayerData, db } = await import('./db');
    email = (await db.user.get('me').catch(() => undefined))?.email ?? '';
    await clearPlayerData();
  } catch (err) {
    console.warn('Could not clear local data', err);
  }
  for (const l of signedOutListeners) l();
  if (!reason) return;
  // Remembered only now: closing the dialog above, signed out, forgets a remembered page.
  rememberSignInStart(page, true);
  // An e-mail account gets the e-mail login with its address; a wallet, Google or Telegram one every way in.
  if (email) openModal('login', { notice: reason, email });
  else openModal('main', { notice: reason });
}
