// Telegram's webhook, POST /api/v1/telegram/webhook/ (decisions §14). No player signs in here: the
// header X-Telegram-Bot-Api-Secret-Token, equal to the secret given to setWebhook, is the only
// proof. It is checked before the body is read (a caller without it gets 401 and nothing is done),
// compared in constant time. The update is answered at once and handled after the answer (the
// bot's reply is a Bot API call that may be slow): Telegram waits for nothing of ours, and a burst
// of updates never queues behind Telegram's own answers.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Update } from 'grammy/types';
import { TELEGRAM_SECRET_HEADER, telegramUpdateSchema, telegramWebhookResponseSchema } from '@shared/api/telegram';
import { ApiError, notFound } from '../../lib/errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the webhook secret (equal-length digests: the comparison takes the same time whatever was sent). */
export function hasWebhookSecret(app: FastifyInstance, request: FastifyRequest): boolean {
  const secret = app.telegram?.settings.webhookSecret;
  const given = request.headers[TELEGRAM_SECRET_HEADER];
  if (!secret || typeof given !== 'string') return false;
  return timingSafeEqual(digest(given), digest(secret));
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/telegram/webhook/',
    {
      onRequest: async (request) => {
        if (!app.telegramBot) throw notFound('The Telegram bot is not configured');
        if (!hasWebhookSecret(app, request))
          throw new ApiError(
            401,
            'invalid_webhook_secret',
            'The X-Telegram-Bot-Api-Secret-Token header is missing or wrong',
          );
      },
      config: {
        answers: { 401: ['invalid_webhook_secret'], 404: ['not_found'] },
        // Telegram's bursts are not counted against its few addresses once the secret is shown (plugins/rate-limits.ts).
        rateLimitExempt: (request: FastifyRequest) => hasWebhookSecret(app, request),
      },
      schema: {
        tags: ['telegram'],
        summary: 'Telegram bot webhook (updates; only with the secret header)',
        body: telegramUpdateSchema,
        response: { 200: telegramWebhookResponseSchema },
      },
    },
    async (request, reply) => {
      const update = request.body as unknown as Update;
      const bot = app.telegramBot!;
      app.afterReply(reply, `telegram update ${update.update_id}`, () => bot.handleUpdate(update));
      return { ok: true as const };
    },
  );
};
export default routes;
