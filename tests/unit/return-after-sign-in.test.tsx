// Where the app goes once a player is signed in (src/app/return-after-sign-in.tsx): back to the page
// a sign-in was begun for, unless the page was opened signed in. Both run in layout effects, the
// forgetting first. A CI run had the return run first, when the player's record was known at the
// first render: it pushed /miner into the address bar before the router listened, so /profile
// stayed on screen under the address /miner.
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrowserRouter, useLocation } from 'react-router';
import { playerRecord } from './player-record';

const me = playerRecord('punk1');

const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const { currentUserAtom } = await import('@/lib/current-user');
const { closeModal, openModal } = await import('@/lib/modal-state');
const { hasReturnTo, rememberReturnTo } = await import('@/lib/return-to');
const { ReturnAfterSignIn } = await import('@/app/return-after-sign-in');

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}
/** The app's router (the address bar's), at `url`. */
function renderAt(url: string): void {
  window.history.replaceState(null, '', url);
  render(
    <JotaiProvider store={store}>
      <BrowserRouter>
        <Where />
        <ReturnAfterSignIn />
      </BrowserRouter>
    </JotaiProvider>,
  );
}
const known = () => store.set(currentUserAtom, { ...me, key: 'me', fetchedAt: Date.now() });

beforeEach(() => {
  sessionStorage.clear();
  closeModal();
  store.set(session.accessTokenAtom, null);
  store.set(session.refreshTokenAtom, null);
  store.set(currentUserAtom, null);
});
afterEach(cleanup);

describe('after signing in', () => {
  it('a page opened signed in, its player known at once, stays and forgets a sign-in begun earlier', async () => {
    rememberReturnTo('/miner');
    session.setTokens({ access: 'a', refresh: 'r' });
    known();
    renderAt('/profile');
    await act(() => new Promise((r) => setTimeout(r, 20)));
    expect(window.location.pathname).toBe('/profile');
    expect(screen.getByTestId('where').textContent).toBe('/profile');
    expect(hasReturnTo()).toBe(false);
  });

  it('closing the sign-in dialog goes back to the page it was begun for', async () => {
    renderAt('/');
    act(() => {
      openModal('login');
      rememberReturnTo('/miner');
    });
    act(() => {
      session.setTokens({ access: 'a', refresh: 'r' });
      known();
      closeModal();
    });
    expect(window.location.pathname).toBe('/miner');
    expect(screen.getByTestId('where').textContent).toBe('/miner');
    expect(hasReturnTo()).toBe(false);
  });
});
