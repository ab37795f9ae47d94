// Every route folder, mounted under /api/v1. One line per area; each folder owns its schemas.
import type { FastifyInstance } from 'fastify';
import config from './config/index';

export async function apiRoutes(app: FastifyInstance) {
  await app.register(config);
}
