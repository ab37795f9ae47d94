// The loader that applies route-access.ts before a guarded page loads: a visitor is sent to / with
// the main login open; /ico without the iso flag goes to /. A referral code or e-mail link on the
// refused address goes along.
import { redirect, type LoaderFunction } from 'react-router';
import { parseQuery } from '../features/auth/lib/query-actions';
import { currentUserOnce } from '../lib/current-user';
import { openModal } from '../lib/modal-state';
import { rememberReturnTo } from '../lib/return-to';
import { isSignedIn } from '../lib/session';
import { ROUTE_ACCESS, decideAccess, type RoutePath } from './route-access';

export function guardLoader(path: RoutePath): LoaderFunction | undefined {
  const access = ROUTE_ACCESS[path];
  if (access === 'public') return undefined;
  return async ({ request }) => {
    const signedIn = isSignedIn();
    const iso = access === 'iso' && signedIn ? Boolean((await currentUserOnce())?.ico) : false;
    const decision = decideAccess(access, { signedIn, iso });
    if (decision.allow) return null;
    if (decision.openMainLogin) {
      // Back to this page after signing in (issue 16).
      const url = new URL(request.url);
      rememberReturnTo(`${url.pathname}${url.search}`);
      openModal('main');
    }
    return redirect(decision.redirectTo + keptQuery(request.url));
  };
}

/**
 * The spec §2 link parameters (refCode, modal links) of the refused address, carried to the page
 * the visitor is sent to, where the query handler stores the referral (a referral link to a
 * signed-in-only page would otherwise lose its code on the way to /).
 */
function keptQuery(url: string): string {
  const from = new URL(url).searchParams;
  const kept = new URLSearchParams();
  for (const name of parseQuery(from.toString()).consumed) {
    const value = from.get(name);
    if (value) kept.set(name, value);
  }
  const search = kept.toString();
  return search ? `?${search}` : '';
}
