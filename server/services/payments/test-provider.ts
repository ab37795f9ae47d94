// PAYMENTS_PROVIDER=test (never in production, config.ts refuses it): every order is paid at once,
// whatever the method, so the whole top-up flow can be used and tested without money.
import type { PaymentMethod } from '@shared/constants';
import type { PaymentProvider } from './provider';

export const testProvider = (method: PaymentMethod): PaymentProvider => ({
  method,
  name: 'test',
  async checkout(order) {
    return { status: 'paid', externalId: `test-${order.id}` };
  },
  async check(order) {
    return { status: 'paid', externalId: order.externalId ?? `test-${order.id}` };
  },
});
