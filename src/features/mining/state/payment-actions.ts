// What the Top Up dialog does (decisions §8): create the order, pay a tether order from the linked
// wallet and post its hash, follow an open order until it is decided, and, once it is paid, refresh
// the balance and run what the order was bought for (the Auto Miner subscription). Errors are
// thrown to the caller, which shows them.
import type { PaymentOrder } from '@shared/api/payments';
import type { PaymentMethod } from '@shared/constants';
import { refreshCurrentUser } from '@/lib/current-user';
import { db } from '@/lib/db';
import { findProvider } from '@/lib/wallet';
import { sendErc20Transfer } from '@/lib/wallet-transfer';
import { topUpGems } from '../api/mining-api';
import { fetchOrder, fetchRecentOrders, submitTetherTx } from '../api/payments-api';
import { latestOpenOrder } from '../lib/top-up-view';
import { subscribe } from './mining-actions';

/** An order as the dialog shows it: with the chain's count while a tether transaction confirms. */
export interface FollowedOrder {
  order: PaymentOrder;
  confirmations: number | null;
  required: number | null;
}

/** What a paid order is for, beyond the Gems. */
export type OrderIntent = 'autoMiner';

// Kept in localStorage so they survive the redirect to a provider's page and a reload.
const intentKey = (id: number) => `pxt.order-intent.${id}`;
const txKey = (id: number) => `pxt.order-tx.${id}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The hash this browser sent for a tether order (the server may not have recorded it yet). */
export const rememberedTx = (id: number): string | null => storage()?.getItem(txKey(id)) ?? null;

/**
 * A tether order as this browser knows it: with the hash it sent even when the server has not
 * recorded it yet (its answer was lost), so the dialog follows that transfer instead of offering
 * to pay a second time.
 */
export function withRememberedTx(order: PaymentOrder): PaymentOrder {
  if (order.method !== 'tether' || order.tx_hash || order.status !== 'pending') return order;
  const hash = rememberedTx(order.id);
  return hash ? { ...order, tx_hash: hash } : order;
}

export class NoWalletError extends Error {
  constructor() {
    super('no browser wallet');
  }
}

export async function createOrder(
  method: PaymentMethod,
  quantity: number,
  intent?: OrderIntent,
): Promise<FollowedOrder> {
  const r = await topUpGems(method, quantity);
  if (intent) storage()?.setItem(intentKey(r.order.id), intent);
  await db.user.update('me', { gems: r.gems });
  return { order: r.order, confirmations: null, required: null };
}

/** The newest open order of the player (this or another device), or null. */
export async function loadOpenOrder(): Promise<PaymentOrder | null> {
  const page = await fetchRecentOrders();
  const open = latestOpenOrder(page.results);
  return open && withRememberedTx(open);
}

export async function loadOrder(id: number): Promise<FollowedOrder> {
  return { order: withRememberedTx(await fetchOrder(id)), confirmations: null, required: null };
}

async function postTx(id: number, hash: string): Promise<FollowedOrder> {
  const r = await submitTetherTx(id, hash);
  await db.user.update('me', { gems: r.gems });
  return { order: r.order, confirmations: r.confirmations, required: r.required_confirmations };
}

/**
 * Asks the browser wallet for the order's USDT transfer from the linked wallet, remembers the hash
 * at once (a lost answer must not lose the payment) and hands it to the server.
 */
export async function payWithWallet(order: PaymentOrder, linkedWallet: string): Promise<FollowedOrder> {
  if (!order.pay_to) throw new Error('the order has nothing to transfer');
  const provider = await findProvider();
  if (!provider) throw new NoWalletError();
  const hash = await sendErc20Transfer(provider, order.pay_to, linkedWallet);
  storage()?.setItem(txKey(order.id), hash);
  return postTx(order.id, hash);
}

/** One look at an open order: a tether hash is posted again (that is how the confirmations are followed), others are read back. */
export async function followOrder(f: FollowedOrder): Promise<FollowedOrder> {
  const hash = f.order.tx_hash ?? (f.order.method === 'tether' ? rememberedTx(f.order.id) : null);
  if (f.order.method === 'tether' && hash) return postTx(f.order.id, hash);
  return { ...f, order: await fetchOrder(f.order.id) };
}

/** The server refused the hash: it is not kept, so the player may pay again. */
export function forgetTx(id: number): void {
  storage()?.removeItem(txKey(id));
}

/**
 * Once an order is paid: the balance is read again, and an order bought for the Auto Miner
 * subscribes (once: the intent is removed first). Returns the subscription's end then.
 */
export async function afterPaid(order: PaymentOrder): Promise<Date | null> {
  storage()?.removeItem(txKey(order.id));
  const intent = storage()?.getItem(intentKey(order.id));
  storage()?.removeItem(intentKey(order.id));
  await refreshCurrentUser().catch(() => undefined);
  if (intent === 'autoMiner') return subscribe();
  return null;
}
