// The providers this server can take payments with, by method. Each real provider's file exports a
// factory that answers null while its settings are missing; adding a provider is its file plus one
// line in PROVIDERS. A real provider wins over the test one for its method, so a demo or test
// server can run one real method beside test payments for the others.
import { PAYMENT_METHODS, type PaymentMethod } from '@shared/constants';
import type { Config } from '../../config';
import type { PaymentProvider } from './provider';
import { createStripeProvider } from './stripe-provider';
import { testProvider } from './test-provider';
import { usdtProvider } from './usdt-provider';
import { yookassaProvider } from './yookassa-provider';

export type ProviderFactory = (config: Config) => PaymentProvider | null;

const PROVIDERS: ProviderFactory[] = [
  (config) => createStripeProvider(config),
  yookassaProvider,
  (config) => (config.usdt ? usdtProvider(config.usdt) : null),
];

/** Why a method cannot be used now (GET /payments/items/ tells the dialog). */
export type UnavailableReason = 'not_configured';

export interface PaymentRegistry {
  /** The methods this server can take now, in the dialog's order. */
  methods: PaymentMethod[];
  unavailable: Partial<Record<PaymentMethod, UnavailableReason>>;
  forMethod(method: PaymentMethod): PaymentProvider | null;
  /** The provider that made an order (payment_orders.provider), for re-checks and webhooks. */
  byName(name: string): PaymentProvider | null;
}

export function paymentRegistryFor(config: Config, factories: ProviderFactory[] = PROVIDERS): PaymentRegistry {
  const byMethod = new Map<PaymentMethod, PaymentProvider>();
  for (const factory of factories) {
    const provider = factory(config);
    if (provider && !byMethod.has(provider.method)) byMethod.set(provider.method, provider);
  }
  if (config.paymentsProvider === 'test') {
    for (const m of PAYMENT_METHODS) if (!byMethod.has(m)) byMethod.set(m, testProvider(m));
  }
  const methods = PAYMENT_METHODS.filter((m) => byMethod.has(m));
  const unavailable: PaymentRegistry['unavailable'] = {};
  for (const m of PAYMENT_METHODS) if (!byMethod.has(m)) unavailable[m] = 'not_configured';
  const named = new Map<string, PaymentProvider>();
  for (const p of byMethod.values()) if (!named.has(p.name)) named.set(p.name, p);
  return {
    methods,
    unavailable,
    forMethod: (method) => byMethod.get(method) ?? null,
    byName: (name) => named.get(name) ?? null,
  };
}
