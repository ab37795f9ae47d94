// The open reauth prompt (decisions §13), apart from lib/reauth.ts: the app's shell watches this
// atom on every page (app/reauth-mount.tsx), while what asks for proof loads with the dialogs.
import { atom } from 'jotai';
import { store } from './store';

export interface PendingReauth {
  id: number;
  /** The reauth string, or null when the player closed the prompt. */
  settle: (reauth: string | null) => void;
}

export const reauthRequestAtom = atom<PendingReauth | null>(null);

let nextId = 1;

/** Opens the prompt; resolves with a reauth string, or null when the player closes it. */
export function requestReauth(): Promise<string | null> {
  store.get(reauthRequestAtom)?.settle(null);
  return new Promise((resolve) => {
    const id = nextId++;
    const settle = (reauth: string | null) => {
      if (store.get(reauthRequestAtom)?.id === id) store.set(reauthRequestAtom, null);
      resolve(reauth);
    };
    store.set(reauthRequestAtom, { id, settle });
  });
}
