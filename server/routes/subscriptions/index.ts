// The player's Auto Miner periods (decisions §9), newest first; 404 for an id that is not theirs.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { subscriptionSchema } from '@shared/api/mining';
import { subscriptionIdParamsSchema, subscriptionListResponseSchema } from '@shared/api/subscriptions';
import { notFound } from '../../lib/errors';
import { listSubscriptions, subscriptionById, subscriptionJson } from '../../services/auto-miner';
import { requireUserOnEveryRoute } from '../../plugins/auth';

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['subscriptions'];
  const security = [{ bearer: [] }];
  requireUserOnEveryRoute(app);

  app.get(
    '/subscriptions/',
    {
      schema: {
        tags,
        security,
        summary: 'Auto Miner periods, newest first',
        response: { 200: subscriptionListResponseSchema },
      },
    },
    async (request) => {
      const now = Date.now();
      return (await listSubscriptions(app.db, request.userId!)).map((s) => subscriptionJson(s, now));
    },
  );

  app.get(
    '/subscriptions/:id/',
    {
      schema: {
        tags,
        security,
        summary: 'One Auto Miner period',
        params: subscriptionIdParamsSchema,
        response: { 200: subscriptionSchema },
      },
    },
    async (request) => {
      const s = await subscriptionById(app.db, request.userId!, request.params.id);
      if (!s) throw notFound();
      return subscriptionJson(s, Date.now());
    },
  );
};
export default routes;
