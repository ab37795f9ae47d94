// Card payments through Stripe Checkout (decisions §8), with the official `stripe` package: one
// Checkout Session per order, the player sent to Stripe's page and back to /miner?order={id}. The
// Gems are credited by the signed webhook (stripe-events.ts); `check` reads the session back for the
// worker that re-checks pending orders.
import Stripe from 'stripe';
import type { Config, StripeSettings } from '../../config';
import type { PaymentProvider } from './provider';

export const STRIPE_PROVIDER_NAME = 'stripe';

/** Stripe lets a Checkout Session live 30 minutes to 24 hours; the order itself expires after 24 h. */
const SESSION_MIN_SECONDS = 31 * 60;
const SESSION_MAX_SECONDS = 24 * 3600;
/** Our clock and Stripe's may differ a little: stay that far inside Stripe's 24 h limit. */
const CLOCK_MARGIN_SECONDS = 120;

/** A client of Stripe's API, or of the stand-in STRIPE_API_BASE names. */
export function stripeClient(settings: StripeSettings): Stripe | null {
  if (!settings.secretKey) return null;
  return new Stripe(settings.secretKey, {
    ...(settings.api ?? {}),
    // One retry, with the package's own Idempotency-Key, so a lost answer never makes a second session.
    maxNetworkRetries: 1,
    // The top-up call waits for this: a hung Stripe must not hold the player's request for 80 s.
    timeout: 20_000,
    appInfo: { name: 'pxt-companion' },
  });
}

export const stripeOrderUrl = (appUrl: string, orderId: number) => `${appUrl}/miner?order=${orderId}`;

/** The Checkout Session's expiry: the order's own 24 h, within what Stripe accepts. */
export function sessionExpiresAt(createdAtMs: number, nowMs: number): number {
  const now = Math.floor(nowMs / 1000);
  const wanted = Math.floor(createdAtMs / 1000) + SESSION_MAX_SECONDS;
  return Math.max(now + SESSION_MIN_SECONDS, Math.min(wanted, now + SESSION_MAX_SECONDS - CLOCK_MARGIN_SECONDS));
}

/** The order id a session (or a charge's metadata) names, or null when it names none or two. */
export function sessionOrderId(
  session: Pick<Stripe.Checkout.Session, 'client_reference_id' | 'metadata'>,
): number | null {
  const fromRef = session.client_reference_id ?? null;
  const fromMeta = session.metadata?.order_id ?? null;
  if (fromRef !== null && fromMeta !== null && fromRef !== fromMeta) return null;
  const raw = fromMeta ?? fromRef;
  if (raw === null || !/^[1-9][0-9]{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

/** Whether a paid session is the payment this order asked for: same order, same amount, USD. */
export function sessionMatchesOrder(
  session: Stripe.Checkout.Session,
  order: { id: number; amountCents: number; externalId: string | null },
): string | null {
  if (sessionOrderId(session) !== order.id) return 'the session names another order';
  if (order.externalId !== null && order.externalId !== session.id) return 'the order has another Checkout Session';
  if (session.mode !== 'payment') return `the session's mode is ${session.mode}`;
  if ((session.currency ?? '').toLowerCase() !== 'usd') return `the session is in ${session.currency}`;
  if (session.amount_total !== order.amountCents)
    return `the session is for ${session.amount_total} cents, the order for ${order.amountCents}`;
  return null;
}

function chargeOf(session: Stripe.Checkout.Session): Stripe.Charge | null {
  const intent = session.payment_intent;
  if (!intent || typeof intent === 'string') return null;
  const charge = intent.latest_charge;
  return charge && typeof charge !== 'string' ? charge : null;
}

export function createStripeProvider(
  config: Pick<Config, 'stripe' | 'appUrl'>,
  now: () => number = Date.now,
): PaymentProvider | null {
  const stripe = stripeClient(config.stripe);
  if (!stripe) return null;
  return {
    method: 'card',
    name: STRIPE_PROVIDER_NAME,

    async checkout(order) {
      const quantity = order.quantity;
      // One line "50 Gems" × quantity: the player sees what one item is and how many.
      const unitCents = order.amountCents / quantity;
      const unitGems = order.gems / quantity;
      if (!Number.isInteger(unitCents) || !Number.isInteger(unitGems))
        throw new Error(`order ${order.id}: amount or Gems do not divide by quantity ${quantity}`);
      const back = stripeOrderUrl(config.appUrl, order.id);
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [
            {
              quantity,
              price_data: { currency: 'usd', unit_amount: unitCents, product_data: { name: `${unitGems} Gems` } },
            },
          ],
          client_reference_id: String(order.id),
          metadata: { order_id: String(order.id) },
          payment_intent_data: { metadata: { order_id: String(order.id) } },
          success_url: back,
          cancel_url: back,
          expires_at: sessionExpiresAt(order.createdAt, now()),
        },
        // A retried top-up for the same order gets the same session back, never a second one.
        { idempotencyKey: `pxt-order-${order.id}-checkout` },
      );
      if (!session.url) throw new Error(`Stripe answered session ${session.id} without a url`);
      return { status: 'pending', externalId: session.id, checkoutUrl: session.url };
    },

    async check(order) {
      if (!order.externalId) return { status: 'pending', detail: 'no Checkout Session yet' };
      const session = await stripe.checkout.sessions.retrieve(order.externalId, {
        expand: ['payment_intent.latest_charge'],
      });
      const mismatch = sessionMatchesOrder(session, order);
      if (mismatch) return { status: 'failed', externalId: session.id, detail: mismatch };
      if (session.payment_status === 'paid') {
        const charge = chargeOf(session);
        if (charge?.refunded) return { status: 'refunded', externalId: session.id };
        return { status: 'paid', externalId: session.id };
      }
      if (session.status === 'expired')
        return { status: 'failed', externalId: session.id, detail: 'the Checkout Session expired unpaid' };
      return { status: 'pending', externalId: session.id };
    },
  };
}
