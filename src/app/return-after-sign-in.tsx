// Sends a player back to the page a guard turned them away from, once they are signed in with a
// name (issue 16). Closing the sign-in dialogs signed out forgets the page.
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { hasIdentity, useCurrentUser } from '../lib/current-user';
import { useModalState } from '../lib/modal-state';
import { hasReturnTo, takeReturnTo } from '../lib/return-to';
import { signedInAtom } from '../lib/session';

export function ReturnAfterSignIn() {
  const signedIn = useAtomValue(signedInAtom);
  const user = useCurrentUser();
  const { open } = useModalState();
  const navigate = useNavigate();
  const ready = signedIn && hasIdentity(user);

  useEffect(() => {
    if (open || !hasReturnTo()) return;
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
