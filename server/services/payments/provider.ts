// What a payment provider does for a Gems order (decisions §8). One file per provider implements
// this; providers.ts builds the ones the configuration enables. A provider never touches the
// database: orders.ts books what it answers, so every provider pays through the same
// once-per-order ledger credit.
import type { PaymentMethod } from '@shared/constants';

export interface PaymentProvider {
  readonly method: PaymentMethod; // 'tether' | 'card' | 'sbp' (the test provider serves all)
  readonly name: string; // 'stripe' | 'yookassa' | 'usdt' | 'test' (payment_orders.provider)
  /** Creates the provider's side of an order: a hosted page to send the player to, or what to pay on chain. */
  checkout(order: ProviderOrder): Promise<CheckoutResult>;
  /** Reads the order's payment back from the provider (worker re-check; webhooks call it too). */
  check(order: ProviderOrder): Promise<ProviderStatus>;
}

/** What the provider was asked to take, in its own units and currency (e.g. "449.10" RUB). */
export interface Charge {
  amount: string;
  currency: string;
}

export interface ProviderOrder {
  id: number;
  userId: number;
  gems: number;
  amountCents: number;
  currency: 'USD';
  quantity: number;
  externalId: string | null;
  walletAddress: string | null;
  createdAt: number;
  /** Set once the checkout named it (null before, and for orders made before migration 013). */
  charge: Charge | null;
  txHash: string | null;
  expiresAt: number;
}

export type PayTo = { chain_id: number; contract: string; to: string; amount: string };

export type CheckoutResult =
  | { status: 'paid'; externalId: string | null; charge?: Charge }
  | { status: 'pending'; externalId: string | null; checkoutUrl?: string; payTo?: PayTo; charge?: Charge };

export type ProviderStatus = {
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  externalId?: string;
  confirmations?: number;
  detail?: string;
  /**
   * With `pending`: the payment the order points at can never pay it (a refused transaction), so the
   * order forgets that reference and stays open for another one. Tether needs it: a hash someone
   * else parked on their order must come free for its real sender.
   */
  forgetReference?: true;
};

/** The provider could not be reached or answered nonsense: nothing is known, try again later. */
export class ProviderUnavailableError extends Error {}
