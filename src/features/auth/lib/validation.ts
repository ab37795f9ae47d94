// Spec §5 field rules as functions that return the translation key of the message to show (or
// null). Pure, so the rules and their messages are unit-tested; the patterns come from shared/.
import { USERNAME_MAX, USERNAME_MIN } from '@shared/constants';
import { isValidEmail, isValidPassword, usernameCharsProblem } from '@shared/validation';

export type MessageKey = `validation.${string}`;

/** 'Enter a valid email' for a filled but malformed address; nothing while empty (untouched). */
export const emailMessage = (v: string): MessageKey | null =>
  v.trim() === '' || isValidEmail(v.trim()) ? null : 'validation.emailInvalid';

/** Update e-mail: required when empty, 'invalid email' when malformed. */
export const newEmailMessage = (v: string): MessageKey | null =>
  v.trim() === '' ? 'validation.emailRequired' : isValidEmail(v.trim()) ? null : 'validation.emailInvalidShort';

export const passwordMessage = (v: string): MessageKey | null =>
  v === '' || isValidPassword(v) ? null : 'validation.passwordRule';

/** The repeat field: must equal the password and also satisfy the password rule. */
export function confirmMessage(password: string, confirm: string): MessageKey | null {
  if (confirm === '') return null;
  if (confirm !== password) return 'validation.passwordsDiffer';
  return isValidPassword(confirm) ? null : 'validation.passwordRule';
}

/** Login button "looks active" (spec §5) with a valid e-mail and a password longer than 1 character. */
export const loginLooksActive = (email: string, password: string) => isValidEmail(email.trim()) && password.length > 1;
/** Login submit needs a valid e-mail and a password that fits the rule, else 'incorrect credentials'. */
export const loginCanSubmit = (email: string, password: string) =>
  isValidEmail(email.trim()) && isValidPassword(password);

export interface RegistrationFields {
  email: string;
  password: string;
  confirm: string;
  agreed: boolean;
}
/** Registration submit: valid e-mail, no password errors, all three fields filled (agreement checked at submit). */
export function registrationCanSubmit(f: RegistrationFields): boolean {
  return (
    f.email !== '' &&
    f.password !== '' &&
    f.confirm !== '' &&
    isValidEmail(f.email.trim()) &&
    passwordMessage(f.password) === null &&
    confirmMessage(f.password, f.confirm) === null
  );
}

/** Add e-mail and password / new password / update password: every field valid and filled. */
export function passwordPairValid(password: string, confirm: string): boolean {
  return password !== '' && confirm !== '' && isValidPassword(password) && confirmMessage(password, confirm) === null;
}

/** Invisible, direction-changing or look-alike characters (the shared rule the server applies too). */
const charsMessage = (v: string): MessageKey | null =>
  usernameCharsProblem(v.trim()) ? 'validation.usernameCharacters' : null;

/** First-time username (account details, spec §5). */
export function firstUsernameMessage(v: string): MessageKey | null {
  const n = v.trim().length;
  if (n === 0) return 'validation.usernameRequired';
  if (n < 4) return 'validation.usernameTooShort';
  return charsMessage(v); // exactly 4: no length message, but the button stays off (firstUsernameValid)
}
export const firstUsernameValid = (v: string) =>
  v.trim().length > 4 && v.trim().length <= USERNAME_MAX && charsMessage(v) === null;

/** Username update (spec §5): 5 to 15 characters. */
export function usernameMessage(v: string): MessageKey | null {
  const n = v.trim().length;
  if (n < USERNAME_MIN) return 'validation.usernameShort';
  if (n > USERNAME_MAX) return 'validation.usernameLong';
  return charsMessage(v);
}

/**
 * What the username field keeps of the typed text: composed (NFC) so an accent typed as a separate
 * mark is not refused as a look-alike, and capped at the spec's 15 characters.
 */
export const usernameInput = (typed: string) => typed.normalize('NFC').slice(0, USERNAME_MAX);
