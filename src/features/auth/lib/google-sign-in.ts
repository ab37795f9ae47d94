// Google sign-in (spec §4): token (or code) from Google → POST auth/google/ → tokens. A new account first
// gets its generated username and the referral link it arrived with, then the player is fetched.
import { toApiFailure } from '@/lib/api-errors';
import { refreshCurrentUser } from '@/lib/current-user';
import { setTokens } from '@/lib/session';
import { completeRegistration, loginWithGoogle } from '../api/auth-api';
import { storedReferralLink } from '../state/auth-forms';
import { requestGoogleAccessToken, requestGoogleCode } from './google';

/** `codeFlow`: the server holds a client secret (config `google_code_flow`), so it takes a code. */
export async function signInWithGoogle(clientId: string, codeFlow = false): Promise<void> {
  const proof = codeFlow
    ? { code: await requestGoogleCode(clientId) }
    : { access_token: await requestGoogleAccessToken(clientId) };
  const r = await loginWithGoogle(proof);
  setTokens({ access: r.access, refresh: r.refresh, device: r.device });
  if (r.action === 'registered') {
    try {
      await completeRegistration(r.username, storedReferralLink());
    } catch (err) {
      console.warn(toApiFailure(err, 'Complete registration failed').message);
    }
  }
  await refreshCurrentUser();
}
