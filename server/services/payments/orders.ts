// Gems top-up orders. An order is written before the provider is asked (so a payment always has an
// order to land on), and paying it credits the Gems through the ledger with the unique key
// `top_up:<order id>`: a webhook delivered twice, or a replayed call, credits once.
import type { Selectable } from 'kysely';
import type { PaymentOrder } from '@shared/api/payments';
import { type PaymentMethod, TOP_UP_ITEM } from '@shared/constants';
import type { Db, Tx } from '../../db/schema';
import type { PaymentOrdersTable } from '../../db/tables/mining';
import { post } from '../ledger';
import type { CheckoutResult, PaymentProvider } from './provider';

export type OrderRow = Selectable<PaymentOrdersTable>;

export const TOP_UP_ITEMS = [TOP_UP_ITEM] as const;

export const orderJson = (o: OrderRow): PaymentOrder => ({
  id: Number(o.id),
  item_id: o.item_id,
  gems: Number(o.gems),
  price_usd: Number(o.price_cents) / 100,
  method: o.method,
  status: o.status,
  checkout_url: o.status === 'pending' ? o.checkout_url : null,
});

/** Marks an order paid and credits its Gems, once. Returns false when it was paid already. */
export async function markOrderPaid(trx: Tx, orderId: number, now: number): Promise<boolean> {
  const order = await trx
    .updateTable('payment_orders')
    .set({ status: 'paid', paid_at: now })
    .where('id', '=', orderId)
    .where('status', '!=', 'paid')
    .returningAll()
    .executeTakeFirst();
  if (!order) return false;
  return post(trx, { userId: Number(order.user_id), currency: 'gems', amount: Number(order.gems), reason: 'top_up', ref: `order:${order.id}`, uniqueKey: `top_up:${order.id}` }, now);
}

/**
 * Records an order for the item and asks the provider to take the payment. The outcome is booked by
 * `bookCheckout` in a transaction of the caller's, which can keep its answer in it too.
 */
export async function checkoutOrder(db: Db, provider: PaymentProvider, userId: number, itemId: string, method: PaymentMethod, now = Date.now()): Promise<{ order: OrderRow; result: CheckoutResult }> {
  const item = TOP_UP_ITEMS.find((i) => i.id === itemId);
  if (!item) throw new Error(`unknown top-up item ${itemId}`);
  const order = await db
    .insertInto('payment_orders')
    .values({
      user_id: userId,
      item_id: item.id,
      gems: item.gems,
      price_cents: Math.round(item.price_usd * 100),
      method,
      provider: provider.name,
      status: 'pending',
      external_id: null,
      checkout_url: null,
      created_at: now,
      paid_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The provider may call out over the network: never inside a database transaction.
  const result = await provider.checkout({
    orderId: Number(order.id), userId, itemId: item.id, gems: item.gems, priceCents: Number(order.price_cents), currency: 'USD', method,
  });
  return { order, result };
}

/** Books the provider's answer on the order (crediting the Gems when paid) and returns the order. */
export async function bookCheckout(trx: Tx, order: OrderRow, result: CheckoutResult): Promise<OrderRow> {
  if (result.status === 'pending') {
    await trx.updateTable('payment_orders').set({ external_id: result.externalId, checkout_url: result.checkoutUrl }).where('id', '=', order.id).execute();
  } else if (result.status === 'failed') {
    await trx.updateTable('payment_orders').set({ external_id: result.externalId, status: 'failed' }).where('id', '=', order.id).where('status', '=', 'pending').execute();
  } else {
    await trx.updateTable('payment_orders').set({ external_id: result.externalId }).where('id', '=', order.id).execute();
    await markOrderPaid(trx, Number(order.id), Date.now());
  }
  return trx.selectFrom('payment_orders').selectAll().where('id', '=', order.id).executeTakeFirstOrThrow();
}
