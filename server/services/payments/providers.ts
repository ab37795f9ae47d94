// The payment provider the configuration names, or null when payments are off.
import type { Config } from '../../config';
import type { PaymentProvider } from './provider';
import { testProvider } from './test-provider';

export function paymentProviderFor(config: Pick<Config, 'paymentsProvider'>): PaymentProvider | null {
  switch (config.paymentsProvider) {
    case 'test':
      return testProvider;
    default:
      return null;
  }
}
