// Every route folder, mounted under /api/v1. One line per area; each folder owns its schemas.
import type { FastifyInstance } from 'fastify';
import config from './config/index';
import auth from './auth/index';
import referrals from './referrals/index';
import tasks from './tasks/index';
import beta from './beta/index';
import blog from './blog/index';

export async function apiRoutes(app: FastifyInstance) {
  await app.register(config);
  await app.register(auth);
  await app.register(referrals);
  await app.register(tasks);
  await app.register(beta);
  await app.register(blog);
}
