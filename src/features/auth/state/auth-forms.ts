// Shared state of the sign-in flows (spec §3 forms): the registration form is kept so the
// confirm-registration modal can show the e-mail and send the registration again. In memory only.
import { atom } from 'jotai';
import { STORAGE_KEYS } from '@shared/constants';

export interface RegistrationForm {
  email: string;
  password: string;
  confirm_password: string;
}
export const registrationAtom = atom<RegistrationForm | null>(null);

/**
 * The address last typed in a sign-in dialog (login, register, forgot password), so the next one
 * opens with it (issue 24: register → "I already have an account" → "Forgot password?" asked for
 * it three times). In memory only.
 */
export const typedEmailAtom = atom('');

/** The full link the visitor arrived with (`refCode`), saved by the query handler. */
export function storedReferralLink(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.referral);
  } catch {
    return null;
  }
}
