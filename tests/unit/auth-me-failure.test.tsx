// Spec §4: a failed /auth/me marks the player not authenticated. With tokens but no stored record
// the header's Connect must open the main login (which closes), never the first-time username
// dialog that cannot be dismissed; and that dialog itself can be closed by such a player.
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderInApp } from './render-in-app';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let answer: () => Response | Promise<Response> = () => json(500, { detail: 'boom' });
vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
  if (!String(input).endsWith('/auth/me')) throw new Error(`unexpected call ${String(input)}`);
  return answer();
});
vi.stubGlobal('matchMedia', (query: string) => ({
  matches: false,
  media: query,
  addEventListener() {},
  removeEventListener() {},
}));

const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const { refreshCurrentUser, userStatusAtom, currentUserAtom } = await import('@/lib/current-user');
const { db } = await import('@/lib/db');
const modals = await import('@/lib/modal-state');
const { Header } = await import('@/features/layout/components/header');
const { default: AccountDetailsModal } = await import('@/features/auth/components/account-details-modal');

beforeEach(async () => {
  await db.user.clear();
  store.set(currentUserAtom, null);
  modals.closeModal();
  session.setTokens({ access: 'a', refresh: 'r' });
  answer = () => json(500, { detail: 'boom' });
});
afterEach(cleanup);

describe('a failed /auth/me (spec §4)', () => {
  it('marks the player not authenticated, also when a cached record exists; offline with a cache stays authenticated', async () => {
    await refreshCurrentUser();
    expect(store.get(userStatusAtom)).toBe('anonymous');

    const me = {
      username: 'punk1',
      email: '',
      wallet_address: '',
      balance: 0,
      token: 0,
      gems: 0,
      referral_link: 'x',
      password_set: true,
      mining: false,
      ico: false,
      language: false,
    };
    await db.user.put({ ...me, key: 'me', fetchedAt: 1 });
    await refreshCurrentUser();
    expect(store.get(userStatusAtom)).toBe('anonymous');

    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    await refreshCurrentUser();
    expect(store.get(userStatusAtom)).toBe('authenticated');
  });

  it('with tokens and no stored record, Connect opens the main login, not the undismissable username dialog', async () => {
    await refreshCurrentUser();
    await renderInApp(<Header />, store);
    fireEvent.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(store.get(modals.modalStateAtom).open).toBe('main');
  });

  it('the first-time username dialog can be closed by a player /auth/me did not vouch for', async () => {
    await refreshCurrentUser();
    modals.openModal('accountDetails');
    await renderInApp(<AccountDetailsModal />, store);
    const dialog = await screen.findByRole('dialog');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(store.get(modals.modalStateAtom).open).toBeNull();
  });
});
