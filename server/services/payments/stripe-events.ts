// What a verified Stripe webhook event does to an order (decisions §8). The signature says Stripe
// sent it, not that it is new, in order, or for the order and amount we expect: so every step is
// conditional on the order's row (paid once, refunded once, never paid after a refund) and the
// Gems move only through the ledger with unique keys `order:<id>` and `order_refund:<id>`.
import type Stripe from 'stripe';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db, Dialect, Tx } from '../../db/schema';
import type { PaymentOrderStatus } from '../../db/tables/mining';
import { ApiError } from '../../lib/errors';
import { post } from '../ledger';
import { STRIPE_PROVIDER_NAME, sessionMatchesOrder, sessionOrderId } from './stripe-provider';

// 'refunded' joins the status type with the `orders` helper's migration (issue 13).
const REFUNDED = 'refunded' as PaymentOrderStatus;
const PAID: PaymentOrderStatus = 'paid';

/**
 * Marks the order paid and credits its Gems, once. Any status but paid or refunded may become paid:
 * Stripe took the money, so an order the worker expired or failed meanwhile is still honoured; a
 * refunded one never is (a refund delivered before its payment must not pay afterwards).
 */
export async function markStripeOrderPaid(trx: Tx, orderId: number, sessionId: string, now: number): Promise<boolean> {
  const order = await trx
    .updateTable('payment_orders')
    .set({ status: PAID, paid_at: now, external_id: sql<string>`coalesce(external_id, ${sessionId})` })
    .where('id', '=', orderId)
    .where('status', 'not in', [PAID, REFUNDED])
    .returningAll()
    .executeTakeFirst();
  if (!order) return false;
  return post(trx, { userId: Number(order.user_id), currency: 'gems', amount: Number(order.gems), reason: 'top_up', ref: `order:${order.id}`, uniqueKey: `order:${order.id}` }, now);
}

/**
 * Marks the order refunded, once, and takes back the Gems it credited, as many as the player still
 * has (a balance never goes negative; what was spent stays spent). An order refunded before it was
 * paid is marked refunded too, so the late payment event cannot pay it. Returns the Gems taken, or
 * null when the order was refunded already.
 */
export async function refundStripeOrder(trx: Tx, dialect: Dialect, orderId: number, now: number): Promise<number | null> {
  // Claiming the row first serialises this with markStripeOrderPaid on the same order (PostgreSQL
  // row lock; SQLite runs one write transaction at a time): the credit below is either committed
  // and seen, or can no longer happen.
  const order = await trx
    .updateTable('payment_orders')
    .set({ status: REFUNDED })
    .where('id', '=', orderId)
    .where('status', '!=', REFUNDED)
    .returningAll()
    .executeTakeFirst();
  if (!order) return null;
  const credited = await trx.selectFrom('ledger').select('id').where('unique_key', '=', `order:${order.id}`).executeTakeFirst();
  if (!credited) return 0;
  const user = await trx
    .selectFrom('users')
    .select('gems')
    .where('id', '=', order.user_id)
    .$if(dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirstOrThrow();
  const take = Math.min(Number(order.gems), Number(user.gems));
  if (take > 0) {
    await post(trx, { userId: Number(order.user_id), currency: 'gems', amount: -take, reason: 'top_up_refund', ref: `order:${order.id}`, uniqueKey: `order_refund:${order.id}` }, now);
  }
  return take;
}

// The fields each handled event is read by. A body Stripe signed is still checked: a shape we do not
// expect answers 400 instead of throwing somewhere below.
const metadataSchema = z.record(z.string(), z.string()).nullable().optional();
const sessionSchema = z.object({
  id: z.string().min(1),
  object: z.literal('checkout.session'),
  mode: z.string(),
  payment_status: z.string(),
  status: z.string().nullable().optional(),
  currency: z.string().nullable(),
  amount_total: z.number().int().nullable(),
  client_reference_id: z.string().nullable().optional(),
  metadata: metadataSchema,
}).passthrough();
const chargeSchema = z.object({
  id: z.string().min(1),
  object: z.literal('charge'),
  refunded: z.boolean(),
  amount: z.number().int(),
  amount_refunded: z.number().int(),
  payment_intent: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).passthrough()]).nullable(),
}).passthrough();

function parsed<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new ApiError(400, 'invalid_event', `The event's ${what} is not what Stripe sends`);
  return result.data;
}

export interface StripeEventDeps {
  db: Db;
  dialect: Dialect;
  stripe: Stripe;
  now?: () => number;
}

/** What the event did, for the log and the webhook's answer. */
export type EventOutcome = 'paid' | 'refunded' | 'ignored' | 'duplicate';

interface Loaded {
  id: number;
  amountCents: number;
  externalId: string | null;
}

async function stripeOrder(db: Db, orderId: number | null): Promise<Loaded | null> {
  if (orderId === null) return null;
  const row = await db.selectFrom('payment_orders').select(['id', 'price_cents', 'external_id', 'provider']).where('id', '=', orderId).executeTakeFirst();
  if (!row || row.provider !== STRIPE_PROVIDER_NAME) return null;
  return { id: Number(row.id), amountCents: Number(row.price_cents), externalId: row.external_id };
}

export async function handleStripeEvent(deps: StripeEventDeps, event: { type?: unknown; data?: { object?: unknown } }, log: (msg: string) => void): Promise<EventOutcome> {
  const now = deps.now ?? Date.now;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = parsed(sessionSchema, event.data?.object, 'session') as unknown as Stripe.Checkout.Session;
      // A completed session of a delayed method is not paid yet: async_payment_succeeded follows.
      if (session.payment_status !== 'paid') return 'ignored';
      const order = await stripeOrder(deps.db, sessionOrderId(session));
      if (!order) {
        log(`stripe: session ${session.id} names no card order of ours`);
        return 'ignored';
      }
      const mismatch = sessionMatchesOrder(session, order);
      if (mismatch) {
        log(`stripe: session ${session.id} does not pay order ${order.id}: ${mismatch}`);
        return 'ignored';
      }
      const paid = await deps.db.transaction().execute((trx) => markStripeOrderPaid(trx, order.id, session.id, now()));
      return paid ? 'paid' : 'duplicate';
    }
    case 'charge.refunded': {
      const charge = parsed(chargeSchema, event.data?.object, 'charge');
      // A partial refund is the operator's call (it names no Gems): only a full refund takes them back.
      if (!charge.refunded || charge.amount_refunded < charge.amount) {
        log(`stripe: charge ${charge.id} partly refunded (${charge.amount_refunded} of ${charge.amount}): Gems left as they are`);
        return 'ignored';
      }
      const intent = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      if (!intent) return 'ignored';
      // The charge names its payment intent only; Stripe says which Checkout Session it paid.
      let sessions: Stripe.ApiList<Stripe.Checkout.Session>;
      try {
        sessions = await deps.stripe.checkout.sessions.list({ payment_intent: intent, limit: 1 });
      } catch {
        // Stripe retries a delivery we fail: try again then.
        throw new ApiError(503, 'provider_unavailable', 'Stripe could not be asked about this refund; retry later');
      }
      const session = sessions.data[0];
      if (!session) return 'ignored';
      const order = await stripeOrder(deps.db, sessionOrderId(session));
      if (!order || (order.externalId !== null && order.externalId !== session.id)) {
        log(`stripe: refunded charge ${charge.id} (session ${session.id}) names no card order of ours`);
        return 'ignored';
      }
      const taken = await deps.db.transaction().execute((trx) => refundStripeOrder(trx, deps.dialect, order.id, now()));
      if (taken === null) return 'duplicate';
      log(`stripe: order ${order.id} refunded, ${taken} Gems taken back`);
      return 'refunded';
    }
    default:
      return 'ignored';
  }
}
