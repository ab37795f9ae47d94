// Runs the links of spec §2 on any page: e-mail confirmations, password links and referral codes.
// Each link is handled once (tokens are single use) and its parameters leave the address bar.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { STATE_REFRESH_AFTER_CONFIRM_MS, STORAGE_KEYS } from '@shared/constants';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { isSignedIn, setTokens, signOut } from '@/lib/session';
import { confirmEmail, confirmEmailChange } from '../api/auth-api';
import { parseQuery, type QueryAction } from '../lib/query-actions';

const handled = new Set<string>();

async function run(action: QueryAction): Promise<void> {
  switch (action.kind) {
    case 'newPassword':
      openModal('newPassword', action.token ? { token: action.token } : {});
      return;
    case 'updatePassword':
      openModal('updatePassword', { token: action.token });
      return;
    case 'undoEmailChange':
      // The modal applies the link and says what happened.
      openModal('undoEmailChange', { token: action.token });
      return;
    case 'confirmRegistration':
    case 'confirmEmail': {
      try {
        const tokens = await confirmEmail(action.token);
        // Spec §5: an answer without both tokens is a failure.
        if (!tokens.access || !tokens.refresh) throw { detail: 'Confirm email failed' };
        setTokens({ access: tokens.access, refresh: tokens.refresh });
      } catch (err) {
        // Spec §8: failures of links are only logged.
        console.error(toApiFailure(err, 'Confirm email failed').message);
        return;
      }
      if (action.kind === 'confirmRegistration') {
        await refreshCurrentUser();
        openModal('accountDetails');
      } else {
        setTimeout(() => void refreshCurrentUser(), STATE_REFRESH_AFTER_CONFIRM_MS);
      }
      return;
    }
    case 'confirmEmailChange': {
      let answer;
      try {
        answer = await confirmEmailChange(action.token, action.email);
      } catch (err) {
        console.error(toApiFailure(err, 'Confirm email change failed').message);
        return;
      }
      // Issue 16: say what happened and show the new state. The server revoked every session; a
      // browser signed in as the player got a fresh pair, any other one is signed out now (not
      // by a surprise 401 later) and offered the login with the new address.
      if (answer.access && answer.refresh) {
        setTokens({ access: answer.access, refresh: answer.refresh });
        openModal('emailChanged', { email: answer.email });
        // Spec §4: the record (with the new address) is fetched again 2 s after the confirmation.
        setTimeout(() => void refreshCurrentUser(), STATE_REFRESH_AFTER_CONFIRM_MS);
      } else {
        if (isSignedIn()) await signOut();
        openModal('login', { email: answer.email, notice: 'emailChanged' });
      }
      return;
    }
  }
}

export function QueryParamsHandler() {
  const location = useLocation();
  const navigate = useNavigate();

  useEffect(() => {
    if (!location.search) return;
    const parsed = parseQuery(location.search);
    if (parsed.consumed.length === 0) return;
    const once = `${location.key}${location.search}`;
    if (handled.has(once)) return;
    handled.add(once);

    if (parsed.refCode) {
      try {
        localStorage.setItem(STORAGE_KEYS.referral, window.location.href);
      } catch {
        /* storage unavailable: the referral is lost, the visit still works */
      }
    }
    const rest = new URLSearchParams(location.search);
    for (const p of parsed.consumed) rest.delete(p);
    const search = rest.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true });
    if (parsed.action) void run(parsed.action);
  }, [location, navigate]);

  return null;
}
