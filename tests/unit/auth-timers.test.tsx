// The timings of spec §4, with fake timers (the timing is the point): the player record is fetched
// again 2 s after a confirmEmail / confirmEmailChange link, and the wallet confirmation starts by
// itself after 500 ms and asks again 1 s after the player turned the wallet prompt down.
import 'fake-indexeddb/auto';
import { act, cleanup } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STATE_REFRESH_AFTER_CONFIRM_MS, WALLET_AUTOSTART_MS, WALLET_RETRY_MS } from '@shared/constants';
import { renderInApp } from './render-in-app';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const me = {
  username: 'punk_rider',
  email: 'a@example.com',
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
const calls: string[] = [];
vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
  const path = new URL(String(input), 'http://app.test').pathname.replace('/api/v1/', '');
  calls.push(path);
  // Decisions §13: both links work only signed in as the account that asked; the session stays.
  if (path.startsWith('auth/confirm-email-change/'))
    return json(200, { detail: 'Email changed', email: 'new@example.com' });
  if (path.startsWith('auth/confirm-email/')) return json(200, { detail: 'Email confirmed', password_set: true });
  if (path === 'auth/me') return json(200, me);
  if (path === 'config/')
    return json(200, {
      app_name: 'PXT Companion',
      google_client_id: null,
      google_code_flow: false,
      vapid_public_key: 'k',
      mining_session_seconds: 60,
      payments_available: false,
    });
  if (path === 'auth/login/') return json(200, { access: 'wa', refresh: 'wr' });
  throw new Error(`unexpected call ${path}`);
});

const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const modals = await import('@/lib/modal-state');
const { QueryParamsHandler } = await import('@/features/auth/components/query-params-handler');
const { default: ConfirmWalletModal } = await import('@/features/auth/components/confirm-wallet-modal');

/** Lets promises settle (fetch, Dexie) without moving the fake clock. */
const settle = async () => {
  for (let i = 0; i < 20; i++) await act(() => new Promise<void>((r) => queueMicrotask(r)));
  await act(() => vi.advanceTimersByTimeAsync(0));
};
const meCalls = () => calls.filter((c) => c === 'auth/me').length;

beforeEach(() => {
  calls.length = 0;
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(async () => {
  cleanup();
  vi.useRealTimers();
  await session.signOut();
});

describe('the record is fetched again 2 s after an e-mail confirmation (spec §4)', () => {
  it.each([
    ['confirmEmailChange', '/?modal=confirmEmailChange&token=tok-change&email=new%40example.com', true],
    ['confirmEmail', '/?modal=confirmEmail&token=tok-confirm', true],
  ])('%s', async (_name, url, signedInBefore) => {
    if (signedInBefore) session.setTokens({ access: 'a', refresh: 'r' });
    await renderInApp(<QueryParamsHandler />, store, url);
    await settle();
    expect(calls.some((c) => c.startsWith('auth/confirm-email'))).toBe(true);
    expect(meCalls()).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(STATE_REFRESH_AFTER_CONFIRM_MS - 1));
    expect(meCalls()).toBe(0);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await settle();
    expect(meCalls()).toBe(1);
  });
});

describe('wallet confirmation timings (spec §4)', () => {
  it('starts by itself after 500 ms, and asks again 1 s after a refusal', async () => {
    const asked: string[] = [];
    let refusals = 1;
    let refusedAt = 0;
    const provider = {
      request: async ({ method }: { method: string }) => {
        asked.push(method);
        if (method === 'eth_requestAccounts') return ['0x1111111111111111111111111111111111111111'];
        if (method === 'personal_sign') {
          if (refusals-- > 0) {
            refusedAt = Date.now();
            throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
          }
          return '0xsigned';
        }
        throw new Error(`unexpected ${method}`);
      },
    };
    // An injected wallet that announces itself (EIP-6963) whenever the page asks.
    const announce = () =>
      window.dispatchEvent(
        new CustomEvent('eip6963:announceProvider', {
          detail: Object.freeze({
            info: { uuid: 'u-1', name: 'Test Wallet', icon: 'data:image/svg+xml,<svg/>', rdns: 'test.wallet' },
            provider,
          }),
        }),
      );
    window.addEventListener('eip6963:requestProvider', announce);
    try {
      modals.openModal('confirmWallet');
      await renderInApp(<ConfirmWalletModal />, store, '/');
      await settle();
      await act(() => vi.advanceTimersByTimeAsync(WALLET_AUTOSTART_MS - 1));
      await settle();
      expect(asked).toEqual([]);
      await act(() => vi.advanceTimersByTimeAsync(1));
      // The discovery may wait a few polls for wallets to answer, never a whole second.
      for (let i = 0; i < 10 && asked.length < 2; i++) await act(() => vi.advanceTimersByTimeAsync(50));
      await settle();
      expect(asked).toEqual(['eth_requestAccounts', 'personal_sign']);

      // Refused: nothing more until 1 s has passed, then the same wallet is asked again.
      await act(() => vi.advanceTimersByTimeAsync(refusedAt + WALLET_RETRY_MS - 1 - Date.now()));
      await settle();
      expect(asked).toHaveLength(2);
      await act(() => vi.advanceTimersByTimeAsync(1));
      await settle();
      expect(asked).toEqual(['eth_requestAccounts', 'personal_sign', 'eth_requestAccounts', 'personal_sign']);
      await settle();
      expect(calls).toContain('auth/login/');
    } finally {
      window.removeEventListener('eip6963:requestProvider', announce);
    }
  });
});
