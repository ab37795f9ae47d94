// Sends a player back to the page a guard turned them away from, once they are signed in with a
// name (issue 16), and on to the miner after a sign-in begun on the landing or the miner (issue 24).
// Closing the sign-in dialogs signed out forgets the page, and so does a page opened signed in.
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
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
  useEffect(() => {
    if (store.get(signedInAtom)) takeReturnTo();
  }, []);

  useEffect(() => {
    if (!signedIn && open && SIGN_IN_DIALOGS.has(open)) rememberSignInStart(here);
  }, [open, signedIn, here]);

  useEffect(() => {
    // The store, not this render: the route guard remembers the page and opens the login in an
    // effect of the same commit (the page change that refused it), after this component rendered
    // without a dialog.
    if (open || store.get(modalStateAtom).open || !hasReturnTo()) return;
    if (!signedIn) {
      takeReturnTo();
      return;
    }
    if (!ready) return;
    const path = takeReturnTo();
    if (path && path !== here) void navigate(path);
  }, [open, signedIn, ready, navigate, here]);

  return null;
}
