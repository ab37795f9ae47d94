// Web Push subscriptions (decisions §6): the VAPID key for `pushManager.subscribe`, and storing or
// removing the browser's subscription for the signed-in player.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  pushPublicKeySchema,
  pushSubscribeResponseSchema,
  pushSubscriptionSchema,
  pushUnsubscribeRequestSchema,
  pushUnsubscribeResponseSchema,
} from '@shared/api/push';
import { invalidField } from '../../lib/errors';
import { isValidClientKey, removeSubscription, saveSubscription } from '../../services/push';
import { endpointProblem } from '../../services/push-endpoint-policy';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get('/push/public-key/', { schema: { tags: ['push'], response: { 200: pushPublicKeySchema } } }, async () => ({
    public_key: app.config.vapid.publicKey,
  }));

  app.post(
    '/push/subscribe/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['push'], body: pushSubscriptionSchema, response: { 201: pushSubscribeResponseSchema } },
    },
    async (request, reply) => {
      const problem = endpointProblem(request.body.endpoint, app.config.pushAllowedHosts);
      if (problem) throw invalidField('endpoint', problem);
      if (!isValidClientKey(request.body.keys.p256dh))
        throw invalidField('keys.p256dh', 'Must be a point on the P-256 curve');
      const saved = await saveSubscription(app.db, request.userId!, request.body);
      reply.status(201);
      return { endpoint: saved.endpoint, created_at: new Date(saved.createdAt).toISOString() };
    },
  );

  app.post(
    '/push/unsubscribe/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['push'], body: pushUnsubscribeRequestSchema, response: { 200: pushUnsubscribeResponseSchema } },
    },
    async (request) => ({ removed: await removeSubscription(app.db, request.userId!, request.body.endpoint) }),
  );
};
export default routes;
