// The provider interface as the `orders` change of issue 13 defines it (server/services/payments/
// provider.ts after that change), copied here so the USDT provider is written to it while provider.ts
// on this branch still has the old one. At the merge this file goes and usdt-provider.ts imports
// these types from './provider'.
import type { PaymentMethod } from '@shared/constants';

export interface PaymentProvider {
  readonly method: PaymentMethod;
  readonly name: string;
  /** Creates the provider's side of an order: a hosted page to send the player to, or what to pay on chain. */
  checkout(order: ProviderOrder): Promise<CheckoutResult>;
  /** Reads the order's payment back from the provider (worker re-check; webhooks call it too). */
  check(order: ProviderOrder): Promise<ProviderStatus>;
}
export interface ProviderOrder {
  id: number; userId: number; gems: number; amountCents: number; currency: 'USD';
  quantity: number; externalId: string | null; walletAddress: string | null; createdAt: number;
}
export type CheckoutResult =
  | { status: 'paid'; externalId: string | null }
  | { status: 'pending'; externalId: string | null; checkoutUrl?: string; payTo?: { chain_id: number; contract: string; to: string; amount: string } };
export type ProviderStatus = { status: 'pending' | 'paid' | 'failed' | 'refunded'; externalId?: string; confirmations?: number; detail?: string };
