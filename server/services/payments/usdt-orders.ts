// Tether orders and their transactions (decisions §8). A hash is recorded on an order only once the
// chain says it can pay it (paid, or pending: not mined yet from the player's wallet, or waiting for
// confirmations), under the unique `tx_hash` column, so one transaction pays one order only, ever.
// A hash the chain later refuses is freed again: it never paid this order, and it may be the payment
// of another player that someone submitted before its sender could.
import type { Hash } from 'viem';
import type { Db, Tx } from '../../db/schema';
import { providerOrder } from './order-views';
import { creditOrder, type OrderRow } from './orders';
import type { ProviderOrder } from './provider';
import type { UsdtVerdict } from './usdt-chain';
import type { UsdtProvider } from './usdt-provider';

/** The order as a provider sees it; for tether the provider's reference is the recorded hash, paid from the player's wallet now. */
export const providerOrderOf = (order: OrderRow, walletAddress: string | null): ProviderOrder => ({
  ...providerOrder(order),
  externalId: order.tx_hash,
  walletAddress,
});

/**
 * Pays a pending tether order whose recorded hash is still `txHash` and credits its Gems through the
 * ledger under `order:<id>`. False when it was paid already or its hash changed meanwhile (the
 * verdict was for another transaction): of concurrent calls, exactly one pays.
 */
export async function payTetherOrder(trx: Tx, orderId: number, txHash: string, now = Date.now()): Promise<boolean> {
  const order = await trx
    .updateTable('payment_orders')
    .set({ status: 'paid', paid_at: now, updated_at: now, next_check_at: null, failure: null })
    .where('id', '=', orderId)
    .where('status', '=', 'pending')
    .where('tx_hash', '=', txHash)
    .returningAll()
    .executeTakeFirst();
  return order ? creditOrder(trx, order, now) : false;
}

/**
 * Records the hash on the pending order (both as tx_hash and the provider reference), replacing the
 * one it held; false when the order is no longer pending. Throws a unique violation when another
 * order holds the hash. A replaced hash is free for other orders, so every payment of a tether order
 * (payTetherOrder, and markOrderPaid from a re-check) requires in its UPDATE that the order still
 * holds the hash that was verified; a paid order keeps its hash for good. The wallet the hash was
 * verified against (the player's linked one now) becomes the order's, so the worker's re-check asks
 * the chain about the same sender: one linked after the order was made is not refused there.
 */
export async function recordTxHash(trx: Tx, orderId: number, txHash: string, walletAddress: string): Promise<boolean> {
  const updated = await trx
    .updateTable('payment_orders')
    .set({ tx_hash: txHash, external_id: txHash, wallet_address: walletAddress })
    .where('id', '=', orderId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) === 1;
}

/** Frees a hash the chain refused for this pending order (the order stays pending for another one). */
export async function releaseTxHash(db: Db | Tx, orderId: number, txHash: string): Promise<void> {
  await db
    .updateTable('payment_orders')
    .set({ tx_hash: null, external_id: null })
    .where('id', '=', orderId)
    .where('status', '=', 'pending')
    .where('tx_hash', '=', txHash)
    .execute();
}

/**
 * The worker's re-check of a pending tether order with a recorded hash: pays it once the chain
 * says so, frees a refused hash, and leaves a still-pending one alone. Returns the verdict, or
 * null when the order has no hash to check.
 */
export async function recheckTetherOrder(
  db: Db,
  provider: UsdtProvider,
  order: OrderRow,
  walletAddress: string | null,
  now = Date.now(),
): Promise<UsdtVerdict | null> {
  const txHash = order.tx_hash as Hash | null;
  if (order.status !== 'pending' || !txHash) return null;
  const verdict = await provider.verify(providerOrderOf(order, walletAddress), txHash);
  if (verdict.status === 'paid')
    await db.transaction().execute((trx) => payTetherOrder(trx, Number(order.id), txHash, now));
  else if (verdict.status === 'failed') await releaseTxHash(db, Number(order.id), txHash);
  return verdict;
}
