// A new player's first visit to the miner opens with its guide (issue 24): the first username
// (account-details-modal.tsx) sets it due, the miner page takes it. Kept for this tab only, and
// announced through an atom: the username is often chosen over the miner itself, which is already
// on screen and would otherwise take the guide only on its next visit.
import { atom } from 'jotai';
import { store } from './store';

const GUIDE_KEY = 'pxt.guideDue';

/** Counts the guides made due in this page's life: the mounted miner listens to it. */
export const guideDueAtom = atom(0);

/** A new player (a first username chosen): the miner shows its guide now, or on its next visit in this tab. */
export function rememberGuideDue(): void {
  try {
    sessionStorage.setItem(GUIDE_KEY, '1');
  } catch {
    /* storage unavailable: the guide stays one tap away on the miner */
  }
  store.set(guideDueAtom, (n) => n + 1);
}

/** True once after rememberGuideDue. */
export function takeGuideDue(): boolean {
  try {
    const due = sessionStorage.getItem(GUIDE_KEY) !== null;
    sessionStorage.removeItem(GUIDE_KEY);
    return due;
  } catch {
    return false;
  }
}
