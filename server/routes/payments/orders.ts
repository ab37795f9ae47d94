// The player's Gems orders (decisions §8). Without any configured method the top-up answers 503
// `payments_unavailable`: the one deliberate 5xx of the API, since the call itself is fine. The
// order is written before the provider is asked (never inside a transaction: it may call out over
// the network), and the provider's answer is booked and the call's answer kept in one transaction,
// so a retry with the same Idempotency-Key gets the order it paid for, not a second one.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  orderParamsSchema,
  ordersPageSchema,
  ordersQuerySchema,
  paymentItemsResponseSchema,
  paymentOrderSchema,
  topUpRequestSchema,
  topUpResponseSchema,
} from '@shared/api/payments';
import { API_BASE } from '@shared/constants';
import { ApiError, notFound, refuse } from '../../lib/errors';
import { transactionWithAnswer } from '../../plugins/idempotency';
import {
  bookCheckout,
  createOrder,
  findOrder,
  markOrderFailed,
  MAX_OPEN_ORDERS,
  openOrderCount,
  recheckOrder,
  TOP_UP_ITEMS,
} from '../../services/payments/orders';
import { orderJson, providerOrder } from '../../services/payments/order-views';
import { requireUserOnEveryRoute } from '../../plugins/auth';

/** A player opening an open order asks its provider at most this often (coming back from the provider's page). */
const VIEW_CHECK_GAP_MS = 10_000;

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['payments'];
  const security = [{ bearer: [] }];
  requireUserOnEveryRoute(app);

  app.get(
    '/payments/items/',
    {
      schema: {
        tags,
        security,
        summary: 'What Gems can be bought, and with which methods now',
        response: { 200: paymentItemsResponseSchema },
      },
    },
    async () => ({
      items: TOP_UP_ITEMS.map((i) => ({ id: i.id, gems: i.gems, price_usd: i.price_usd })),
      methods: app.payments.methods,
      unavailable: app.payments.unavailable,
      test_methods: app.payments.methods.filter((m) => app.payments.forMethod(m)?.name === 'test'),
    }),
  );

  app.post(
    '/payments/top-up/',
    {
      config: { answers: { 502: ['payment_provider_error'], 503: ['payments_unavailable'] } },
      schema: {
        tags,
        security,
        summary: 'Order Gems: answers the order and what the method needs next (checkout_url or pay_to)',
        description:
          '400 `payment_method_unavailable` (method not configured here), 400 `too_many_open_orders`, 400 `wallet_required` (tether without a linked wallet), 502 `payment_provider_error`, 503 `payments_unavailable` (no method configured).',
        body: topUpRequestSchema,
        response: { 200: topUpResponseSchema },
      },
    },
    async (request) => {
      const { item_id: itemId, method, quantity } = request.body;
      if (app.payments.methods.length === 0) {
        app.metrics.payments.inc({ method, status: 'unavailable' });
        throw new ApiError(503, 'payments_unavailable', 'Payments are not available');
      }
      const provider = app.payments.forMethod(method);
      if (!provider)
        throw refuse('payment_method_unavailable', `Payment by ${method} is not available on this server`, {
          method,
          reason: app.payments.unavailable[method] ?? 'not_configured',
        });
      const userId = request.userId!;
      if ((await openOrderCount(app.db, userId)) >= MAX_OPEN_ORDERS) {
        throw refuse(
          'too_many_open_orders',
          `You have ${MAX_OPEN_ORDERS} unfinished orders: pay or wait for one of them first`,
        );
      }
      const user = await app.db
        .selectFrom('users')
        .select('wallet_address')
        .where('id', '=', userId)
        .executeTakeFirstOrThrow();
      const order = await createOrder(app.db, {
        userId,
        itemId,
        quantity,
        method,
        provider: provider.name,
        walletAddress: user.wallet_address,
      });
      let result;
      try {
        result = await provider.checkout(providerOrder(order));
      } catch (err) {
        // A provider's refusal of the player (e.g. no linked wallet) is theirs to read; anything else
        // means the provider could not be asked: the order fails, nothing was taken.
        const refusal = err instanceof ApiError && err.status < 500;
        await markOrderFailed(app.db, Number(order.id), refusal ? err.code : 'checkout_failed', Date.now());
        app.metrics.payments.inc({ method, status: refusal ? 'failed' : 'error' });
        if (refusal) throw err;
        request.log.error({ err, orderId: Number(order.id), provider: provider.name }, 'payment checkout failed');
        throw new ApiError(
          502,
          'payment_provider_error',
          'The payment provider could not be reached; nothing was charged. Try again later',
        );
      }
      const answer = await transactionWithAnswer(app.db, request, async (trx) => {
        const booked = orderJson(await bookCheckout(trx, order, result));
        const { gems } = await trx
          .selectFrom('users')
          .select('gems')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow();
        return {
          order: booked,
          gems: Number(gems),
          ...(booked.checkout_url ? { checkout_url: booked.checkout_url } : {}),
          ...(booked.pay_to ? { pay_to: booked.pay_to } : {}),
        };
      });
      app.metrics.payments.inc({ method, status: answer.order.status });
      return answer;
    },
  );

  app.get(
    '/payments/orders/',
    {
      schema: {
        tags,
        security,
        summary: "The player's orders, newest first",
        querystring: ordersQuerySchema,
        response: { 200: ordersPageSchema },
      },
    },
    async (request) => {
      const { page, page_size: pageSize } = request.query;
      const mine = app.db.selectFrom('payment_orders').where('user_id', '=', request.userId!);
      const { count } = await mine.select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      const rows = await mine
        .selectAll()
        .orderBy('id', 'desc')
        .limit(pageSize)
        .offset((page - 1) * pageSize)
        .execute();
      const total = Number(count);
      const pathOf = (p: number) => `${API_BASE}/payments/orders/?page=${p}&page_size=${pageSize}`;
      const lastPage = Math.max(1, Math.ceil(total / pageSize));
      return {
        count: total,
        next: page < lastPage ? pathOf(page + 1) : null,
        previous: page > 1 ? pathOf(Math.min(page - 1, lastPage)) : null,
        results: rows.map(orderJson),
      };
    },
  );

  app.get(
    '/payments/orders/:id/',
    {
      schema: {
        tags,
        security,
        summary: "One of the player's orders (an open one is checked with its provider first)",
        params: orderParamsSchema,
        response: { 200: paymentOrderSchema },
      },
    },
    async (request) => {
      let order = await findOrder(app.db, request.params.id);
      // Another player's order is as unknown as a missing one.
      if (!order || Number(order.user_id) !== request.userId) throw notFound('No such order', 'order_not_found');
      if (order.status === 'pending') {
        // Back from the provider's page: the webhook may not have arrived yet, so ask (rarely).
        try {
          await recheckOrder(
            { db: app.db, dialect: app.dialect, providerFor: (name) => app.payments.byName(name) },
            order,
            Date.now(),
            VIEW_CHECK_GAP_MS,
          );
        } catch (err) {
          request.log.warn({ err, orderId: Number(order.id) }, 'order re-check failed');
        }
        order = (await findOrder(app.db, Number(order.id)))!;
      }
      return orderJson(order);
    },
  );
};
export default routes;
