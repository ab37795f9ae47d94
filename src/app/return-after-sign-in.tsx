// Sends a player back to the page a guard turned them away from, once they are signed in with a
// name (issue 16). Closing the sign-in dialogs signed out forgets the page.
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
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
    if (path) void navigate(path);
  }, [open, signedIn, ready, navigate]);

  return null;
}
