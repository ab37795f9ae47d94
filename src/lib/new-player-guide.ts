// A new player's first visit to the miner opens with its guide (issue 24): the first username
// (account-details-modal.tsx) sets it due, the miner page takes it. Kept for this tab only.
const GUIDE_KEY = 'pxt.guideDue';

/** A new player (a first username chosen): the miner shows its guide on their next visit to it in this tab. */
export function rememberGuideDue(): void {
  try {
    sessionStorage.setItem(GUIDE_KEY, '1');
  } catch {
    /* storage unavailable: the guide stays one tap away on the miner */
  }
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
