// A sign-up left at "Choose your username" (tab closed, signed in again elsewhere) leaves a player
// with tokens but no name: the header says Connect and the footer's links look disabled. Whenever
// such a player is known and no dialog is open, ask for the username again.
import { useAtomValue } from 'jotai';
import { useEffect } from 'react';
import { hasIdentity, useCurrentUser, userStatusAtom } from '@/lib/current-user';
import { openModal, useModalState } from '@/lib/modal-state';

export function UsernamePrompt() {
  const user = useCurrentUser();
  const status = useAtomValue(userStatusAtom);
  const { open } = useModalState();
  const needsName = status === 'authenticated' && Boolean(user) && !hasIdentity(user);

  useEffect(() => {
    if (needsName && !open) openModal('accountDetails');
  }, [needsName, open]);

  return null;
}
