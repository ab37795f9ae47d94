// Where a visitor was going when a guarded page sent them to sign in (issue 16: the blog's READ
// opened the login with no way back to the article). Kept for this tab only.
const KEY = 'pxt.returnTo';

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
