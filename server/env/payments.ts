// Payment provider settings from the environment (decisions §8): variables that only make sense
// together, checked together. Their variables are declared in env/variables.ts.
import type { Env } from './variables';

export interface YookassaSettings {
  shopId: string;
  secretKey: string;
  /** YOOKASSA_API_BASE, without a trailing slash (default https://api.yookassa.ru/v3). */
  apiBase: string;
  /** YOOKASSA_RUB_PER_USD: the rate orders (priced in USD) are charged at, in roubles, as given (e.g. "92.5"). */
  rubPerUsd: string;
}

export function yookassaFrom(env: Env, production: boolean): YookassaSettings | null {
  const shopId = env.YOOKASSA_SHOP_ID || '';
  const secretKey = env.YOOKASSA_SECRET_KEY || '';
  if (!shopId && !secretKey) return null;
  if (!shopId || !secretKey)
    throw new Error('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY go together: set both or neither');
  const rate = env.YOOKASSA_RUB_PER_USD ?? '';
  // At most 4 decimals, so the rouble amount is computed exactly (services/payments/yookassa-provider.ts).
  if (!/^\d{1,6}(\.\d{1,4})?$/.test(rate) || Number(rate) <= 0)
    throw new Error(`YOOKASSA_RUB_PER_USD must be a positive rate such as 92.5 (roubles per US dollar), got "${rate}"`);
  const apiBase = (env.YOOKASSA_API_BASE || 'https://api.yookassa.ru/v3').replace(/\/+$/, '');
  let url: URL;
  try {
    url = new URL(apiBase);
  } catch {
    throw new Error(`YOOKASSA_API_BASE must be a URL, got "${apiBase}"`);
  }
  // The secret key travels in every request's Authorization header.
  if (url.protocol !== 'https:' && (production || url.protocol !== 'http:'))
    throw new Error(`YOOKASSA_API_BASE must be https${production ? ' in production' : ''}, got "${apiBase}"`);
  return { shopId, secretKey, apiBase, rubPerUsd: rate };
}

export interface StripeSettings {
  /** STRIPE_SECRET_KEY (sk_live_… / sk_test_… or a restricted rk_… key). */
  secretKey: string | null;
  /** STRIPE_WEBHOOK_SECRET (whsec_…): the signing secret of the webhook endpoint. */
  webhookSecret: string | null;
  /** STRIPE_API_BASE split for the stripe package; null: Stripe's own api.stripe.com. */
  api: { protocol: 'http' | 'https'; host: string; port: number } | null;
}

export function stripeFrom(env: Env): StripeSettings {
  const raw = env.STRIPE_API_BASE;
  let api: StripeSettings['api'] = null;
  if (raw) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new Error(`STRIPE_API_BASE must be a URL, got "${raw}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new Error(`STRIPE_API_BASE must be http(s), got "${raw}"`);
    // The package adds /v1/… to the host itself: a path here would be silently ignored.
    if (url.pathname !== '/' && url.pathname !== '') throw new Error(`STRIPE_API_BASE takes no path, got "${raw}"`);
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    api = { protocol, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 };
  }
  return { secretKey: env.STRIPE_SECRET_KEY || null, webhookSecret: env.STRIPE_WEBHOOK_SECRET || null, api };
}
