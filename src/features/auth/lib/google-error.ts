// The text a failed Google sign-in shows (spec §8): Google's own error description, else 'Google
// auth error' when Google refused without one, 'Google login failed' when Google never answered
// (script, popup); a refusal of our server reads its message, else 'Failed to login with Google'.
import type { TFunction } from 'i18next';
import { authFailure } from './auth-failure';
import { GoogleAuthError } from './google';

export function googleErrorText(err: unknown, t: TFunction): string {
  if (err instanceof GoogleAuthError)
    return err.message || t(err.kind === 'auth' ? 'errors:auth.googleAuth' : 'errors:auth.googleLogin');
  return authFailure(err, t('errors:auth.google')).message;
}
