// How an order is shown: to the player (the API's PaymentOrder) and to its provider (ProviderOrder,
// what the provider is asked to take). The order's life, from created to paid, is in orders.ts.
import type { PaymentOrder } from '@shared/api/payments';
import type { PaymentMethod } from '@shared/constants';
import type { OrderRow } from './orders';
import type { PayTo, ProviderOrder } from './provider';
import { isoTime, isoTimeOrNull } from '../../lib/iso-time';

function parsePayTo(raw: string | null): PayTo | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as PayTo;
  } catch {
    return null;
  }
}

export const orderJson = (o: OrderRow): PaymentOrder => {
  const open = o.status === 'created' || o.status === 'pending';
  return {
    id: Number(o.id),
    item_id: o.item_id,
    quantity: Number(o.quantity),
    gems: Number(o.gems),
    price_usd: Number(o.price_cents) / 100,
    method: o.method as PaymentMethod,
    status: o.status,
    created_at: isoTime(o.created_at),
    updated_at: isoTime(o.updated_at),
    paid_at: isoTimeOrNull(o.paid_at),
    expires_at: isoTime(o.expires_at),
    checkout_url: open ? o.checkout_url : null,
    pay_to: open ? parsePayTo(o.pay_to) : null,
    tx_hash: o.tx_hash,
    confirmations: o.confirmations === null ? null : Number(o.confirmations),
    failure: o.status === 'failed' ? o.failure : null,
    test: o.provider === 'test',
  };
};

export const providerOrder = (o: OrderRow): ProviderOrder => ({
  id: Number(o.id),
  userId: Number(o.user_id),
  gems: Number(o.gems),
  amountCents: Number(o.price_cents),
  currency: 'USD',
  quantity: Number(o.quantity),
  externalId: o.external_id,
  walletAddress: o.wallet_address,
  createdAt: Number(o.created_at),
  charge:
    o.charge_amount !== null && o.charge_currency !== null
      ? { amount: o.charge_amount, currency: o.charge_currency }
      : null,
  txHash: o.tx_hash,
  expiresAt: Number(o.expires_at),
});
