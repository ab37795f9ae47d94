// The API client against a scripted fetch: bearer token, Idempotency-Key, one refresh on a 401.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };
const calls: Call[] = [];
let script: ((c: Call) => Response)[] = [];

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => (headers[k] = v));
  const call = {
    url: String(input),
    method: init.method ?? 'GET',
    headers,
    body: init.body ? JSON.parse(String(init.body)) : undefined,
  };
  calls.push(call);
  const next = script.shift();
  if (!next) throw new Error(`unexpected call ${call.method} ${call.url}`);
  return next(call);
});

const { api } = await import('@/lib/api-client');
const session = await import('@/lib/session');

describe('api client', () => {
  beforeEach(() => {
    calls.length = 0;
    script = [];
    session.setTokens({ access: 'old-access', refresh: 'refresh-1' });
  });
  afterEach(() => expect(script).toEqual([]));

  it('sends the bearer token, and an Idempotency-Key on state-changing calls', async () => {
    script = [() => json(200, { ok: 1 }), () => json(200, { ok: 2 })];
    expect(await api('auth/me')).toEqual({ ok: 1 });
    await api('mining/claim/', { method: 'POST', body: { a: 1 } });
    expect(calls[0].url).toBe('/api/v1/auth/me');
    expect(calls[0].headers.authorization).toBe('Bearer old-access');
    expect(calls[0].headers['idempotency-key']).toBeUndefined();
    expect(calls[1].headers['idempotency-key']).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(calls[1].body).toEqual({ a: 1 });
  });

  it('skipAuth sends no token and never refreshes', async () => {
    script = [() => json(401, { detail: 'no', code: 'token_not_valid' })];
    await expect(api('auth/login-by-email/', { method: 'POST', body: {}, skipAuth: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(calls[0].headers.authorization).toBeUndefined();
  });

  it('on a 401 refreshes once, stores only the new access token and retries with the same key', async () => {
    script = [
      () => json(401, { detail: 'expired', code: 'token_not_valid' }),
      (c) => (expect(c.body).toEqual({ refresh: 'refresh-1' }), json(200, { access: 'new-access' })),
      () => json(200, { done: true }),
    ];
    expect(await api('mining/start/', { method: 'POST' })).toEqual({ done: true });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /api/v1/mining/start/',
      'POST /api/v1/auth/refresh/',
      'POST /api/v1/mining/start/',
    ]);
    expect(calls[2].headers.authorization).toBe('Bearer new-access');
    expect(calls[2].headers['idempotency-key']).toBe(calls[0].headers['idempotency-key']);
    expect(session.getAccessToken()).toBe('new-access');
    expect(session.getRefreshToken()).toBe('refresh-1');
  });

  it('signs out when the refresh is refused', async () => {
    let signedOut = 0;
    const off = session.onSignedOut(() => signedOut++);
    script = [() => json(401, { detail: 'expired' }), () => json(401, { detail: 'Token is invalid or expired' })];
    await expect(api('auth/me')).rejects.toMatchObject({ status: 401 });
    expect(session.isSignedIn()).toBe(false);
    expect(signedOut).toBe(1);
    off();
  });

  it('keeps the session when the refresh is rate limited, fails or is offline, and fails the call with that answer', async () => {
    let signedOut = 0;
    const off = session.onSignedOut(() => signedOut++);
    script = [
      () => json(401, { detail: 'expired', code: 'token_not_valid' }),
      () =>
        new Response(JSON.stringify({ detail: 'Too many requests. Try again in 12 seconds.', code: 'rate_limited' }), {
          status: 429,
          headers: { 'content-type': 'application/json', 'retry-after': '12' },
        }),
      () => json(401, { detail: 'expired', code: 'token_not_valid' }),
      () => json(503, { detail: 'The server is restarting; try again.', code: 'shutting_down' }),
      () => json(401, { detail: 'expired', code: 'token_not_valid' }),
      () => Promise.reject(new TypeError('Failed to fetch')) as never,
    ];
    await expect(api('mining/claim/', { method: 'POST' })).rejects.toMatchObject({
      status: 429,
      data: { code: 'rate_limited' },
    });
    await expect(api('auth/me')).rejects.toMatchObject({ status: 503 });
    await expect(api('auth/me')).rejects.toBeTruthy();
    expect(signedOut).toBe(0);
    expect(session.isSignedIn()).toBe(true);
    expect(session.getRefreshToken()).toBe('refresh-1');
    off();
  });

  it('shares one refresh between calls that fail together', async () => {
    script = [
      () => json(401, {}),
      () => json(401, {}),
      () => json(200, { access: 'fresh' }),
      () => json(200, { n: 1 }),
      () => json(200, { n: 2 }),
    ];
    const both = await Promise.all([api('a/'), api('b/')]);
    expect(both).toHaveLength(2);
    expect(calls.filter((c) => c.url.endsWith('auth/refresh/'))).toHaveLength(1);
  });
});

describe('current user fetch', () => {
  beforeEach(() => {
    calls.length = 0;
    script = [];
    session.setTokens({ access: 'a', refresh: 'r' });
  });

  it('stores /auth/me in Dexie and the shell mirror; a server failure is flagged, offline is not', async () => {
    const { refreshCurrentUser, currentUserAtom, userFetchFailedAtom, userStatusAtom } =
      await import('@/lib/current-user');
    const { store } = await import('@/lib/store');
    const { db } = await import('@/lib/db');
    const me = {
      username: 'punk1',
      email: '',
      wallet_address: '',
      balance: 3,
      token: 0.5,
      gems: 0,
      referral_link: 'x',
      password_set: true,
      mining: false,
      ico: false,
      language: false,
    };
    script = [() => json(200, me)];
    expect(await refreshCurrentUser()).toEqual(me);
    expect(await db.user.get('me')).toMatchObject({ ...me, key: 'me' });
    expect(store.get(currentUserAtom)).toMatchObject(me);
    expect(store.get(userStatusAtom)).toBe('authenticated');

    script = [() => json(500, { detail: 'boom' })];
    expect(await refreshCurrentUser()).toMatchObject(me);
    expect(store.get(userFetchFailedAtom)).toBe(true);

    script = [() => Promise.reject(new TypeError('Failed to fetch')) as never];
    expect(await refreshCurrentUser()).toMatchObject(me);
    expect(store.get(userFetchFailedAtom)).toBe(false);
    expect(store.get(userStatusAtom)).toBe('authenticated');

    // What the server has now (the reward moment's balance): the cached record is not that.
    const { serverCurrentUser } = await import('@/lib/current-user');
    script = [() => Promise.reject(new TypeError('Failed to fetch')) as never];
    expect(await serverCurrentUser()).toBeNull();
    script = [() => json(500, { detail: 'boom' })];
    expect(await serverCurrentUser()).toBeNull();
    script = [() => json(200, { ...me, token: 2.5 })];
    expect(await serverCurrentUser()).toMatchObject({ token: 2.5 });

    // A fetch already under way read the record before the caller's change (a claim made while the
    // countdown's refresh was out): the answer must come from a fetch started after the call.
    let answerEarly: ((r: Response) => void) | null = null;
    script = [() => new Promise<Response>((r) => (answerEarly = r)) as never, () => json(200, { ...me, token: 10.5 })];
    const early = refreshCurrentUser();
    await vi.waitFor(() => expect(answerEarly).not.toBeNull());
    const after = serverCurrentUser();
    answerEarly!(json(200, { ...me, token: 2.5 }));
    expect(await early).toMatchObject({ token: 2.5 });
    expect(await after).toMatchObject({ token: 10.5 });
  });
});
