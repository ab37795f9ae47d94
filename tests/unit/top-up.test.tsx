// The Top Up dialog's rules (decisions §8): methods the server cannot take are disabled with their
// reason, offline Pay is disabled and says why, the Auto Miner buys exactly the missing Gems in one
// order, the open order to resume, and the USDT transfer the wallet is asked for (calldata as viem
// encodes it; the linked account and the chain checked before anything is sent).
import { cleanup, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { encodeFunctionData, erc20Abi } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import type { PaymentOrder } from '@shared/api/payments';
import { TopUpForm } from '@/features/mining/components/top-up-form';
import {
  latestOpenOrder,
  methodOptions,
  orderPhase,
  parseQuantity,
  payBlock,
  pickMethod,
  quantityFor,
} from '@/features/mining/lib/top-up-view';
import { withRememberedTx } from '@/features/mining/state/payment-actions';
import type { Eip1193Provider } from '@/lib/wallet';
import { erc20TransferData, sendErc20Transfer, switchToChain, WalletTransferError } from '@/lib/wallet-transfer';
import { load } from './locale-helpers';
import { testI18n } from './test-i18n';

afterEach(cleanup);

const order = (o: Partial<PaymentOrder>): PaymentOrder => ({
  id: 1,
  item_id: 'gems_50',
  quantity: 1,
  gems: 50,
  price_usd: 4.99,
  method: 'card',
  status: 'pending',
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:00.000Z',
  paid_at: null,
  expires_at: '2026-11-24T10:00:00.000Z',
  checkout_url: null,
  pay_to: null,
  tx_hash: null,
  confirmations: null,
  failure: null,
  test: false,
  ...o,
});

describe('methods and Pay', () => {
  const onlyTetherAndCard = { methods: ['tether', 'card'] as const, unavailable: { sbp: 'not_configured' as const } };

  it('lists every method, the ones the server cannot take disabled with their reason', () => {
    expect(
      methodOptions({ methods: [...onlyTetherAndCard.methods], unavailable: onlyTetherAndCard.unavailable }),
    ).toEqual([
      { method: 'tether', available: true, reason: null },
      { method: 'sbp', available: false, reason: 'not_configured' },
      { method: 'card', available: true, reason: null },
    ]);
    // Not loaded yet: nothing to choose, no reason invented.
    expect(methodOptions(null).every((o) => !o.available && o.reason === null)).toBe(true);
  });

  it('preselects the card, keeps a possible choice, falls back to what is available', () => {
    const all = methodOptions({ methods: ['tether', 'sbp', 'card'], unavailable: {} });
    expect(pickMethod(all, null)).toBe('card');
    expect(pickMethod(all, 'tether')).toBe('tether');
    const noCard = methodOptions({
      methods: ['sbp'],
      unavailable: { tether: 'not_configured', card: 'not_configured' },
    });
    expect(pickMethod(noCard, 'tether')).toBe('sbp');
    expect(pickMethod(methodOptions({ methods: [], unavailable: {} }), null)).toBeNull();
  });

  it('blocks Pay offline first, then while loading or without a usable method', () => {
    const opts = methodOptions({ methods: ['card'], unavailable: { tether: 'not_configured', sbp: 'not_configured' } });
    expect(payBlock(false, opts, 'card', true)).toBe('offline');
    expect(payBlock(true, opts, 'card', false)).toBe('loading');
    expect(payBlock(true, opts, 'sbp', true)).toBe('noMethod');
    expect(payBlock(true, opts, 'card', true)).toBeNull();
    // Issue 24: USDT without a linked wallet is said before Pay now.
    const withTether = methodOptions({ methods: ['tether', 'card'], unavailable: { sbp: 'not_configured' } });
    expect(payBlock(true, withTether, 'tether', true, false)).toBe('noWallet');
    expect(payBlock(true, withTether, 'tether', true, true)).toBeNull();
    expect(payBlock(false, withTether, 'tether', true, false)).toBe('offline');
    expect(payBlock(true, opts, 'card', true, false)).toBeNull();
  });
});

describe('the Auto Miner buys exactly the missing Gems in one order', () => {
  it('asks ceil(missing / 50) items, 1 to 10', () => {
    expect(quantityFor(150)).toBe(3);
    expect(quantityFor(105)).toBe(3);
    expect(quantityFor(100)).toBe(2);
    expect(quantityFor(101)).toBe(3);
    expect(quantityFor(1)).toBe(1);
    expect(quantityFor(0)).toBe(1);
    expect(quantityFor(10_000)).toBe(10);
  });
  it('reads the quantity a modal was opened with, clamped', () => {
    expect(parseQuantity('3')).toBe(3);
    expect(parseQuantity(undefined)).toBe(1);
    expect(parseQuantity('0')).toBe(1);
    expect(parseQuantity('99')).toBe(10);
    expect(parseQuantity('x')).toBe(1);
  });
});

describe('orders', () => {
  it('resumes the newest open order', () => {
    expect(
      latestOpenOrder([
        order({ id: 3, status: 'paid' }),
        order({ id: 2, status: 'pending' }),
        order({ id: 1, status: 'pending' }),
      ])?.id,
    ).toBe(2);
    expect(latestOpenOrder([order({ id: 4, status: 'expired' }), order({ id: 5, status: 'failed' })])).toBeNull();
  });
  it('tells a tether order waiting for the wallet from one confirming, and the provider page from the outcomes', () => {
    expect(orderPhase(order({ method: 'tether' }))).toBe('awaitingWallet');
    expect(orderPhase(order({ method: 'tether', tx_hash: '0xab' }))).toBe('confirming');
    expect(orderPhase(order({ checkout_url: 'https://checkout.stripe.test/c/pay/x' }))).toBe('awaitingCheckout');
    for (const s of ['paid', 'failed', 'expired', 'refunded'] as const)
      expect(orderPhase(order({ status: s }))).toBe(s);
  });
});

describe('a transfer this browser sent', () => {
  afterEach(() => localStorage.clear());
  it('is followed even when the server did not record it, so the wallet is never asked twice', () => {
    const tether = order({
      id: 7,
      method: 'tether',
      pay_to: { chain_id: 1, contract: '0x1', to: '0x2', amount: '4990000' },
    });
    expect(orderPhase(withRememberedTx(tether))).toBe('awaitingWallet');
    localStorage.setItem('pxt.order-tx.7', '0xabc');
    expect(withRememberedTx(tether).tx_hash).toBe('0xabc');
    expect(orderPhase(withRememberedTx(tether))).toBe('confirming');
    // The server's own record wins, and a decided order is left as it is.
    expect(withRememberedTx({ ...tether, tx_hash: '0xdef' }).tx_hash).toBe('0xdef');
    expect(withRememberedTx({ ...tether, status: 'expired' }).tx_hash).toBeNull();
  });
});

describe.each(['en', 'ru'] as const)('the method tiles and Pay in %s', (lng) => {
  const text = (path: string) =>
    path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], load(lng, 'mining')) as string;

  async function renderForm(online: boolean) {
    const i18n = await testI18n(lng, ['mining']);
    const options = methodOptions({ methods: ['tether', 'card'], unavailable: { sbp: 'not_configured' } });
    render(
      <I18nextProvider i18n={i18n}>
        <TopUpForm
          options={options}
          method="card"
          onMethod={() => {}}
          quantity={1}
          onQuantity={() => {}}
          block={payBlock(online, options, 'card', true)}
          busy={false}
          onPay={() => {}}
          testPayment={false}
          onLinkWallet={() => {}}
        />
      </I18nextProvider>,
    );
  }

  it('disables the method without a provider and says why', async () => {
    await renderForm(true);
    const sbp = screen.getByRole<HTMLInputElement>('radio', { name: new RegExp(text('topUp.methods.sbp')) });
    expect(sbp.disabled).toBe(true);
    expect(
      screen.getByRole('radio', {
        name: new RegExp(text('topUp.methods.sbp')),
        description: text('topUp.unavailable.not_configured'),
      }),
    ).toBe(sbp);
    expect(screen.getByRole<HTMLInputElement>('radio', { name: new RegExp(text('topUp.methods.card')) }).disabled).toBe(
      false,
    );
    expect(
      screen.getByRole<HTMLInputElement>('radio', {
        name: new RegExp(text('topUp.methods.tether').replace(/[()]/g, '\\$&')),
      }).disabled,
    ).toBe(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: text('topUp.pay') }).disabled).toBe(false);
  });

  it('offline, Pay is disabled and says payments need a connection', async () => {
    await renderForm(false);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: text('topUp.offline') }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: text('topUp.pay') })).toBeNull();
  });
});

describe('the USDT transfer asked of the wallet', () => {
  const to = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
  const contract = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
  const linked = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

  it('encodes transfer(to, amount) exactly as viem does', () => {
    expect(erc20TransferData(to, '4990000')).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 4_990_000n] }),
    );
    expect(erc20TransferData(to, 2n ** 200n)).toBe(
      encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 2n ** 200n] }),
    );
    expect(() => erc20TransferData('0x12', '1')).toThrow();
    expect(() => erc20TransferData(to, '0')).toThrow();
  });

  /** A scripted wallet: records what it was asked, answers from `answers`. */
  function wallet(answers: Record<string, (params: unknown) => unknown>) {
    const calls: { method: string; params: unknown }[] = [];
    const provider: Eip1193Provider = {
      async request({ method, params }) {
        calls.push({ method, params });
        const answer = answers[method];
        if (!answer) throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
        return answer(params);
      },
    };
    return { provider, calls };
  }
  const unknownChain = () => {
    throw Object.assign(new Error('Unrecognized chain'), { code: 4902 });
  };

  it('switches to the payment chain, then sends the transfer from the linked account', async () => {
    let chain = '0x1';
    const w = wallet({
      eth_requestAccounts: () => [linked.toLowerCase()],
      eth_chainId: () => chain,
      wallet_switchEthereumChain: (p) => ((chain = (p as [{ chainId: string }])[0].chainId), null),
      eth_sendTransaction: () => '0xfeed',
    });
    expect(await sendErc20Transfer(w.provider, { chain_id: 137, contract, to, amount: '4990000' }, linked)).toBe(
      '0xfeed',
    );
    expect(w.calls.map((c) => c.method)).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'wallet_switchEthereumChain',
      'eth_sendTransaction',
    ]);
    expect(w.calls[2].params).toEqual([{ chainId: '0x89' }]);
    expect(w.calls[3].params).toEqual([
      { from: linked.toLowerCase(), to: contract, data: erc20TransferData(to, '4990000'), value: '0x0' },
    ]);
  });

  it('adds a well-known chain the wallet lacks; an unknown one is refused before anything is sent', async () => {
    let added = false;
    const w = wallet({
      eth_chainId: () => '0x1',
      wallet_switchEthereumChain: () => (added ? null : unknownChain()),
      wallet_addEthereumChain: () => ((added = true), null),
    });
    await switchToChain(w.provider, 56);
    expect(w.calls.map((c) => c.method)).toEqual([
      'eth_chainId',
      'wallet_switchEthereumChain',
      'wallet_addEthereumChain',
      'wallet_switchEthereumChain',
    ]);
    expect(w.calls[2].params).toMatchObject([{ chainId: '0x38', chainName: 'BNB Smart Chain' }]);

    const other = wallet({
      eth_requestAccounts: () => [linked],
      eth_chainId: () => '0x1',
      wallet_switchEthereumChain: unknownChain,
      eth_sendTransaction: () => '0xbad',
    });
    await expect(
      sendErc20Transfer(other.provider, { chain_id: 31337, contract, to, amount: '1' }, linked),
    ).rejects.toMatchObject({ problem: 'unknown_chain', info: { chainId: '31337' } });
    expect(other.calls.map((c) => c.method)).not.toContain('eth_sendTransaction');
  });

  it('refuses another selected account: the server pays only transfers from the linked wallet', async () => {
    const w = wallet({
      eth_requestAccounts: () => ['0x1111111111111111111111111111111111111111'],
      eth_chainId: () => '0x89',
      eth_sendTransaction: () => '0xbad',
    });
    const err = await sendErc20Transfer(w.provider, { chain_id: 137, contract, to, amount: '1' }, linked).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WalletTransferError);
    expect(err).toMatchObject({ problem: 'wrong_account', info: { linked } });
    expect(w.calls.map((c) => c.method)).toEqual(['eth_requestAccounts']);
  });
});
