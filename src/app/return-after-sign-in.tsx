// Sends a player back to the page a guard turned them away from, once they are signed in with a
// name (issue 16), and on to the miner after a sign-in begun on the landing or the miner (issue 24).
// Closing the sign-in dialogs signed out forgets the page, and so does a page opened signed in.
import { useAtomValue } from 'jotai';
import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { hasIdentity, useCurrentUser } from '../lib/current-user';
import { modalStateAtom, useModalState, type ModalId } from '../lib/modal-state';
import { hasReturnTo, rememberSignInStart, takeReturnTo } from '../lib/return-to';
import { signedInAtom } from '../lib/session';
import { store } from '../lib/store';

/** The dialogs a sign-in or sign-up begins with. */
const SIGN_IN_DIALOGS = new Set<ModalId>(['main', 'login', 'register', 'confirmWallet']);

export function ReturnAfterSignIn() {
  const signedIn = useAtomValue(signedInAtom);
  const user = useCurrentUser();
  const { open } = useModalState();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const here = `${pathname}${search}`;
  const ready = signedIn && hasIdentity(user);

  // A sign-in begun on an earlier page of this tab and never finished there (the tab went to another
  // address with the dialog open) is not this page's to finish: a page opened signed in forgets it,
  // or the player who typed /profile would be sent to the miner.
  // A layout effect, and first: the return below is one too, and must not run before this forgets.
  // It did once in CI (the record was known at the first render): at mount, before the router
  // listens, its navigate changed only the address bar, to /miner, under the page /profile.
  useLayoutEffect(() => {
    if (store.get(signedInAtom)) takeReturnTo();
  }, []);

  useEffect(() => {
    if (!signedIn && open && SIGN_IN_DIALOGS.has(open)) rememberSignInStart(here);
  }, [open, signedIn, here]);

  // Back to the page in the commit that closes the dialog, before the browser paints: one effect
  // later, a frame showed the page the dialog was over, and a reload at that moment stayed there.
  useLayoutEffect(() => {
    // The store, not this render: the route guard remembers the page and opens the login after
    // this component rendered without a dialog.
    if (!ready || open || store.get(modalStateAtom).open || !hasReturnTo()) return;
    const path = takeReturnTo();
    if (path && path !== here) void navigate(path);
  }, [open, ready, navigate, here]);

  // Closed signed out: the sign-in was given up, and so is the page it would have gone back to.
  useEffect(() => {
    if (signedIn || open || store.get(modalStateAtom).open || !hasReturnTo()) return;
    takeReturnTo();
  }, [open, signedIn, here]);

  return null;
}
