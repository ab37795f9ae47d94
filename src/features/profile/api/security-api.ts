// The profile's security calls (decisions §13): sign-in methods and sessions. Removing a method
// needs proof (lib/reauth.ts asks for it when the server does).
import type { DetailResponse, MethodKind, MethodsResponse, SessionsResponse } from '@shared/api/auth';
import { api } from '@/lib/api-client';
import type { Proof } from '@/lib/reauth';

export const getMethods = () => api<MethodsResponse>('auth/methods/');

export const removeMethod = (kind: MethodKind, proof: Proof) =>
  api<DetailResponse>(`auth/methods/${encodeURIComponent(kind)}/`, { method: 'DELETE', body: { ...proof } });

export const getSessions = () => api<SessionsResponse>('auth/sessions/');

export const endSession = (id: number) => api<DetailResponse>(`auth/sessions/${id}/`, { method: 'DELETE' });

/** Ends every session of the account except this one. */
export const logoutEverywhereElse = () => api<DetailResponse>('auth/logout-all/', { method: 'POST' });
