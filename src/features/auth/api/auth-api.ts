// The /auth/* calls of spec §7 (types from shared/api/auth.ts; only types, so zod stays server-side).
import type {
  AddEmailPasswordRequest,
  CompleteRegistrationResponse,
  ConfirmPasswordChangeRequest,
  DetailResponse,
  EmailChangeConfirmedResponse,
  EmailChangedResponse,
  GoogleResponse,
  PasswordChangedResponse,
  PasswordResetDoneResponse,
  RegisterRequest,
  RegisterResponse,
  TokenPair,
  WalletBoundResponse,
  WalletRequest,
} from '@shared/api/auth';
import { api } from '@/lib/api-client';
import { getRefreshToken, isSignedIn } from '@/lib/session';

export const loginByEmail = (email: string, password: string) =>
  api<TokenPair>('auth/login-by-email/', { method: 'POST', body: { email, password }, skipAuth: true });

export const register = (body: RegisterRequest) =>
  api<RegisterResponse>('auth/register/', { method: 'POST', body: { ...body }, skipAuth: true });

export const confirmEmail = (token: string) =>
  api<Partial<TokenPair>>(`auth/confirm-email/${encodeURIComponent(token)}/`, { skipAuth: true });

export const completeRegistration = (username: string, referralLink: string | null) =>
  api<CompleteRegistrationResponse>('auth/complete-registration/', { method: 'PATCH', body: { username, referral_link: referralLink } });

export const requestPasswordReset = (email: string) =>
  api<DetailResponse>('auth/password-reset/', { method: 'POST', body: { email }, skipAuth: true });

export const confirmPasswordReset = (token: string, newPassword: string) =>
  api<PasswordResetDoneResponse>('auth/password-reset-confirm/', { method: 'POST', body: { token, new_password: newPassword }, skipAuth: true });

/** `password` only when the account has one (decisions §12). */
export const changeEmail = (newEmail: string, password?: string) =>
  api<DetailResponse>('auth/change-email/', { method: 'POST', body: { new_email: newEmail, ...(password === undefined ? {} : { password }) } });

/** Signed in, the bearer goes along: the server then answers this browser a fresh token pair. */
export const confirmEmailChange = (token: string, email: string) =>
  api<EmailChangeConfirmedResponse>(`auth/confirm-email-change/${encodeURIComponent(token)}/`, { query: { email }, skipAuth: !isSignedIn() });

export const undoEmailChange = (token: string) =>
  api<EmailChangedResponse>('auth/undo-email-change/', { method: 'POST', body: { token }, skipAuth: true });

export const requestPasswordChange = () => api<DetailResponse>('auth/change-password-request/');

/** Sends this browser's refresh token, so the server keeps this browser signed in with a new pair. */
export const confirmPasswordChange = (body: ConfirmPasswordChangeRequest) =>
  api<PasswordChangedResponse>('auth/confirm-password-change/', {
    method: 'POST',
    body: { ...body, ...(getRefreshToken() ? { refresh: getRefreshToken()! } : {}) },
    skipAuth: true,
  });

export const addEmailPassword = (body: AddEmailPasswordRequest) =>
  api<DetailResponse>('auth/add-email-password/', { method: 'POST', body: { ...body } });

/** Token flow: Google's access token; code flow: the popup's authorization code. */
export const loginWithGoogle = (proof: { access_token: string } | { code: string }) =>
  api<GoogleResponse>('auth/google/', { method: 'POST', body: proof, skipAuth: true });

export const loginWithWallet = (body: WalletRequest) =>
  api<TokenPair>('auth/login/', { method: 'POST', body: { ...body }, skipAuth: true });

export const bindWallet = (body: WalletRequest) =>
  api<WalletBoundResponse>('auth/add-wallet/', { method: 'POST', body: { ...body } });
