// Sends a player back to the page a guard turned them away from, once they are signed in with a
// name (issue 16). Closing the sign-in dialogs signed out forgets the page.
import { useAtomValue } from 'jotai';
import { useEffect, useEffectEvent } from 'react';
import { useNavigate } from 'react-router';
import { hasIdentity, useCurrentUser } from '../lib/current-user';
import { modalStateAtom, useModalState } from '../lib/modal-state';
import { hasReturnTo, takeReturnTo } from '../lib/return-to';
import { signedInAtom } from '../lib/session';
import { store } from '../lib/store';

export function ReturnAfterSignIn() {
  const signedIn = useAtomValue(signedInAtom);
  const user = useCurrentUser();
  const { open } = useModalState();
  const navigate = useNavigate();
  const ready = signedIn && hasIdentity(user);
  // Not a dependency: React Router's declarative navigate changes with every page, and a rerun on
  // the page change that opened the login (before `open` says so) forgot the page to go back to.
  const goTo = useEffectEvent((path: string) => void navigate(path));

  useEffect(() => {
    // The store, not this render: the route guard remembers the page and opens the login in an
    // effect of the same commit, after this component rendered without a dialog.
    if (open || store.get(modalStateAtom).open || !hasReturnTo()) return;
    if (!signedIn) {
      takeReturnTo();
      return;
    }
    if (!ready) return;
    const path = takeReturnTo();
    if (path) goTo(path);
  }, [open, signedIn, ready]);

  return null;
}
