// The bot's routes (decisions §14): Telegram's webhook and the player's reminder switch.
import type { FastifyInstance } from 'fastify';
import reminders from './reminders';
import webhook from './webhook';

export default async function telegram(app: FastifyInstance) {
  await app.register(webhook);
  await app.register(reminders);
}
