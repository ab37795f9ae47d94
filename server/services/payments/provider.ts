// What a payment provider does for a Gems top-up (decisions §8). The test provider pays at once; a
// real one answers with a checkout URL to send the player to, and later confirms the payment
// through its signed webhook, which calls `markOrderPaid` (orders.ts) with the order it names.
import type { PaymentMethod } from '@shared/constants';

export interface CheckoutRequest {
  orderId: number;
  userId: number;
  itemId: string;
  gems: number;
  priceCents: number;
  currency: 'USD';
  method: PaymentMethod;
}

export type CheckoutResult =
  /** Paid already: credit the Gems now. */
  | { status: 'paid'; externalId: string | null }
  /** The player pays on the provider's page; the webhook confirms it later. */
  | { status: 'pending'; externalId: string; checkoutUrl: string }
  | { status: 'failed'; externalId: string | null };

export interface PaymentProvider {
  readonly name: string;
  checkout(request: CheckoutRequest): Promise<CheckoutResult>;
}
