// The tether method (decisions §8): checkout answers what to pay on chain (`pay_to`), and check reads
// the order's transaction back from the chain. For a tether order the provider's reference
// (externalId) is the transaction hash the player submitted (POST /payments/orders/{id}/tx/), so the
// worker's re-check of pending orders needs nothing tether-specific.
import { type Address, type Hash, isAddress, isHash, type PublicClient } from 'viem';
import { refuse } from '../../lib/errors';
import type { CheckoutResult, PaymentProvider, ProviderOrder, ProviderStatus } from './provider';
import { usdtClient, type UsdtVerdict, verifyUsdtPayment } from './usdt-chain';
import type { UsdtSettings } from './usdt-settings';

/** USDT has 6 decimals: one US cent is 10_000 of its smallest unit (4.99 USD = 4_990_000). */
const UNITS_PER_CENT = 10_000n;

/** What an order costs in the token's smallest unit: the order's price, so 4_990_000 per 50 Gems item. */
/** USDT is paid from the player's linked wallet only (decisions §8): the checkout and the tx route refuse without one. */
export const walletRequired = () =>
  refuse('wallet_required', 'Link a wallet to your account first: USDT payments are taken from it.');

export const usdtAmountOf = (order: Pick<ProviderOrder, 'amountCents'>): bigint =>
  BigInt(order.amountCents) * UNITS_PER_CENT;

export interface UsdtProvider extends PaymentProvider {
  readonly settings: UsdtSettings;
  /** The full verdict for a hash, for the route that records it. */
  verify(order: ProviderOrder, txHash: Hash): Promise<UsdtVerdict>;
}

export function usdtProvider(settings: UsdtSettings, client: PublicClient = usdtClient(settings)): UsdtProvider {
  const verify = (order: ProviderOrder, txHash: Hash) => {
    const from = order.walletAddress;
    if (!from || !isAddress(from, { strict: false }))
      return Promise.resolve<UsdtVerdict>({ status: 'failed', reason: 'wrong_sender' });
    return verifyUsdtPayment(client, settings.chainId, {
      txHash,
      contract: settings.contract,
      treasury: settings.treasury,
      from: from as Address,
      minAmount: usdtAmountOf(order),
      confirmations: settings.confirmations,
    });
  };
  return {
    method: 'tether',
    name: 'usdt',
    settings,
    verify,
    async checkout(order): Promise<CheckoutResult> {
      if (!order.walletAddress) throw walletRequired();
      return {
        status: 'pending',
        externalId: null,
        payTo: {
          chain_id: settings.chainId,
          contract: settings.contract,
          to: settings.treasury,
          amount: usdtAmountOf(order).toString(),
        },
      };
    },
    async check(order): Promise<ProviderStatus> {
      if (!order.externalId || !isHash(order.externalId))
        return { status: 'pending', detail: 'no transaction submitted yet' };
      const verdict = await verify(order, order.externalId);
      if (verdict.status === 'paid')
        return { status: 'paid', externalId: order.externalId, confirmations: verdict.confirmations };
      if (verdict.status === 'pending')
        return {
          status: 'pending',
          externalId: order.externalId,
          confirmations: verdict.confirmations,
          detail: verdict.reason,
        };
      // A refused transaction never fails the order: it may be another player's payment parked
      // here; the order forgets it and waits for the player's own (as the tx route does).
      return { status: 'pending', forgetReference: true, detail: verdict.reason };
    },
  };
}
