// The header fades in once on the first entry to these pages (spec §2: 0.4 s, 0 → 1, 0.2 s delay).
export const FADE_PATHS: ReadonlySet<string> = new Set(['/profile', '/tasks', '/referrals', '/arcade']);

export interface FadeState {
  path: string | null;
  fade: boolean;
  seen: ReadonlySet<string>;
  /** How many fades have started; its parity picks the animation name (see fadeClass). */
  count: number;
}

export const initialFadeState: FadeState = { path: null, fade: false, seen: new Set(), count: 0 };

/** Next state for a new pathname: fade only on the first visit of a fade page. */
export function nextFadeState(s: FadeState, pathname: string): FadeState {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === s.path) return s;
  const first = FADE_PATHS.has(path) && !s.seen.has(path);
  return { path, fade: first, seen: first ? new Set([...s.seen, path]) : s.seen, count: first ? s.count + 1 : s.count };
}

/**
 * The header's fade classes. The header stays mounted across pages, so keeping one class from
 * /tasks to /arcade would not replay the animation; alternating between two identical animations
 * makes the browser start a new one on each first entry without remounting the header (which
 * would drop focus and the open menu).
 */
export function fadeClass(s: FadeState): string {
  return s.fade ? `site-header--fade site-header--fade-${s.count % 2 ? 'odd' : 'even'}` : '';
}
