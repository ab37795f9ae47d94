// The player's tokens (spec §3 auth state) in atoms persisted in localStorage, and signing out.
// Login, e-mail confirmation and Google store both tokens; a refresh stores only the access token.
import { atom } from 'jotai';
import { atomWithStorage, createJSONStorage } from 'jotai/utils';
import { closeModal } from './modal-state';
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

export function setTokens(tokens: { access: string; refresh: string }): void {
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

/** Forgets the tokens and the player's cached data. No network: see `logout` in current-user.ts. */
export async function signOut(): Promise<void> {
  store.set(accessTokenAtom, null);
  store.set(refreshTokenAtom, null);
  closeModal();
  try {
    // Loaded on demand: Dexie is not part of a visitor's first page load.
    const { clearPlayerData } = await import('./db');
    await clearPlayerData();
  } catch (err) {
    console.warn('Could not clear local data', err);
  }
  for (const l of signedOutListeners) l();
}
