// The offline outbox and a session ended on another device (decisions §10, §13), against a scripted
// server: a queued claim whose refresh is refused stays queued (never retried while signed out,
// never dropped), the player is signed out with the reason, and the claim goes out once, with its
// original Idempotency-Key, when the same player signs in again; another player drops it unsent.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/lib/db';
import { modalStateAtom } from '@/lib/modal-state';
import { pendingCount, replayOutbox, rowVerdict, sendOrQueue } from '@/lib/outbox';
import * as session from '@/lib/session';
import { store } from '@/lib/store';

interface SeenCall {
  method: string;
  path: string;
  key: string | null;
  auth: string | null;
  body: unknown;
}
type Answer = { status: number; body: unknown } | 'network-down';

let answer: (call: SeenCall) => Answer = () => 'network-down';
const seen: SeenCall[] = [];

beforeEach(async () => {
  seen.length = 0;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers = new Headers(init?.headers);
    const call: SeenCall = {
      method: init?.method ?? 'GET',
      path: url.replace(/^.*\/api\/v1\//, ''),
      key: headers.get('Idempotency-Key'),
      auth: headers.get('Authorization'),
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    const a = answer(call);
    if (a === 'network-down') throw new TypeError('Failed to fetch');
    seen.push(call);
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } });
  });
  vi.spyOn(navigator, 'onLine', 'get').mockImplementation(() => true);
  await db.outbox.clear();
  store.set(modalStateAtom, { ...store.get(modalStateAtom), open: null, params: {} });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  store.set(session.accessTokenAtom, null);
  store.set(session.refreshTokenAtom, null);
});

const accessOf = (sub: number, n = 0) =>
  `h.${btoa(JSON.stringify({ sub, sid: n, typ: 'access' })).replace(/=+$/, '')}.s${n}`;
const rows = () => db.outbox.orderBy('id').toArray();

/** Player 7 queues a claim while offline; meanwhile the session is ended on another device. */
async function queuedClaimOfPlayer7(): Promise<string> {
  session.setTokens({ access: accessOf(7, 1), refresh: 'refresh-7a' });
  answer = () => 'network-down';
  const queued = await sendOrQueue({ method: 'POST', path: 'mining/claim/' });
  expect(queued.status).toBe('queued');
  const [row] = await rows();
  expect(row.owner).toBe('7');
  return row.key;
}

/** The server after the session was ended elsewhere: the old tokens are refused, the new session pays once. */
function serverAfterSessionEnded(newAccess: string) {
  const paid = new Set<string>();
  answer = (c) => {
    if (c.path === 'auth/refresh/')
      return (c.body as { refresh: string }).refresh === 'refresh-7a'
        ? { status: 401, body: { code: 'token_not_valid', detail: 'Token is invalid' } }
        : { status: 200, body: { access: newAccess } };
    if (c.auth !== `Bearer ${newAccess}`)
      return { status: 401, body: { code: 'token_not_valid', detail: 'Token is invalid' } };
    if (c.path === 'mining/claim/') {
      const first = !paid.has(c.key!);
      paid.add(c.key!);
      return { status: 200, body: { claimed: 10, replayed: !first } };
    }
    return { status: 200, body: {} };
  };
  return paid;
}

describe('a queued claim on a device whose session was ended elsewhere', () => {
  it('is kept (not failed, not dropped) when the refresh is refused; the player is signed out with the reason; no retry while signed out', async () => {
    await queuedClaimOfPlayer7();
    serverAfterSessionEnded(accessOf(7, 2));
    const summary = await replayOutbox();
    expect(summary).toMatchObject({ sent: 0, failed: 0, pending: 1 });
    expect((await rows()).map((r) => r.status)).toEqual(['pending']);
    expect(session.isSignedIn()).toBe(false);
    // No cached record with an e-mail here: the main sign-in, with the reason (lib/session.ts).
    expect(store.get(modalStateAtom)).toMatchObject({ open: 'main', params: { notice: 'sessionEnded' } });
    expect(seen.map((c) => c.path)).toEqual(['mining/claim/', 'auth/refresh/']);

    // Signed out: later replays send nothing at all.
    seen.length = 0;
    await replayOutbox();
    await replayOutbox();
    expect(seen).toEqual([]);
    expect(await pendingCount()).toBe(1);
  });

  it('goes out with its original Idempotency-Key once the same player signs in again, and is paid once', async () => {
    const key = await queuedClaimOfPlayer7();
    const fresh = accessOf(7, 2);
    const paid = serverAfterSessionEnded(fresh);
    await replayOutbox();
    expect(session.isSignedIn()).toBe(false);

    session.setTokens({ access: fresh, refresh: 'refresh-7b' });
    seen.length = 0;
    const summary = await replayOutbox();
    expect(summary).toMatchObject({ sent: 1, failed: 0, pending: 0, sentPaths: ['mining/claim/'] });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ path: 'mining/claim/', key, auth: `Bearer ${fresh}` });
    expect(paid).toEqual(new Set([key]));
    expect((await rows()).map((r) => r.status)).toEqual(['done']);
    // Nothing left to send: a further replay does not call again.
    await replayOutbox();
    expect(seen).toHaveLength(1);
  });

  it('is dropped, never sent, when another player signs in on this device', async () => {
    await queuedClaimOfPlayer7();
    serverAfterSessionEnded(accessOf(7, 2));
    await replayOutbox();
    const other = accessOf(8, 3);
    answer = (c) => (c.auth === `Bearer ${other}` ? { status: 200, body: {} } : { status: 401, body: {} });
    session.setTokens({ access: other, refresh: 'refresh-8' });
    seen.length = 0;
    const summary = await replayOutbox();
    expect(summary).toMatchObject({ sent: 0, failed: 0, pending: 0 });
    expect(seen).toEqual([]);
    expect(await rows()).toEqual([]);
  });

  it('a sign-out keeps the outbox while it clears the rest of the player’s data', async () => {
    await queuedClaimOfPlayer7();
    await db.boosts.put({ id: 1 });
    await session.signOut();
    expect(await pendingCount()).toBe(1);
    expect(await db.boosts.count()).toBe(0);
  });
});

describe('rowVerdict', () => {
  it('sends a row to its owner, waits while signed out, drops it for another account', () => {
    expect(rowVerdict({ owner: '7' }, true, '7')).toBe('send');
    expect(rowVerdict({ owner: '7' }, false, null)).toBe('wait');
    expect(rowVerdict({ owner: '7' }, true, '8')).toBe('drop');
    // Rows of older versions (no owner) go out as before.
    expect(rowVerdict({}, true, '8')).toBe('send');
    expect(rowVerdict({ owner: null }, false, null)).toBe('send');
  });
});
