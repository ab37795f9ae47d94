import { useAtomValue } from 'jotai';
import { signedInAtom } from '@/lib/session';

/** Whether a player is signed in on this browser (re-renders on sign-in and sign-out). */
export const useIsSignedIn = () => useAtomValue(signedInAtom);
