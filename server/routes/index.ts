// Every route folder, mounted under /api/v1. One line per area; each folder owns its schemas.
import type { FastifyInstance } from 'fastify';
import config from './config/index';
import auth from './auth/index';
import referrals from './referrals/index';
import mining from './mining/index';
import payments from './payments/index';
import stripeWebhook from './payments/stripe-webhook';
import tetherPayments from './payments/tether';
import assets from './assets/index';
import subscriptions from './subscriptions/index';
import tasks from './tasks/index';
import beta from './beta/index';
import blog from './blog/index';
import arcade from './arcade/index';
import ico from './ico/index';
import push from './push/index';
import telegram from './telegram/index';

export async function apiRoutes(app: FastifyInstance) {
  await app.register(config);
  await app.register(auth);
  await app.register(referrals);
  await app.register(mining);
  await app.register(payments);
  await app.register(stripeWebhook);
  await app.register(tetherPayments);
  await app.register(assets);
  await app.register(subscriptions);
  await app.register(tasks);
  await app.register(beta);
  await app.register(blog);
  await app.register(arcade);
  await app.register(ico);
  await app.register(push);
  await app.register(telegram);
}
