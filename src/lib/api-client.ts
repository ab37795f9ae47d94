// The one HTTP client of the app (ofetch). Base /api/v1/, JSON, bearer token unless a call says
// `skipAuth`, an Idempotency-Key on every state-changing call (decisions §4), and on a 401 ONE
// renewal of the access token (POST auth/refresh/ {refresh} → {access}) then a retry; if the
// server refuses the refresh token the player is signed out, while a renewal that only could not
// happen now (429 rate_limited, 5xx, offline) keeps the session and fails the call instead.
// A refused renewal opens the login with the reason ('sessionEnded'). A call with no answer within
// API_TIMEOUT_MS fails as if the network were down.
import { ofetch, type FetchOptions } from 'ofetch';
import { API_BASE, API_TIMEOUT_MS } from '@shared/constants';
import { getAccessToken, getRefreshToken, setAccessToken, signOut } from './session';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface ApiOptions {
  method?: HttpMethod;
  body?: Record<string, unknown> | unknown[];
  query?: Record<string, string | number | boolean | undefined>;
  /** Send no bearer token and never try a refresh (sign-in, registration, e-mail links). */
  skipAuth?: boolean;
  /** The Idempotency-Key to send (the outbox passes its own so a replay is recognised). */
  idempotencyKey?: string;
  /** Extra headers (X-Device on sign-in calls, X-Registration on a registration link). */
  headers?: Record<string, string>;
  /** Aborts the call; it then replaces API_TIMEOUT_MS (ofetch keeps one or the other). */
  signal?: AbortSignal;
}

const raw = ofetch.create({
  baseURL: `${API_BASE}/`,
  retry: 0,
  timeout: API_TIMEOUT_MS,
  credentials: 'same-origin',
  headers: { Accept: 'application/json' },
});

export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  // randomUUID needs a secure context; a LAN address in development is not one.
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const statusOf = (err: unknown) =>
  (err as { status?: number; response?: { status?: number } })?.status ??
  (err as { response?: { status?: number } })?.response?.status;

/**
 * How a renewal ended: a new access token; the session is over (the server refused the refresh
 * token); or no verdict (rate limited, server down, offline), when the player stays signed in
 * and the caller gets that error to retry later.
 */
export type Renewal = { outcome: 'renewed' } | { outcome: 'over' } | { outcome: 'later'; error: unknown };

let refreshing: Promise<Renewal> | null = null;

/** Renews the access token once for all callers waiting on it. */
export function refreshAccessToken(): Promise<Renewal> {
  const refresh = getRefreshToken();
  if (!refresh) return Promise.resolve({ outcome: 'over' });
  refreshing ??= raw<{ access?: string }>('auth/refresh/', { method: 'POST', body: { refresh } })
    .then((r): Renewal => {
      if (!r?.access) return { outcome: 'over' };
      setAccessToken(r.access);
      return { outcome: 'renewed' };
    })
    .catch((err): Renewal => {
      console.warn('Refresh token failed', err);
      const status = statusOf(err);
      return status === 400 || status === 401 || status === 403
        ? { outcome: 'over' }
        : { outcome: 'later', error: err };
    })
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const { skipAuth = false, idempotencyKey, method = 'GET', headers: extra, ...rest } = options;
  const key = method !== 'GET' ? (idempotencyKey ?? newIdempotencyKey()) : idempotencyKey;
  const send = () => {
    const headers: Record<string, string> = { ...extra };
    const token = skipAuth ? null : getAccessToken();
    if (token) headers.Authorization = `Bearer ${token}`;
    // The interface's language, kept on the account for the mails the server writes (decisions §13).
    const lang = typeof document === 'undefined' ? '' : document.documentElement.lang;
    if (lang) headers['X-Language'] = lang;
    if (key) headers['Idempotency-Key'] = key;
    return raw<T>(path, { ...(rest as FetchOptions<'json'>), method, headers });
  };
  try {
    return await send();
  } catch (err) {
    if (skipAuth || statusOf(err) !== 401) throw err;
    if (!getRefreshToken()) {
      if (getAccessToken()) await signOut();
      throw err;
    }
    const renewal = await refreshAccessToken();
    if (renewal.outcome === 'later') throw renewal.error;
    if (renewal.outcome === 'over') {
      // The session was ended (elsewhere, by a password change, or it expired): say so and offer
      // the login at once instead of leaving a half-signed-in page.
      await signOut('sessionEnded');
      throw err;
    }
    return await send();
  }
}
