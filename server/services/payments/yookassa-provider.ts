// sbp through YooKassa's v3 HTTP API (decisions §8): one payment with a redirect confirmation per
// order, created with the order's id as its Idempotence-Key (a retried create returns the same
// payment) and its id in the metadata. Nothing YooKassa sends us is believed: `check` reads the
// payment back with the shop's key and calls it paid only when it is our order's payment
// (id and metadata), `succeeded`, and of exactly the amount and currency the order was charged.
//
// Orders are priced in USD; YooKassa takes roubles. The order is charged at YOOKASSA_RUB_PER_USD,
// rounded up to the kopeck, and that charge is kept on the order, so a later change of the rate
// never makes a paid order look underpaid (docs/choices.md).
import type { Config, YookassaSettings } from '../../config';
import {
  type Charge,
  type PaymentProvider,
  type ProviderOrder,
  type ProviderStatus,
  ProviderUnavailableError,
} from './provider';

export const YOOKASSA_PROVIDER_NAME = 'yookassa';
const TIMEOUT_MS = 10_000;

/** Roubles for an amount in US cents at the configured rate, rounded up to the kopeck ("449.10"). */
export function roublesFor(amountCents: number, rubPerUsd: string): string {
  const [whole, frac = ''] = rubPerUsd.split('.');
  const rateE4 = BigInt(whole) * 10_000n + BigInt(frac.padEnd(4, '0'));
  // cents × rate = kopecks; the rate carries 4 decimals.
  const scaled = BigInt(amountCents) * rateE4;
  const kopecks = (scaled + 9_999n) / 10_000n;
  return `${kopecks / 100n}.${String(kopecks % 100n).padStart(2, '0')}`;
}

/** "449.1" and "449.10" are the same amount; anything that is not a plain decimal is no amount. */
function kopecksOf(value: unknown): bigint | null {
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d{1,2})?$/.test(value)) return null;
  const [whole, frac = ''] = value.split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}

interface YookassaPayment {
  id?: unknown;
  status?: unknown;
  amount?: { value?: unknown; currency?: unknown };
  refunded_amount?: { value?: unknown; currency?: unknown };
  confirmation?: { confirmation_url?: unknown };
  metadata?: Record<string, unknown> | null;
  cancellation_details?: { reason?: unknown };
}

export function createYookassaProvider(settings: YookassaSettings, appUrl: string): PaymentProvider {
  const auth = `Basic ${Buffer.from(`${settings.shopId}:${settings.secretKey}`).toString('base64')}`;

  async function call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    idempotenceKey?: string,
  ): Promise<YookassaPayment> {
    let res: Response;
    try {
      res = await fetch(`${settings.apiBase}${path}`, {
        method,
        headers: {
          authorization: auth,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(idempotenceKey ? { 'idempotence-key': idempotenceKey } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (err) {
      throw new ProviderUnavailableError(`YooKassa ${method} ${path}: ${(err as Error).message}`);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok)
      throw new ProviderUnavailableError(`YooKassa ${method} ${path}: HTTP ${res.status} ${text.slice(0, 200)}`);
    try {
      const json = JSON.parse(text) as unknown;
      if (json === null || typeof json !== 'object') throw new Error('not an object');
      return json as YookassaPayment;
    } catch {
      throw new ProviderUnavailableError(`YooKassa ${method} ${path}: the answer is not a payment`);
    }
  }

  return {
    method: 'sbp',
    name: YOOKASSA_PROVIDER_NAME,

    async checkout(order: ProviderOrder) {
      const charge: Charge = { amount: roublesFor(order.amountCents, settings.rubPerUsd), currency: 'RUB' };
      const payment = await call(
        'POST',
        '/payments',
        {
          amount: { value: charge.amount, currency: charge.currency },
          capture: true,
          confirmation: { type: 'redirect', return_url: `${appUrl}/miner?order=${order.id}` },
          description: `${order.gems} Gems, order ${order.id}`,
          metadata: { order_id: String(order.id) },
          // The order's creation time too: after a database reset, ids repeat within YooKassa's 24 h key window.
        },
        `pxt-order-${order.id}-${order.createdAt}`,
      );
      const url = payment.confirmation?.confirmation_url;
      if (typeof payment.id !== 'string' || payment.id === '' || typeof url !== 'string' || !/^https?:\/\//.test(url)) {
        throw new ProviderUnavailableError('YooKassa created no payment with a confirmation URL');
      }
      return { status: 'pending', externalId: payment.id, checkoutUrl: url, charge };
    },

    async check(order: ProviderOrder): Promise<ProviderStatus> {
      if (!order.externalId) return { status: 'pending', detail: 'no_payment_yet' };
      const payment = await call('GET', `/payments/${encodeURIComponent(order.externalId)}`);
      if (payment.id !== order.externalId || payment.metadata?.order_id !== String(order.id)) {
        return { status: 'failed', detail: 'payment_of_another_order' };
      }
      switch (payment.status) {
        case 'pending':
        case 'waiting_for_capture':
          return { status: 'pending' };
        case 'canceled': {
          const reason = payment.cancellation_details?.reason;
          return {
            status: 'failed',
            detail: typeof reason === 'string' ? `canceled:${reason.slice(0, 60)}` : 'canceled',
          };
        }
        case 'succeeded': {
          const charged = order.charge ? kopecksOf(order.charge.amount) : null;
          const paid = kopecksOf(payment.amount?.value);
          if (charged === null || paid !== charged || payment.amount?.currency !== order.charge?.currency) {
            return { status: 'failed', detail: 'amount_mismatch' };
          }
          const refunded = kopecksOf(payment.refunded_amount?.value) ?? 0n;
          // A full refund takes the Gems back; a partial one is the operator's business (docs/operating.md).
          if (refunded >= charged) return { status: 'refunded', externalId: order.externalId };
          return { status: 'paid', externalId: order.externalId };
        }
        default:
          throw new ProviderUnavailableError(`YooKassa payment ${order.externalId} has no known status`);
      }
    },
  };
}

export const yookassaProvider = (config: Config): PaymentProvider | null =>
  config.yookassa ? createYookassaProvider(config.yookassa, config.appUrl) : null;
