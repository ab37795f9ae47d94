// Accounts (spec §7 Auth, decisions §4–5): requests and answers of every /auth/* call. Field rules
// and messages are spec §5's, so the server refuses exactly what the client's forms refuse.
import { z } from 'zod';
import { USERNAME_MAX, USERNAME_MIN } from '../constants';
import { isValidEmail, isValidPassword, usernameCharsProblem } from '../validation';

export const EMAIL_INVALID = 'Enter a valid email';
export const PASSWORD_INVALID = 'Use 8 or more characters mixing letters and numbers';
export const PASSWORDS_DIFFER = 'Passwords do not match';
export const EMAIL_IN_USE = 'This email is already in use.';
export const USERNAME_TAKEN = 'username is already taken';
export const USERNAME_CHARACTERS = 'Username contains invisible or look-alike characters';
export const PASSWORD_REQUIRED = 'Enter your password';
export const PASSWORD_WRONG = 'Wrong password';

const PASSWORD_MAX = 128;

/** One plain address (shared/validation.ts: never a list, a display name or a quoted part), trimmed and lower-cased. */
export const emailField = z.string().trim().toLowerCase().refine(isValidEmail, EMAIL_INVALID);

export const passwordField = z.string().refine((v) => v.length <= PASSWORD_MAX && isValidPassword(v), PASSWORD_INVALID);

/** What a login form sends: not checked against the rule, so old passwords keep working. */
const anyPassword = z.string().min(1, PASSWORD_REQUIRED).max(PASSWORD_MAX);

/** Random 32-byte tokens travel base64url-encoded (43 characters); anything far off is refused. */
const linkToken = z.string().min(1).max(200);

export const usernameField = z
  .string()
  .trim()
  .min(USERNAME_MIN, `Username must be at least ${USERNAME_MIN} characters`)
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters`)
  .refine((v) => usernameCharsProblem(v) === null, USERNAME_CHARACTERS);

const walletAddress = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'Invalid wallet address');

// ---- requests ----

export const registerRequestSchema = z
  .object({ email: emailField, password: passwordField, confirm_password: z.string().max(PASSWORD_MAX) })
  .refine((b) => b.password === b.confirm_password, { message: PASSWORDS_DIFFER, path: ['confirm_password'] });
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const loginByEmailRequestSchema = z.object({ email: emailField, password: anyPassword });
export type LoginByEmailRequest = z.input<typeof loginByEmailRequestSchema>;

/** Wallet login and binding: the signed text carries `timestamp` (ms since the epoch). */
export const walletRequestSchema = z.object({
  address: walletAddress,
  signature: z.string().regex(/^0x[0-9a-fA-F]{128,1024}$/, 'Invalid signature'),
  timestamp: z.union([z.number().int().min(0).max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[1-9][0-9]{0,15}$/)]),
});
export type WalletRequest = z.input<typeof walletRequestSchema>;

export const refreshRequestSchema = z.object({ refresh: z.string().min(1).max(200) });
export type RefreshRequest = z.input<typeof refreshRequestSchema>;

export const tokenParamsSchema = z.object({ token: linkToken });

export const passwordResetRequestSchema = z.object({ email: emailField });
export type PasswordResetRequest = z.input<typeof passwordResetRequestSchema>;

export const passwordResetConfirmRequestSchema = z.object({ token: linkToken, new_password: passwordField });
export type PasswordResetConfirmRequest = z.input<typeof passwordResetConfirmRequestSchema>;

/**
 * `password` is required when the account has one (decisions §12: a stolen access token alone must
 * not move the address); the route decides, since only it knows the account.
 */
export const changeEmailRequestSchema = z.object({ new_email: emailField, password: z.string().max(PASSWORD_MAX).optional() });
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

export const confirmEmailChangeQuerySchema = z.object({ email: emailField });

/** The token of the undo link mailed to the old address after an e-mail change. */
export const undoEmailChangeRequestSchema = z.object({ token: linkToken });
export type UndoEmailChangeRequest = z.input<typeof undoEmailChangeRequestSchema>;

/**
 * `refresh`: the refresh token of the device that changes the password, when it is signed in as
 * the same player; that device alone gets a new token pair (every other session is signed out).
 */
export const confirmPasswordChangeRequestSchema = z
  .object({ token: linkToken, new_password: passwordField, confirm_new_password: z.string().max(PASSWORD_MAX), refresh: z.string().max(256).optional() })
  .refine((b) => b.new_password === b.confirm_new_password, { message: PASSWORDS_DIFFER, path: ['confirm_new_password'] });
export type ConfirmPasswordChangeRequest = z.input<typeof confirmPasswordChangeRequestSchema>;

export const addEmailPasswordRequestSchema = z
  .object({ email: emailField, password: passwordField, confirm_password: z.string().max(PASSWORD_MAX) })
  .refine((b) => b.password === b.confirm_password, { message: PASSWORDS_DIFFER, path: ['confirm_password'] });
export type AddEmailPasswordRequest = z.input<typeof addEmailPasswordRequestSchema>;

/** The token flow sends Google's `access_token`; the code flow (spec §7) sends the popup's `code`. */
export const googleRequestSchema = z.union([
  z.object({ access_token: z.string().min(1).max(4096) }),
  z.object({ code: z.string().min(1).max(2048) }),
]);
export type GoogleRequest = z.input<typeof googleRequestSchema>;

export const completeRegistrationRequestSchema = z.object({
  username: usernameField,
  /** The full link the visitor arrived with; its `refCode` names the referrer. */
  referral_link: z.string().max(2048).nullish(),
});
export type CompleteRegistrationRequest = z.input<typeof completeRegistrationRequestSchema>;

// ---- answers ----

export const detailSchema = z.object({ detail: z.string() });
export type DetailResponse = z.infer<typeof detailSchema>;

export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

export const accessSchema = z.object({ access: z.string() });
export type AccessResponse = z.infer<typeof accessSchema>;

export const googleResponseSchema = tokenPairSchema.extend({
  action: z.enum(['registered', 'logged_in']),
  username: z.string(),
});
export type GoogleResponse = z.infer<typeof googleResponseSchema>;

export const registerResponseSchema = z.object({ detail: z.string(), email: z.string() });
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const emailChangedSchema = z.object({ detail: z.string(), email: z.string() });
export type EmailChangedResponse = z.infer<typeof emailChangedSchema>;

/** A confirmed e-mail change; `access`/`refresh` only when the link was opened signed in as that player. */
export const emailChangeConfirmedSchema = emailChangedSchema.extend({ access: z.string().optional(), refresh: z.string().optional() });
export type EmailChangeConfirmedResponse = z.infer<typeof emailChangeConfirmedSchema>;

/** A password change; `access`/`refresh` only for the device that sent its own live refresh token. */
export const passwordChangedSchema = z.object({ detail: z.string(), access: z.string().optional(), refresh: z.string().optional() });
export type PasswordChangedResponse = z.infer<typeof passwordChangedSchema>;

/** A password reset, with the address the reset link proved (the login dialog fills it in). */
export const passwordResetDoneSchema = z.object({ detail: z.string(), email: z.string() });
export type PasswordResetDoneResponse = z.infer<typeof passwordResetDoneSchema>;

export const walletBoundSchema = z.object({ detail: z.string(), wallet_address: z.string() });
export type WalletBoundResponse = z.infer<typeof walletBoundSchema>;

export const completeRegistrationResponseSchema = z.object({
  detail: z.string(),
  username: z.string(),
  /** Whether this call recorded a referrer. */
  referrer_recorded: z.boolean(),
});
export type CompleteRegistrationResponse = z.infer<typeof completeRegistrationResponseSchema>;

/** GET /auth/me. `email` and `wallet_address` are '' when the account has none. */
export const meSchema = z.object({
  username: z.string(),
  email: z.string(),
  wallet_address: z.string(),
  balance: z.number().int(),
  /** PXT, at most 6 decimals. */
  token: z.number(),
  gems: z.number().int(),
  referral_link: z.string(),
  password_set: z.boolean(),
  /** Has a mining session that is not claimed yet. */
  mining: z.boolean(),
  ico: z.boolean(),
  language: z.boolean(),
});
export type Me = z.infer<typeof meSchema>;
