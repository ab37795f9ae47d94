// Gems payments (decisions §8): the player's order calls, and each provider's webhook in a file of
// its own (webhooks carry no player token, so they stay outside the orders' sign-in hook).
import type { FastifyInstance } from 'fastify';
import orders from './orders';
import yookassaWebhook from './yookassa-webhook';

export default async function payments(app: FastifyInstance) {
  await app.register(orders);
  await app.register(yookassaWebhook);
}
