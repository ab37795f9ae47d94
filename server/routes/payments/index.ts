// Gems top-up (decisions §8). Without a configured provider the top-up answers 503
// `payments_unavailable`: the one deliberate 5xx of the API, since the call itself is fine. The
// outcome is booked and the answer kept in one transaction, so a retry after a crash gets the order
// it paid for instead of a second order and a second payment.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentItemsResponseSchema, topUpRequestSchema, topUpResponseSchema } from '@shared/api/payments';
import { ApiError } from '../../lib/errors';
import { transactionWithAnswer } from '../../plugins/idempotency';
import { bookCheckout, checkoutOrder, orderJson, TOP_UP_ITEMS } from '../../services/payments/orders';
import { paymentProviderFor } from '../../services/payments/providers';

const routes: FastifyPluginAsyncZod = async (app) => {
  const provider = paymentProviderFor(app.config);
  const tags = ['payments'];
  const security = [{ bearer: [] }];
  app.addHook('onRequest', app.requireUser);

  app.get('/payments/items/', { schema: { tags, security, summary: 'What Gems can be bought', response: { 200: paymentItemsResponseSchema } } }, async () =>
    TOP_UP_ITEMS.map((i) => ({ id: i.id, gems: i.gems, price_usd: i.price_usd })),
  );

  app.post('/payments/top-up/', {
    schema: {
      tags, security,
      summary: 'Buy Gems (503 payments_unavailable when no payment provider is configured)',
      body: topUpRequestSchema,
      response: { 200: topUpResponseSchema },
    },
  }, async (request) => {
    const { method } = request.body;
    if (!provider) {
      app.metrics.payments.inc({ method, status: 'unavailable' });
      throw new ApiError(503, 'payments_unavailable', 'Payments are not available');
    }
    const userId = request.userId!;
    let answer;
    try {
      const { order, result } = await checkoutOrder(app.db, provider, userId, request.body.item_id, method);
      answer = await transactionWithAnswer(app.db, request, async (trx) => {
        const booked = await bookCheckout(trx, order, result);
        const user = await trx.selectFrom('users').select('gems').where('id', '=', userId).executeTakeFirstOrThrow();
        return { order: orderJson(booked), gems: Number(user.gems) };
      });
    } catch (err) {
      // The provider or the booking failed: the order stays pending, no Gems moved.
      app.metrics.payments.inc({ method, status: 'error' });
      throw err;
    }
    app.metrics.payments.inc({ method, status: answer.order.status });
    return answer;
  });
};
export default routes;
