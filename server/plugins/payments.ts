// The payment providers this server's configuration enables (services/payments/providers.ts), built
// once and shared by the payment routes, the webhooks and the payments worker.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type PaymentRegistry, paymentRegistryFor } from '../services/payments/providers';

declare module 'fastify' {
  interface FastifyInstance {
    payments: PaymentRegistry;
  }
}

export default fp(
  async (app: FastifyInstance) => {
    app.decorate('payments', paymentRegistryFor(app.config));
  },
  { name: 'payments', dependencies: ['config'] },
);
