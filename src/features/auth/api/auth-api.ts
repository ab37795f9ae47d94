// The /auth/* calls of spec §7 (types from shared/api/auth.ts; only types, so zod stays server-side).
import type {
  AddEmailPasswordRequest,
  CompleteRegistrationResponse,
  ConfirmPasswordChangeRequest,
  DetailResponse,
  EmailChangeConfirmedResponse,
  EmailChangedResponse,
  GoogleResponse,
  MethodsResponse,
  PasswordChangedResponse,
  PasswordResetDoneResponse,
  RegisterRequest,
  ReauthRequest,
  ReauthResponse,
  RegisterResponse,
  RegistrationConfirmed,
  TelegramResponse,
  TokenPair,
  WalletBoundResponse,
  WalletRequest,
} from '@shared/api/auth';
import { api } from '@/lib/api-client';
import { deviceHeaders, keepDevice, rememberRegistration, registrationHeaders } from '@/lib/devices';
import type { Proof } from '@/lib/reauth';
import { currentAccount, getRefreshToken, isSignedIn } from '@/lib/session';

// Every sign-in call sends this browser's known-device strings (X-Device, decisions §13) and keeps
// the answer's `device` for its account (lib/devices.ts).

export const loginByEmail = (email: string, password: string) =>
  keepDevice(
    api<TokenPair>('auth/login-by-email/', {
      method: 'POST',
      body: { email, password },
      skipAuth: true,
      headers: deviceHeaders(),
    }),
  );

/** Keeps the answer's `registration`: this browser sends it back when it opens the link. */
export const register = async (body: RegisterRequest) => {
  const r = await api<RegisterResponse>('auth/register/', { method: 'POST', body: { ...body }, skipAuth: true });
  rememberRegistration(r.registration);
  return r;
};

/**
 * The registration link: with this browser's X-Registration the password typed at registration
 * counts; without (another browser) the answer says `password_set: false` and hands a
 * `password_token` to choose one at once.
 */
export const confirmRegistration = (token: string) =>
  keepDevice(
    api<Partial<RegistrationConfirmed>>(`auth/confirm-email/${encodeURIComponent(token)}/`, {
      skipAuth: true,
      headers: { ...registrationHeaders(), ...deviceHeaders() },
    }),
  );

/** The link of an address ADDED to an account: works only with that account's bearer (else 403 wrong_account). */
export const confirmAddedEmail = (token: string) =>
  keepDevice(
    api<{ detail: string; password_set?: boolean; device?: string }>(
      `auth/confirm-email/${encodeURIComponent(token)}/`,
      { skipAuth: !isSignedIn() },
    ),
    currentAccount(),
  );

/** POST /auth/reauth/ with one proof of this player: a single-use string valid 5 minutes. */
export const reauthenticate = (body: ReauthRequest) =>
  api<ReauthResponse>('auth/reauth/', { method: 'POST', body: { ...body }, headers: deviceHeaders() });

export const getMethods = () => api<MethodsResponse>('auth/methods/');

export const completeRegistration = (username: string, referralLink: string | null) =>
  api<CompleteRegistrationResponse>('auth/complete-registration/', {
    method: 'PATCH',
    body: { username, referral_link: referralLink },
  });

export const requestPasswordReset = (email: string) =>
  api<DetailResponse>('auth/password-reset/', { method: 'POST', body: { email }, skipAuth: true });

/** The answer's device string is the account's new generation's: the old ones were forgotten. */
export const confirmPasswordReset = (token: string, newPassword: string) =>
  keepDevice(
    api<PasswordResetDoneResponse>('auth/password-reset-confirm/', {
      method: 'POST',
      body: { token, new_password: newPassword },
      skipAuth: true,
    }),
  );

/** Proof (decisions §13): the password where the account has one, else a `reauth` string. */
export const changeEmail = (newEmail: string, proof: Proof = {}) =>
  api<DetailResponse>('auth/change-email/', { method: 'POST', body: { new_email: newEmail, ...proof } });

/**
 * Works only with the bearer of the account that asked (else 403 wrong_account); the session stays,
 * and so does this browser's standing as a known device (every other one was signed out).
 */
export const confirmEmailChange = (token: string, email: string) =>
  keepDevice(
    api<EmailChangeConfirmedResponse>(`auth/confirm-email-change/${encodeURIComponent(token)}/`, {
      query: { email },
      skipAuth: !isSignedIn(),
    }),
    currentAccount(),
  );

export const undoEmailChange = (token: string) =>
  api<EmailChangedResponse>('auth/undo-email-change/', { method: 'POST', body: { token }, skipAuth: true });

export const requestPasswordChange = () => api<DetailResponse>('auth/change-password-request/');

/** Sends this browser's refresh token, so the server keeps this browser signed in with a new pair. */
export const confirmPasswordChange = (body: ConfirmPasswordChangeRequest) =>
  keepDevice(
    api<PasswordChangedResponse>('auth/confirm-password-change/', {
      method: 'POST',
      body: { ...body, ...(getRefreshToken() ? { refresh: getRefreshToken()! } : {}) },
      skipAuth: true,
    }),
  );

export const addEmailPassword = (body: AddEmailPasswordRequest) =>
  api<DetailResponse>('auth/add-email-password/', { method: 'POST', body: { ...body } });

/** Token flow: Google's access token; code flow: the popup's authorization code. */
export const loginWithGoogle = (proof: { access_token: string } | { code: string }) =>
  keepDevice(
    api<GoogleResponse>('auth/google/', { method: 'POST', body: proof, skipAuth: true, headers: deviceHeaders() }),
  );

/** Signed in, the same call links Google to this account, with proof in `reauth`. */
export const linkGoogle = (google: { access_token: string } | { code: string }, reauth: string) =>
  api<{ detail: string; action: 'linked' }>('auth/google/', { method: 'POST', body: { ...google, reauth } });

export const loginWithWallet = (body: WalletRequest) =>
  keepDevice(
    api<TokenPair>('auth/login/', { method: 'POST', body: { ...body }, skipAuth: true, headers: deviceHeaders() }),
  );

/** The new wallet's signature of the bind text, and proof of the account (decisions §13). */
export const bindWallet = (body: WalletRequest, proof: Proof = {}) =>
  api<WalletBoundResponse>('auth/add-wallet/', { method: 'POST', body: { ...body, ...proof } });

/** The Login Widget's fields as its callback got them (the server checks Telegram's signature). */
export const loginWithTelegram = (login: Record<string, string>) =>
  keepDevice(
    api<TelegramResponse>('auth/telegram/', {
      method: 'POST',
      body: { login },
      skipAuth: true,
      headers: deviceHeaders(),
    }),
  );

/** Signed in, the same call links Telegram to this account, with proof (decisions §13). */
export const linkTelegram = (login: Record<string, string>, proof: Proof = {}) =>
  api<{ detail: string; action: 'linked' }>('auth/telegram/', { method: 'POST', body: { login, ...proof } });
