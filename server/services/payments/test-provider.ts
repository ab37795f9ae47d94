// PAYMENTS_PROVIDER=test (never in production, config.ts refuses it): every order is paid at once,
// so the whole top-up flow can be used and tested without money.
import type { PaymentProvider } from './provider';

export const testProvider: PaymentProvider = {
  name: 'test',
  async checkout(request) {
    return { status: 'paid', externalId: `test-${request.orderId}` };
  },
};
