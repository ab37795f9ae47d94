// The profile's security calls (decisions §13): sign-in methods and sessions. Removing a method
// needs proof (lib/reauth.ts asks for it when the server does). Removing a method and signing out
// every other browser make every known-device string of the account unknown: this browser keeps
// the new one the answer carries, so it stays a known device.
import type {
  DetailResponse,
  MethodKind,
  MethodsResponse,
  OthersSignedOutResponse,
  SessionsResponse,
} from '@shared/api/auth';
import { api } from '@/lib/api-client';
import { keepDevice } from '@/lib/devices';
import type { Proof } from '@/lib/reauth';
import { currentAccount } from '@/lib/session';

export const getMethods = () => api<MethodsResponse>('auth/methods/');

export const removeMethod = (kind: MethodKind, proof: Proof) =>
  keepDevice(
    api<OthersSignedOutResponse>(`auth/methods/${encodeURIComponent(kind)}/`, { method: 'DELETE', body: { ...proof } }),
    currentAccount(),
  );

export const getSessions = () => api<SessionsResponse>('auth/sessions/');

export const endSession = (id: number) => api<DetailResponse>(`auth/sessions/${id}/`, { method: 'DELETE' });

/** Ends every session of the account except this one. */
export const logoutEverywhereElse = () =>
  keepDevice(api<OthersSignedOutResponse>('auth/logout-all/', { method: 'POST' }), currentAccount());
