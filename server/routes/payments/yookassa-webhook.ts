// YooKassa's HTTP notifications (decisions §8) at POST /api/v1/payments/webhooks/yookassa/. They are
// not signed, so one is only a hint: it names a payment, and the order that payment belongs to is
// re-checked by reading the payment back from YooKassa's API with the shop's key (recheckOrder →
// yookassa-provider.ts `check`). A payment no order of ours made is ignored without calling out.
// Answers 200 once handled (YooKassa stops repeating it), 400 for a body that is no notification,
// and 503 only when YooKassa's API could not be asked, so YooKassa delivers it again later.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from '../../lib/errors';
import { recheckOrder } from '../../services/payments/orders';
import { ProviderUnavailableError } from '../../services/payments/provider';
import { YOOKASSA_PROVIDER_NAME } from '../../services/payments/yookassa-provider';

/** Repeated or concurrent notifications for one order ask YooKassa at most this often (the worker follows up). */
const WEBHOOK_CHECK_GAP_MS = 2_000;

const notificationSchema = z.object({
  type: z.string().max(50).optional(),
  event: z.string().min(1).max(100),
  object: z.object({
    id: z.string().min(1).max(100),
    /** Refund notifications name their payment here. */
    payment_id: z.string().min(1).max(100).optional(),
  }),
});

const answerSchema = z.object({
  status: z.enum(['paid', 'refunded', 'failed', 'expired', 'pending', 'unchanged', 'ignored']),
});

const routes: FastifyPluginAsyncZod = async (app) => {
  if (!app.config.yookassa) return;

  app.post(
    '/payments/webhooks/yookassa/',
    {
      config: { answers: { 503: ['payment_provider_unavailable'] } },
      schema: {
        tags: ['payments'],
        summary: "YooKassa notification: the order of the payment it names is re-checked with YooKassa's API",
        body: notificationSchema,
        response: { 200: answerSchema },
      },
    },
    async (request) => {
      const { event, object } = request.body;
      const paymentId = event.startsWith('refund.') ? object.payment_id : object.id;
      if (!paymentId) return { status: 'ignored' as const };
      const order = await app.db
        .selectFrom('payment_orders')
        .selectAll()
        .where('provider', '=', YOOKASSA_PROVIDER_NAME)
        .where('external_id', '=', paymentId)
        .executeTakeFirst();
      if (!order) {
        request.log.info({ event, paymentId }, 'yookassa notification for a payment of no order: ignored');
        return { status: 'ignored' as const };
      }
      try {
        const status = await recheckOrder(
          { db: app.db, dialect: app.dialect, providerFor: (name) => app.payments.byName(name) },
          order,
          Date.now(),
          WEBHOOK_CHECK_GAP_MS,
        );
        return { status };
      } catch (err) {
        if (!(err instanceof ProviderUnavailableError)) throw err;
        request.log.warn(
          { err, orderId: Number(order.id) },
          'yookassa notification: the payment could not be read back',
        );
        throw new ApiError(
          503,
          'payment_provider_unavailable',
          'YooKassa could not be asked about this payment; deliver the notification again later',
        );
      }
    },
  );
};
export default routes;
