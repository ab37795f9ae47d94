// Sign-in without a tap inside Telegram (decisions §14): the launch parameters' init data goes to
// POST /auth/telegram/; a new player then chooses a username in the first-username dialog (as a new
// wallet player does), which also sends the referral the Mini App was opened with.
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { closeModal, modalStateAtom, openModal } from '@/lib/modal-state';
import { isSignedIn, setTokens } from '@/lib/session';
import { store } from '@/lib/store';
import { loginWithInitData } from '../api/telegram-auth-api';

/** Dialogs a visitor may have been shown (a guarded page opens the main login) that signing in ends. */
const SIGN_IN_DIALOGS = new Set(['main', 'login', 'register', 'connectWallet']);

export async function signInWithInitData(initData: string | undefined): Promise<void> {
  // Already signed in (in this WebView, by any method): that session stays.
  if (!initData || isSignedIn()) return;
  let answer;
  try {
    answer = await loginWithInitData(initData);
  } catch (err) {
    // Telegram sign-in off or refused: the app goes on as for any visitor (Connect offers the rest).
    console.warn(toApiFailure(err, 'Telegram sign-in failed').message);
    return;
  }
  setTokens(answer);
  const open = store.get(modalStateAtom).open;
  if (open && SIGN_IN_DIALOGS.has(open)) closeModal();
  await refreshCurrentUser();
  if (answer.action === 'registered') openModal('accountDetails');
}
