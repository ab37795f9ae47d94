// Runs the links of spec §2 on any page: e-mail confirmations, password links and referral codes.
// Each link is handled once (tokens are single use) and its parameters leave the address bar.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { STATE_REFRESH_AFTER_CONFIRM_MS, STORAGE_KEYS } from '@shared/constants';
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { openModal } from '@/lib/modal-state';
import { forgetRegistration } from '@/lib/devices';
import { setTokens } from '@/lib/session';
import { confirmAddedEmail, confirmEmailChange, confirmRegistration } from '../api/auth-api';
import { parseQuery, type QueryAction } from '../lib/query-actions';

const handled = new Set<string>();

const codeOf = (err: unknown) => {
  const data = (err as { data?: unknown } | null)?.data;
  return data && typeof data === 'object' ? (data as { code?: unknown }).code : undefined;
};

/**
 * The link of an added address or of an e-mail change works only for the account that asked
 * (decisions §13): anyone else gets 403 wrong_account and nothing changed. The dialog says so and,
 * signed out, offers the sign-in after which the same link runs again.
 */
function wrongAccount(err: unknown, link: string): boolean {
  if ((err as { status?: number } | null)?.status !== 403 || codeOf(err) !== 'wrong_account') return false;
  openModal('wrongAccount', { link });
  return true;
}

/** `link`: the page and query the link arrived with, to run it again after signing in. */
async function run(action: QueryAction, link: string): Promise<void> {
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
    case 'confirmRegistration': {
      let answer;
      try {
        answer = await confirmRegistration(action.token);
        // Spec §5: an answer without both tokens is a failure.
        if (!answer.access || !answer.refresh) throw { detail: 'Confirm email failed' };
        setTokens({ access: answer.access, refresh: answer.refresh, device: answer.device });
      } catch (err) {
        // Spec §8: failures of links are only logged.
        console.error(toApiFailure(err, 'Confirm email failed').message);
        return;
      }
      await refreshCurrentUser();
      if (answer.password_set === false && answer.password_token) {
        // Opened in another browser (or registered by someone else): signed in, but no password
        // counts yet; ask for one at once (the username dialog follows once this one is done).
        openModal('updatePassword', { token: answer.password_token, notice: 'noPassword' });
        return;
      }
      forgetRegistration();
      openModal('accountDetails');
      return;
    }
    case 'confirmEmail': {
      try {
        await confirmAddedEmail(action.token);
      } catch (err) {
        if (!wrongAccount(err, link)) console.error(toApiFailure(err, 'Confirm email failed').message);
        return;
      }
      setTimeout(() => void refreshCurrentUser(), STATE_REFRESH_AFTER_CONFIRM_MS);
      return;
    }
    case 'confirmEmailChange': {
      let answer;
      try {
        answer = await confirmEmailChange(action.token, action.email);
      } catch (err) {
        if (!wrongAccount(err, link)) console.error(toApiFailure(err, 'Confirm email change failed').message);
        return;
      }
      // Issue 16: say what happened and show the new state. Only the account that asked can
      // confirm (decisions §13), so this session simply stays (an older server answered a new pair).
      if (answer.access && answer.refresh) setTokens({ access: answer.access, refresh: answer.refresh });
      openModal('emailChanged', { email: answer.email });
      // Spec §4: the record (with the new address) is fetched again 2 s after the confirmation.
      setTimeout(() => void refreshCurrentUser(), STATE_REFRESH_AFTER_CONFIRM_MS);
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
    const link = `${location.pathname}${location.search}`;
    const rest = new URLSearchParams(location.search);
    for (const p of parsed.consumed) rest.delete(p);
    const search = rest.toString();
    void navigate(
      { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
      { replace: true },
    );
    if (parsed.action) void run(parsed.action, link);
  }, [location, navigate]);

  return null;
}
