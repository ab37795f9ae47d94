// What a verified Stripe webhook event does to an order (decisions §8). The signature says Stripe
// sent it, not that it is new, in order, or for the order and amount we expect: so the event must
// name one of our Stripe orders and match its session and amount, and the order's own conditional
// steps (orders.ts: paid once, refunded once, never paid after a refund; unique ledger keys
// `order:<id>` and `order_refund:<id>`) do the rest.
import type Stripe from 'stripe';
import { z } from 'zod';
import type { Db, Dialect } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { markOrderPaid, refundOrder } from './orders';
import { STRIPE_PROVIDER_NAME, sessionMatchesOrder, sessionOrderId } from './stripe-provider';

// The fields each handled event is read by. A body Stripe signed is still checked: a shape we do not
// expect answers 400 instead of throwing somewhere below.
const metadataSchema = z.record(z.string(), z.string()).nullable().optional();
const sessionSchema = z
  .object({
    id: z.string().min(1),
    object: z.literal('checkout.session'),
    mode: z.string(),
    payment_status: z.string(),
    status: z.string().nullable().optional(),
    currency: z.string().nullable(),
    amount_total: z.number().int().nullable(),
    client_reference_id: z.string().nullable().optional(),
    metadata: metadataSchema,
  })
  .passthrough();
const chargeSchema = z
  .object({
    id: z.string().min(1),
    object: z.literal('charge'),
    refunded: z.boolean(),
    amount: z.number().int(),
    amount_refunded: z.number().int(),
    payment_intent: z.union([z.string().min(1), z.object({ id: z.string().min(1) }).passthrough()]).nullable(),
  })
  .passthrough();

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
  const row = await db
    .selectFrom('payment_orders')
    .select(['id', 'price_cents', 'external_id', 'provider'])
    .where('id', '=', orderId)
    .executeTakeFirst();
  if (!row || row.provider !== STRIPE_PROVIDER_NAME) return null;
  return { id: Number(row.id), amountCents: Number(row.price_cents), externalId: row.external_id };
}

export async function handleStripeEvent(
  deps: StripeEventDeps,
  event: { type?: unknown; data?: { object?: unknown } },
  log: (msg: string) => void,
): Promise<EventOutcome> {
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
      const paid = await deps.db.transaction().execute((trx) => markOrderPaid(trx, order.id, now(), session.id));
      return paid ? 'paid' : 'duplicate';
    }
    case 'charge.refunded': {
      const charge = parsed(chargeSchema, event.data?.object, 'charge');
      // A partial refund is the operator's call (it names no Gems): only a full refund takes them back.
      if (!charge.refunded || charge.amount_refunded < charge.amount) {
        log(
          `stripe: charge ${charge.id} partly refunded (${charge.amount_refunded} of ${charge.amount}): Gems left as they are`,
        );
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
      const taken = await deps.db.transaction().execute((trx) => refundOrder(trx, deps.dialect, order.id, now()));
      if (taken === null) return 'duplicate';
      log(`stripe: order ${order.id} refunded, ${taken} Gems taken back`);
      return 'refunded';
    }
    default:
      return 'ignored';
  }
}
