// Signing in again after a session ended elsewhere: the app may still be waiting on a /auth/me it
// sent for the ended session when the new sign-in asks for the player's record. The sign-in used to
// be handed that older fetch: its dialog closed with no record (the page it should return to waited
// for one, a CI failure of the session-ended browser test), and the older fetch's failure then
// marked the signed-in player as not authenticated.
import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import { playerRecord } from './player-record';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

// The ended session's fetch gets its answer only when the test says so.
let answerOld!: (r: Response) => void;
const oldAnswer = new Promise<Response>((r) => (answerOld = r));
const meCalls: string[] = [];
vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
  const path = new URL(String(input), 'http://localhost').pathname;
  const auth = new Headers(init.headers).get('authorization') ?? '';
  if (!path.endsWith('/auth/me')) return json({ detail: 'not found' }, 404);
  meCalls.push(auth);
  return auth === 'Bearer old' ? oldAnswer : json(playerRecord('punk2'));
});

const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const { currentUserAtom, refreshCurrentUser, userFetchFailedAtom, userStatusAtom } = await import('@/lib/current-user');

describe("the player's record after signing in again", () => {
  it("is fetched for the new sign-in, and the ended session's late answer changes nothing", async () => {
    session.setTokens({ access: 'old', refresh: 'old-refresh' });
    const ended = refreshCurrentUser(); // sent before the session was ended elsewhere
    await vi.waitFor(() => expect(meCalls).toEqual(['Bearer old']));

    session.setTokens({ access: 'new', refresh: 'new-refresh' }); // the login dialog's sign-in
    const me = await Promise.race([
      refreshCurrentUser(),
      new Promise<string>((r) => setTimeout(() => r('still waiting on the ended session'), 2000)),
    ]);
    expect(typeof me === 'string' ? me : me?.username).toBe('punk2');
    expect(meCalls).toEqual(['Bearer old', 'Bearer new']);
    expect(store.get(currentUserAtom)?.username).toBe('punk2');
    expect(store.get(userStatusAtom)).toBe('authenticated');

    answerOld(json({ detail: 'server error' }, 500));
    await ended;
    expect(store.get(currentUserAtom)?.username).toBe('punk2');
    expect(store.get(userStatusAtom)).toBe('authenticated');
    expect(store.get(userFetchFailedAtom)).toBe(false);
  });
});
