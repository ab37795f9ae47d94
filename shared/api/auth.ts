// Accounts (spec §7 Auth, decisions §4–5): requests and answers of every /auth/* call. Field rules
// and messages are spec §5's, so the server refuses exactly what the client's forms refuse.
import { z } from 'zod';
import { PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN } from '../constants';
import { EMAIL_MAX, isValidEmail, isValidPassword, usernameCharsProblem } from '../validation';

export const EMAIL_INVALID = 'Enter a valid email';
export const PASSWORD_INVALID = 'Use 8 or more characters mixing letters and numbers';
export const PASSWORDS_DIFFER = 'Passwords do not match';
export const EMAIL_IN_USE = 'This email is already in use.';
export const USERNAME_TAKEN = 'username is already taken';
export const USERNAME_CHARACTERS = 'Username contains invisible or look-alike characters';
export const PASSWORD_REQUIRED = 'Enter your password';
export const PASSWORD_WRONG = 'Wrong password';
export const REAUTH_REQUIRED = 'Confirm it is you first: enter your password or sign with your wallet.';

const PASSWORD_MAX = 128;

/** One plain address (shared/validation.ts: never a list, a display name or a quoted part), trimmed and lower-cased. */
export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isValidEmail, EMAIL_INVALID)
  .meta({
    description: `One plain address (local@domain.tld, at most ${EMAIL_MAX} characters), trimmed and lower-cased.`,
    example: 'player@example.com',
  });

export const passwordField = z
  .string()
  .refine((v) => v.length <= PASSWORD_MAX && isValidPassword(v), PASSWORD_INVALID)
  .meta({
    description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters with at least one letter and one digit.`,
    example: 'secret123',
  });

/** The password typed again (refused unless equal to it). */
const confirmField = z
  .string()
  .max(PASSWORD_MAX)
  .meta({ description: 'The same password again.', example: 'secret123' });

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

/**
 * Proof of a sign-in method the account already has (decisions §13), sent with every call that adds
 * or removes a method or changes the e-mail: the password, or a `reauth` string from /auth/reauth/.
 */
export const proofFields = {
  password: z.string().max(PASSWORD_MAX).optional(),
  reauth: z.string().min(1).max(200).optional(),
};
export const proofSchema = z.object(proofFields);
export type Proof = z.input<typeof proofSchema>;

export const registerRequestSchema = z
  .object({ email: emailField, password: passwordField, confirm_password: confirmField })
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

/** Linking a wallet: the new wallet's signature of the bind text, and proof of the account. */
export const addWalletRequestSchema = walletRequestSchema.extend(proofFields);
export type AddWalletRequest = z.input<typeof addWalletRequestSchema>;

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
export const changeEmailRequestSchema = z.object({ new_email: emailField, ...proofFields });
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
  .object({
    token: linkToken,
    new_password: passwordField,
    confirm_new_password: confirmField,
    refresh: z.string().max(256).optional(),
  })
  .refine((b) => b.new_password === b.confirm_new_password, {
    message: PASSWORDS_DIFFER,
    path: ['confirm_new_password'],
  });
export type ConfirmPasswordChangeRequest = z.input<typeof confirmPasswordChangeRequestSchema>;

/** `password` is the new one; proof is `reauth` (an account with an e-mail password changes it elsewhere). */
export const addEmailPasswordRequestSchema = z
  .object({ email: emailField, password: passwordField, confirm_password: confirmField, reauth: proofFields.reauth })
  .refine((b) => b.password === b.confirm_password, { message: PASSWORDS_DIFFER, path: ['confirm_password'] });
export type AddEmailPasswordRequest = z.input<typeof addEmailPasswordRequestSchema>;

/** The token flow sends Google's `access_token`; the code flow (spec §7) sends the popup's `code`. */
/** With a bearer token the call links Google to that account instead, with proof in `reauth` (decisions §13). */
export const googleRequestSchema = z.union([
  z.object({ access_token: z.string().min(1).max(4096), reauth: proofFields.reauth }),
  z.object({ code: z.string().min(1).max(2048), reauth: proofFields.reauth }),
]);
export type GoogleRequest = z.input<typeof googleRequestSchema>;

/** The Telegram Login Widget's fields, as its callback gets them (https://core.telegram.org/widgets/login). */
export const telegramLoginSchema = z.object({
  id: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  first_name: z.string().max(256),
  last_name: z.string().max(256).optional(),
  username: z.string().max(64).optional(),
  photo_url: z.string().max(2048).optional(),
  auth_date: z.coerce.number().int().positive(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TelegramLogin = z.input<typeof telegramLoginSchema>;

/**
 * POST /auth/telegram/ (decisions §14): the Mini App's raw init data, or the Login Widget's fields.
 * Signed in: links Telegram to that account instead, with proof (`password` or `reauth`).
 */
export const telegramRequestSchema = z.union([
  z.object({ init_data: z.string().min(1).max(4096), ...proofFields }),
  z.object({ login: telegramLoginSchema, ...proofFields }),
]);
export type TelegramRequest = z.input<typeof telegramRequestSchema>;

/**
 * POST /auth/reauth/: any one sign-in proof of the signed-in player (decisions §13) — the password,
 * the account's wallet signing walletReauthText, a Google access token of the linked Google account,
 * or Telegram's init data (Mini App) or Login Widget fields (web) — answers a single-use `reauth` string valid 5 minutes.
 */
export const reauthRequestSchema = z.union([
  z.object({ password: anyPassword }),
  walletRequestSchema,
  z.object({ access_token: z.string().min(1).max(4096) }),
  z.object({ init_data: z.string().min(1).max(4096) }),
  z.object({ login: telegramLoginSchema }),
]);
export type ReauthRequest = z.input<typeof reauthRequestSchema>;

export const METHOD_KINDS = ['password', 'wallet', 'google', 'telegram', 'discord'] as const;
export type MethodKind = (typeof METHOD_KINDS)[number];
export const methodParamsSchema = z.object({ kind: z.enum(METHOD_KINDS) });
export const sessionParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) });

export const completeRegistrationRequestSchema = z.object({
  username: usernameField,
  /** The full link the visitor arrived with; its `refCode` names the referrer. */
  referral_link: z.string().max(2048).nullish(),
});
export type CompleteRegistrationRequest = z.input<typeof completeRegistrationRequestSchema>;

// ---- answers ----

export const detailSchema = z.object({ detail: z.string() });
/** Every other browser signed out: a known-device string of the account's new generation for this one. */
export const othersSignedOutSchema = detailSchema.extend({ device: z.string() });
export type OthersSignedOutResponse = z.infer<typeof othersSignedOutSchema>;
export type DetailResponse = z.infer<typeof detailSchema>;

/**
 * What every sign-in answers: the tokens of a new session, and `device`, the known-device string the
 * browser keeps for this account and sends back in X-Device (decisions §13).
 */
export const tokenPairSchema = z.object({ access: z.string(), refresh: z.string(), device: z.string().optional() });
export type TokenPair = z.infer<typeof tokenPairSchema>;

export const accessSchema = z.object({ access: z.string() });
export type AccessResponse = z.infer<typeof accessSchema>;

export const googleResponseSchema = tokenPairSchema.extend({
  action: z.enum(['registered', 'logged_in']),
  username: z.string(),
});
export type GoogleResponse = z.infer<typeof googleResponseSchema>;

/** A Telegram sign-in answers like Google's: a new player (`registered`) chooses a username next. */
export const telegramResponseSchema = googleResponseSchema;
export type TelegramResponse = GoogleResponse;

/** `registration`: kept by the registering browser and sent back as X-Registration with the link. */
export const registerResponseSchema = z.object({ detail: z.string(), email: z.string(), registration: z.string() });

/**
 * The registration link opened: signed in. `password_set` false when the link was opened without the
 * registering browser's X-Registration (decisions §13); `password_token` then lets the opener choose
 * a password at once (POST /auth/confirm-password-change/ with it).
 */
export const registrationConfirmedSchema = tokenPairSchema.extend({
  password_set: z.boolean(),
  password_token: z.string().optional(),
});
export type RegistrationConfirmed = z.infer<typeof registrationConfirmedSchema>;

/** GET /auth/confirm-email/{token}/: a registration (tokens of a new session), or an address added to the signed-in account (no tokens). */
export const emailConfirmedSchema = registrationConfirmedSchema
  .partial()
  .extend({ detail: z.string(), password_set: z.boolean() });
export type EmailConfirmed = z.infer<typeof emailConfirmedSchema>;

export const reauthResponseSchema = z.object({ reauth: z.string(), expires_at: z.string() });
export type ReauthResponse = z.infer<typeof reauthResponseSchema>;

export const methodsSchema = z.object({
  methods: z.array(z.object({ kind: z.enum(METHOD_KINDS), label: z.string(), added_at: z.string().nullable() })),
});
export type MethodsResponse = z.infer<typeof methodsSchema>;

export const sessionsSchema = z.object({
  sessions: z.array(
    z.object({
      id: z.number().int(),
      device: z.string(),
      address: z.string(),
      created_at: z.string(),
      last_used_at: z.string(),
      current: z.boolean(),
    }),
  ),
});
export type SessionsResponse = z.infer<typeof sessionsSchema>;
export type RegisterResponse = z.infer<typeof registerResponseSchema>;

export const emailChangedSchema = z.object({ detail: z.string(), email: z.string() });
export type EmailChangedResponse = z.infer<typeof emailChangedSchema>;

/**
 * A confirmed e-mail change, with a known-device string of the account's new generation for the
 * confirming browser (every other one was signed out). `access`/`refresh`: what an older server
 * answered instead of keeping the session.
 */
export const emailChangeConfirmedSchema = emailChangedSchema.extend({
  access: z.string().optional(),
  refresh: z.string().optional(),
  device: z.string(),
});
export type EmailChangeConfirmedResponse = z.infer<typeof emailChangeConfirmedSchema>;

/** A password change; `access`/`refresh` only for the device that sent its own live refresh token. */
export const passwordChangedSchema = z.object({
  detail: z.string(),
  access: z.string().optional(),
  refresh: z.string().optional(),
  device: z.string().optional(),
});
export type PasswordChangedResponse = z.infer<typeof passwordChangedSchema>;

/** A password reset, with the address the reset link proved (the login dialog fills it in). */
export const passwordResetDoneSchema = z.object({
  detail: z.string(),
  email: z.string(),
  /** A known-device string of the account's new generation, for the browser that opened the link. */
  device: z.string(),
});
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
