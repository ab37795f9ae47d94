// Pure rules of the Top Up dialog (decisions §8): which methods can be chosen and why not, what an
// order's state means to the player, the open order to resume, and the quantity the Auto Miner
// needs. No React here, so the unit tests read them directly.
import type { OrderStatus, PaymentItemsResponse, PaymentOrder } from '@shared/api/payments';
import { PAYMENT_METHODS, TOP_UP_ITEM, TOP_UP_QUANTITY_MAX, type PaymentMethod } from '@shared/constants';

export interface MethodOption {
  method: PaymentMethod;
  available: boolean;
  /** Why not (a key of `topUp.unavailable`), when not available. */
  reason: string | null;
}

/** Every method in the product's order; the ones this server cannot take now are marked with their reason. */
export function methodOptions(items: Pick<PaymentItemsResponse, 'methods' | 'unavailable'> | null): MethodOption[] {
  return PAYMENT_METHODS.map((method) => {
    // Not loaded yet: nothing can be chosen, and there is no reason to show.
    if (!items) return { method, available: false, reason: null };
    const available = items.methods.includes(method);
    return { method, available, reason: available ? null : (items.unavailable[method] ?? 'not_configured') };
  });
}

/** Preselected when possible: a card works for everyone, USDT needs a linked wallet first. */
export const DEFAULT_METHOD: PaymentMethod = 'card';

/** The method to use: the one chosen if still possible, else the default, else the first available. */
export function pickMethod(options: MethodOption[], chosen: PaymentMethod | null): PaymentMethod | null {
  for (const m of [chosen, DEFAULT_METHOD]) if (m && options.some((o) => o.method === m && o.available)) return m;
  return options.find((o) => o.available)?.method ?? null;
}

export type PayBlock = 'offline' | 'loading' | 'noMethod' | 'noWallet' | null;

/**
 * Why Pay cannot be pressed now: offline first (no queued payments), then nothing to pay with, then
 * USDT without a linked wallet (said before Pay now, issue 24: it is paid from that wallet only).
 */
export function payBlock(
  online: boolean,
  options: MethodOption[],
  method: PaymentMethod | null,
  loaded: boolean,
  walletLinked = true,
): PayBlock {
  if (!online) return 'offline';
  if (!loaded) return 'loading';
  if (!method || !options.some((o) => o.method === method && o.available)) return 'noMethod';
  if (method === 'tether' && !walletLinked) return 'noWallet';
  return null;
}

/** An order's price in USD for `quantity` items, in cents first (3 × 4.99 is 14.97, not 14.970000000000001). */
export const orderTotalUsd = (quantity: number) => Math.round(TOP_UP_ITEM.price_usd * 100 * quantity) / 100;

/** Items of 50 Gems that cover `missing` Gems, in ONE order (decisions §8: quantity 1–10). */
export function quantityFor(missing: number): number {
  if (!(missing > 0)) return 1;
  return Math.min(TOP_UP_QUANTITY_MAX, Math.ceil(missing / TOP_UP_ITEM.gems));
}

/** A quantity from a modal parameter, clamped to 1–10. */
export function parseQuantity(raw: string | undefined): number {
  const n = Math.trunc(Number(raw));
  return Number.isFinite(n) ? Math.min(TOP_UP_QUANTITY_MAX, Math.max(1, n)) : 1;
}

const OPEN: readonly OrderStatus[] = ['created', 'pending'];
export const isOpenOrder = (o: Pick<PaymentOrder, 'status'>) => OPEN.includes(o.status);

/** The open order to resume after a reload or on another device: the newest pending one. */
export function latestOpenOrder(orders: PaymentOrder[]): PaymentOrder | null {
  return [...orders].filter(isOpenOrder).sort((a, b) => b.id - a.id)[0] ?? null;
}

export type OrderPhase =
  'paid' | 'awaitingWallet' | 'confirming' | 'awaitingCheckout' | 'waiting' | 'failed' | 'expired' | 'refunded';

/** What the player is told about an order. */
export function orderPhase(o: Pick<PaymentOrder, 'status' | 'method' | 'tx_hash' | 'checkout_url'>): OrderPhase {
  if (o.status === 'paid') return 'paid';
  if (o.status === 'failed') return 'failed';
  if (o.status === 'expired') return 'expired';
  if (o.status === 'refunded') return 'refunded';
  if (o.method === 'tether') return o.tx_hash ? 'confirming' : 'awaitingWallet';
  return o.checkout_url ? 'awaitingCheckout' : 'waiting';
}
