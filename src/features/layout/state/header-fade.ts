// The header fades in once on the first entry to these pages (spec §2: 0.4 s, 0 → 1, 0.2 s delay).
export const FADE_PATHS: ReadonlySet<string> = new Set(['/profile', '/tasks', '/referrals', '/arcade']);

export interface FadeState {
  path: string | null;
  fade: boolean;
  seen: ReadonlySet<string>;
}

export const initialFadeState: FadeState = { path: null, fade: false, seen: new Set() };

/** Next state for a new pathname: fade only on the first visit of a fade page. */
export function nextFadeState(s: FadeState, pathname: string): FadeState {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === s.path) return s;
  const first = FADE_PATHS.has(path) && !s.seen.has(path);
  return { path, fade: first, seen: first ? new Set([...s.seen, path]) : s.seen };
}
