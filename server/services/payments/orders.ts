// Gems orders (decisions §8). An order is written (`created`) before the provider is asked, so a
// payment always has an order to land on; the provider's answer makes it `pending` (or `paid` at
// once for the test provider). Everything after that comes from asking the provider again
// (`recheckOrder`: webhooks, the worker, the player opening the order): a provider's word is never
// taken from a request. Every change of status is a conditional update, and the Gems are credited
// through the ledger with the unique key `order:<id>`, so races between webhooks, the worker and
// several processes credit an order once.
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from 'kysely';
import { type PaymentMethod, TOP_UP_ITEM } from '@shared/constants';
import type { DB, Db, Dialect, Tx } from '../../db/schema';
import type { PaymentOrdersTable, PaymentOrderStatus } from '../../db/tables/mining';
import { post } from '../ledger';
import { providerOrder } from './order-views';
import type { CheckoutResult, PaymentProvider, ProviderStatus } from './provider';

export type OrderRow = Selectable<PaymentOrdersTable>;

export const TOP_UP_ITEMS = [TOP_UP_ITEM] as const;
export const ORDER_TTL_MS = 24 * 3600 * 1000;
/** Open orders (created or pending) a player may have at once: each may cost provider calls for a day. */
export const MAX_OPEN_ORDERS = 10;
/** Statuses from which the provider's word can still move an order. */
const OPEN: PaymentOrderStatus[] = ['created', 'pending'];
/** The provider took the money: any status but paid or refunded becomes paid (an expired order too). */
const PAYABLE: PaymentOrderStatus[] = ['created', 'pending', 'failed', 'expired'];
/**
 * Orders the provider's word may still move once it named a payment: a pending one, and a settled
 * one (paid may be refunded; failed or expired may be paid late). Refunded is final.
 */
export const RECHECKABLE: PaymentOrderStatus[] = ['pending', 'paid', 'failed', 'expired'];

/**
 * When the worker asks about a pending order next: soon after it was made (players pay within
 * minutes), then less often (a quarter of its age, 30 s to 30 min), and once more at its expiry.
 */
export function nextCheckAt(o: Pick<OrderRow, 'created_at' | 'expires_at'>, now: number): number {
  const age = now - Number(o.created_at);
  const wait = Math.min(Math.max(age / 4, 30_000), 30 * 60_000);
  const expiry = Number(o.expires_at);
  return now < expiry ? Math.min(Math.round(now + wait), expiry) : Math.round(now + wait);
}

export async function findOrder(db: Tx, id: number): Promise<OrderRow | undefined> {
  return db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function openOrderCount(db: Tx, userId: number): Promise<number> {
  const row = await db
    .selectFrom('payment_orders')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('status', 'in', OPEN)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewOrder {
  userId: number;
  itemId: string;
  quantity: number;
  method: PaymentMethod;
  provider: string;
  walletAddress: string | null;
}

/** Writes the order as `created`; the worker expires it if the checkout never finishes. */
export async function createOrder(db: Tx, o: NewOrder, now = Date.now()): Promise<OrderRow> {
  const item = TOP_UP_ITEMS.find((i) => i.id === o.itemId);
  if (!item) throw new Error(`unknown top-up item ${o.itemId}`);
  const expiresAt = now + ORDER_TTL_MS;
  return db
    .insertInto('payment_orders')
    .values({
      user_id: o.userId,
      item_id: item.id,
      quantity: o.quantity,
      gems: item.gems * o.quantity,
      price_cents: Math.round(item.price_usd * 100) * o.quantity,
      method: o.method,
      provider: o.provider,
      status: 'created',
      external_id: null,
      checkout_url: null,
      created_at: now,
      updated_at: now,
      paid_at: null,
      expires_at: expiresAt,
      next_check_at: expiresAt,
      checked_at: null,
      charge_amount: null,
      charge_currency: null,
      pay_to: null,
      wallet_address: o.walletAddress,
      tx_hash: null,
      confirmations: null,
      failure: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The order still records the transaction hash `txHash` (none, for null). */
const stillHolds =
  (txHash: string | null) =>
  (eb: ExpressionBuilder<DB, 'payment_orders'>): Expression<SqlBool> =>
    txHash === null ? eb('tx_hash', 'is', null) : eb('tx_hash', '=', txHash);

/**
 * Marks an order paid and credits its Gems, once (`order:<id>`). Returns false when it was paid or
 * refunded already. Webhooks of other providers may call it with an order they have verified.
 * With `txHash` (the transaction hash the order held when the provider was asked, null for none) it
 * pays only while the order still holds that hash, in the same UPDATE: a tether order may have
 * recorded another hash meanwhile, freeing the verified one for another order (decisions §8).
 */
export async function markOrderPaid(
  trx: Tx,
  orderId: number,
  now: number,
  externalId?: string | null,
  txHash?: string | null,
): Promise<boolean> {
  const order = await trx
    .updateTable('payment_orders')
    .set((eb) => ({
      status: 'paid',
      paid_at: now,
      updated_at: now,
      next_check_at: null,
      failure: null,
      external_id: externalId ? eb.fn.coalesce('external_id', eb.val(externalId)) : eb.ref('external_id'),
    }))
    .where('id', '=', orderId)
    .where('status', 'in', PAYABLE)
    .$if(txHash !== undefined, (q) => q.where(stillHolds(txHash ?? null)))
    .returningAll()
    .executeTakeFirst();
  return order ? creditOrder(trx, order, now) : false;
}

/** Credits a just-paid order's Gems through the ledger, once ever (`order:<id>`): false when they were. */
export function creditOrder(trx: Tx, order: OrderRow, now: number): Promise<boolean> {
  return post(
    trx,
    {
      userId: Number(order.user_id),
      currency: 'gems',
      amount: Number(order.gems),
      reason: 'top_up',
      ref: `order:${order.id}`,
      uniqueKey: `order:${order.id}`,
    },
    now,
  );
}

/**
 * Marks an order refunded, once, and takes back the Gems it credited, as many as the player still
 * has (never below zero; what was spent stays spent). An order refunded before it was paid is
 * marked refunded too, so a late payment cannot pay it. Returns the Gems taken, or null when it was
 * refunded already.
 */
export async function refundOrder(trx: Tx, dialect: Dialect, orderId: number, now: number): Promise<number | null> {
  // Claiming the row first serialises this with markOrderPaid on the same order (a PostgreSQL row
  // lock; SQLite writes one transaction at a time).
  const order = await trx
    .updateTable('payment_orders')
    .set({ status: 'refunded', updated_at: now, next_check_at: null })
    .where('id', '=', orderId)
    .where('status', '!=', 'refunded')
    .returningAll()
    .executeTakeFirst();
  if (!order) return null;
  const credited = await trx
    .selectFrom('ledger')
    .select('id')
    .where('unique_key', '=', `order:${order.id}`)
    .executeTakeFirst();
  if (!credited) return 0;
  const user = await trx
    .selectFrom('users')
    .select('gems')
    .where('id', '=', order.user_id)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  const take = Math.min(Number(order.gems), Number(user.gems));
  if (take > 0) {
    await post(
      trx,
      {
        userId: Number(order.user_id),
        currency: 'gems',
        amount: -take,
        reason: 'top_up_refund',
        ref: `order:${order.id}`,
        uniqueKey: `order_refund:${order.id}`,
      },
      now,
    );
  }
  return take;
}

/** Marks an open order failed (a code saying why). */
export async function markOrderFailed(db: Tx, orderId: number, failure: string, now: number): Promise<boolean> {
  const r = await db
    .updateTable('payment_orders')
    .set({ status: 'failed', failure: failure.slice(0, 100), updated_at: now, next_check_at: null })
    .where('id', '=', orderId)
    .where('status', 'in', OPEN)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Drops an order's next look (a settled order whose provider is no longer configured). */
export async function forgetNextCheck(db: Tx, orderId: number): Promise<void> {
  await db.updateTable('payment_orders').set({ next_check_at: null }).where('id', '=', orderId).execute();
}

/** Expires an open order past its time. */
export async function expireOrder(db: Tx, orderId: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('payment_orders')
    .set({ status: 'expired', updated_at: now, next_check_at: null })
    .where('id', '=', orderId)
    .where('status', 'in', OPEN)
    .where('expires_at', '<=', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Books the provider's checkout answer on a `created` order (crediting the Gems when paid). */
export async function bookCheckout(
  trx: Tx,
  order: OrderRow,
  result: CheckoutResult,
  now = Date.now(),
): Promise<OrderRow> {
  const common = {
    external_id: result.externalId,
    charge_amount: result.charge?.amount ?? null,
    charge_currency: result.charge?.currency ?? null,
    updated_at: now,
  };
  if (result.status === 'pending') {
    await trx
      .updateTable('payment_orders')
      .set({
        ...common,
        status: 'pending',
        checkout_url: result.checkoutUrl ?? null,
        pay_to: result.payTo ? JSON.stringify(result.payTo) : null,
        next_check_at: nextCheckAt(order, now),
      })
      .where('id', '=', order.id)
      .where('status', '=', 'created')
      .execute();
  } else {
    await trx
      .updateTable('payment_orders')
      .set(common)
      .where('id', '=', order.id)
      .where('status', '=', 'created')
      .execute();
    await markOrderPaid(trx, Number(order.id), now);
  }
  return trx.selectFrom('payment_orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
}

export type BookedOutcome = 'paid' | 'refunded' | 'failed' | 'expired' | 'pending' | 'unchanged';

/**
 * Books what the provider says about an order now, in one transaction. `txHash` is the transaction
 * hash the order held when the provider was asked (recheckOrder passes it): a verdict about a
 * transaction pays the order, or makes it forget that transaction, only while it still holds it.
 */
export async function bookStatus(
  db: Db,
  dialect: Dialect,
  orderId: number,
  status: ProviderStatus,
  now: number,
  txHash?: string | null,
): Promise<BookedOutcome> {
  return db.transaction().execute(async (trx) => {
    switch (status.status) {
      case 'paid':
        return (await markOrderPaid(trx, orderId, now, status.externalId, txHash)) ? 'paid' : 'unchanged';
      case 'refunded':
        return (await refundOrder(trx, dialect, orderId, now)) === null ? 'unchanged' : 'refunded';
      case 'failed':
        return (await markOrderFailed(trx, orderId, status.detail ?? 'failed', now)) ? 'failed' : 'unchanged';
      case 'pending': {
        if (status.forgetReference) {
          await trx
            .updateTable('payment_orders')
            .set({ external_id: null, tx_hash: null, confirmations: null, updated_at: now })
            .where('id', '=', orderId)
            .where('status', 'in', OPEN)
            .$if(txHash !== undefined, (q) => q.where(stillHolds(txHash ?? null)))
            .execute();
        } else if (status.confirmations !== undefined) {
          await trx
            .updateTable('payment_orders')
            .set({ confirmations: status.confirmations })
            .where('id', '=', orderId)
            .where('status', 'in', OPEN)
            .$if(txHash !== undefined, (q) => q.where(stillHolds(txHash ?? null)))
            .execute();
        }
        return (await expireOrder(trx, orderId, now)) ? 'expired' : 'pending';
      }
    }
  });
}

export interface RecheckDeps {
  db: Db;
  dialect: Dialect;
  /** The provider that made the order (by payment_orders.provider), or null when it is not configured. */
  providerFor(name: string): PaymentProvider | null;
}

/**
 * Asks the order's provider about it and books the answer. At most one caller asks per `gapMs`
 * (a conditional update on `checked_at`), so repeated webhooks or page loads cannot turn into a
 * flood of provider calls; a caller turned away brings the worker's next look forward to the end
 * of the gap instead, so a notification that arrives just after a check is never lost: for a
 * settled order too (a refund of a paid one, a late payment of an expired one), which the worker
 * otherwise never looks at. Such a look, once answered, is not repeated; if the provider could not
 * be asked, the worker asks again later. Throws ProviderUnavailableError when it could not be asked.
 * The worker itself brings no news (`news: false`): turned away, it leaves the look to the caller
 * that is asking now, whose claim already set what comes next (a look it asked for after that
 * caller had booked the answer stayed on a paid order: one more call to the provider for nothing).
 */
export async function recheckOrder(
  deps: RecheckDeps,
  order: OrderRow,
  now: number,
  gapMs: number,
  { news = true }: { news?: boolean } = {},
): Promise<BookedOutcome> {
  const provider = deps.providerFor(order.provider);
  if (!provider) return 'unchanged';
  const settled = order.status !== 'pending';
  // A settled order has a next look only when one was asked for; this look moves it on, in case the
  // provider cannot answer now.
  const retryAt = settled && order.next_check_at === null ? null : nextCheckAt(order, now);
  const claimed = await deps.db
    .updateTable('payment_orders')
    .set({ checked_at: now, next_check_at: retryAt })
    .where('id', '=', order.id)
    .where((eb) => eb.or([eb('checked_at', 'is', null), eb('checked_at', '<=', now - gapMs)]))
    // A paid order is still asked about when a webhook says so: it may have been refunded.
    .where('status', '!=', 'refunded')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    if (!news) return 'unchanged';
    await deps.db
      .updateTable('payment_orders')
      .set({ next_check_at: now + gapMs })
      .where('id', '=', order.id)
      .where('status', 'in', RECHECKABLE)
      .where((eb) => eb.or([eb('next_check_at', 'is', null), eb('next_check_at', '>', now + gapMs)]))
      .execute();
    return 'unchanged';
  }
  // The provider is asked outside any transaction: a slow answer must not hold database locks. Its
  // answer is about the transaction the order held when read, so it is booked only while it still does.
  const status = await provider.check(providerOrder(order));
  const outcome = await bookStatus(deps.db, deps.dialect, Number(order.id), status, now, order.tx_hash);
  if (settled && retryAt !== null) {
    // Answered: no further look, unless a caller turned away meanwhile asked for one (its time differs).
    await deps.db
      .updateTable('payment_orders')
      .set({ next_check_at: null })
      .where('id', '=', order.id)
      .where('status', '!=', 'pending')
      .where('next_check_at', '=', retryAt)
      .execute();
  }
  return outcome;
}
