// The access check of route-access.ts in front of every guarded page: a visitor is sent to / with
// the main login open; /ico without the iso flag goes to /. A referral code or e-mail link on the
// refused address goes along. Nothing of a refused page renders.
import { useAtomValue } from 'jotai';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { currentUserOnce } from '../lib/current-user';
import { modalStateAtom, openModal } from '../lib/modal-state';
import { rememberReturnTo } from '../lib/return-to';
import { isSignedIn, isSigningOut, signedInAtom } from '../lib/session';
import { store } from '../lib/store';
import { ROUTE_ACCESS, decideAccess, type RoutePath } from './route-access';

/** Where a request for `url` (path and query) of the page `path` is sent instead, or null to let it through. */
export async function refusedTo(path: RoutePath, url: string): Promise<string | null> {
  const access = ROUTE_ACCESS[path];
  if (access === 'public') return null;
  const signedIn = isSignedIn();
  const iso = access === 'iso' && signedIn ? Boolean((await currentUserOnce())?.ico) : false;
  const decision = decideAccess(access, { signedIn, iso });
  if (decision.allow) return null;
  // Not while signing out: logging out on a guarded page is no request to sign in (issue 24: more
  // players log out on /miner now that sign-ins end there).
  if (decision.openMainLogin && !isSigningOut()) {
    // Back to this page after signing in (issue 16).
    rememberReturnTo(url);
    // A sign-in already open stays: a session ended elsewhere opened the login with its reason,
    // and a lazy page may be refused only once it has loaded, after that (issue 24).
    const open = store.get(modalStateAtom).open;
    if (open !== 'login' && open !== 'main') openModal('main');
  }
  return decision.redirectTo + keptQuery(url);
}

export function RouteGuard({ path, children }: { path: RoutePath; children: ReactNode }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const signedIn = useAtomValue(signedInAtom);
  const url = `${pathname}${search}`;
  const access = ROUTE_ACCESS[path];
  // Known at once for most pages; /ico waits for the player's record.
  const open = access !== 'iso' && decideAccess(access, { signedIn, iso: false }).allow;
  const [allowed, setAllowed] = useState<string | null>(null);

  useLayoutEffect(() => {
    if (open) return;
    let current = true;
    void refusedTo(path, url).then((to) => {
      if (!current) return;
      if (to === null) setAllowed(url);
      else void navigate(to, { replace: true });
    });
    return () => {
      current = false;
    };
  }, [open, path, url, navigate]);

  return open || allowed === url ? children : null;
}

/**
 * The spec §2 link parameters (refCode, modal links) of the refused address, carried to the page
 * the visitor is sent to, where the query handler stores the referral (a referral link to a
 * signed-in-only page would otherwise lose its code on the way to /).
 */
const LINK_PARAMS = ['modal', 'token', 'email', 'refCode'] as const;

function keptQuery(url: string): string {
  const from = new URL(url, 'http://x').searchParams;
  const kept = new URLSearchParams();
  // The names features/auth/lib/query-actions.ts reads (not imported: it stays out of the first visit).
  for (const name of LINK_PARAMS) {
    const value = from.get(name);
    if (value && (name === 'refCode' || from.get('modal'))) kept.set(name, value);
  }
  const search = kept.toString();
  return search ? `?${search}` : '';
}
