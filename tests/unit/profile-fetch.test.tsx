// Opening /profile asks the server for the player's record, unless the app has just fetched it:
// on a cold start the app's own start-up fetch was the one the page would have repeated (two
// /auth/me calls for one page on a modest phone, issue 25).
import 'fake-indexeddb/auto';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from './render-in-app';
import { playerRecord } from './player-record';

const me = playerRecord('punk1');
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const calls: string[] = [];
vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
  const path = new URL(String(input), 'http://localhost').pathname;
  calls.push(path);
  if (path.endsWith('/auth/me')) return json(me);
  if (path.endsWith('/auth/methods/')) return json({ methods: [{ kind: 'email', label: me.email, added_at: null }] });
  if (path.endsWith('/auth/sessions/')) return json({ sessions: [] });
  if (path.endsWith('/telegram/reminders/')) return json({ linked: false, available: false, enabled: false });
  return json({ detail: 'not found' }, 404);
});

const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const { refreshCurrentUser, currentUserAtom } = await import('@/lib/current-user');
const { db } = await import('@/lib/db');
const { ProfilePage } = await import('@/features/profile/components/profile-page');

const meCalls = () => calls.filter((p) => p.endsWith('/auth/me')).length;

beforeEach(async () => {
  await db.user.clear();
  store.set(currentUserAtom, null);
  session.setTokens({ access: 'a', refresh: 'r' });
  calls.length = 0;
});
afterEach(cleanup);

describe('/profile and the player record', () => {
  it('on a cold start, takes the record the start-up fetch just brought instead of asking again', async () => {
    await refreshCurrentUser(); // main.tsx's start-up fetch
    await renderInApp(<ProfilePage />, store, '/profile');
    await screen.findByText('punk1');
    await new Promise((r) => setTimeout(r, 50));
    expect(meCalls()).toBe(1);
  });

  it('asks the server when the record in hand is older (stored by an earlier visit)', async () => {
    const old = { ...me, username: 'stale-name', key: 'me' as const, fetchedAt: Date.now() - 60 * 60_000 };
    await db.user.put(old);
    store.set(currentUserAtom, old);
    await renderInApp(<ProfilePage />, store, '/profile');
    await screen.findByText('punk1');
    expect(meCalls()).toBe(1);
  });
});
