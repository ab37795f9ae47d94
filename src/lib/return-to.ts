// Where a visitor was going when a guarded page sent them to sign in (issue 16: the blog's READ
// opened the login with no way back to the article), or when they began to sign in on the landing
// or the miner (issue 24: they came to mine). Kept for this tab only.
const KEY = 'pxt.returnTo';

/** Pages whose sign-in goes on to the miner: the player came to mine. */
const TO_MINER = new Set(['/', '/miner']);

export function rememberReturnTo(path: string): void {
  try {
    sessionStorage.setItem(KEY, path);
  } catch {
    /* storage unavailable: the player lands on / as before */
  }
}

/** The remembered path, forgotten as it is read. */
export function takeReturnTo(): string | null {
  try {
    const path = sessionStorage.getItem(KEY);
    sessionStorage.removeItem(KEY);
    // Only a path of this app (never //host or a full address).
    return path && path.startsWith('/') && !path.startsWith('//') ? path : null;
  } catch {
    return null;
  }
}

export function hasReturnTo(): boolean {
  try {
    return sessionStorage.getItem(KEY) !== null;
  } catch {
    return false;
  }
}

/**
 * A sign-in begun on `url` (path and query), unless a page is remembered already: from the landing
 * or the miner it ends on the miner; from another page it ends there, which needs remembering only
 * when the app leaves that page meanwhile (`leaving`: a session ended elsewhere goes through /).
 */
export function rememberSignInStart(url: string, leaving = false): void {
  if (hasReturnTo()) return;
  const path = url.split(/[?#]/)[0].replace(/\/+$/, '') || '/';
  if (TO_MINER.has(path)) rememberReturnTo('/miner');
  else if (leaving) rememberReturnTo(url);
}
