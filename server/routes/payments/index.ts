// Gems top-up (decisions §8). Without a configured provider the top-up answers 503
// `payments_unavailable`: the one deliberate 5xx of the API, since the call itself is fine.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { paymentItemsResponseSchema, topUpRequestSchema, topUpResponseSchema } from '../../../shared/api/payments';
import { ApiError } from '../../lib/errors';
import { orderJson, TOP_UP_ITEMS, topUp } from '../../services/payments/orders';
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
    if (!provider) throw new ApiError(503, 'payments_unavailable', 'Payments are not available');
    const userId = request.userId!;
    const order = await topUp(app.db, provider, userId, request.body.item_id, request.body.method);
    const user = await app.db.selectFrom('users').select('gems').where('id', '=', userId).executeTakeFirstOrThrow();
    return { order: orderJson(order), gems: Number(user.gems) };
  });
};
export default routes;
