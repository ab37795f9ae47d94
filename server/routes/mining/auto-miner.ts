// Subscribing to the Auto Miner. If no session is running, one starts at once; from then on the
// mining worker claims and restarts sessions until the subscription expires. The answer is kept in
// the purchase's transaction, so a retry after a crash gets it back instead of paying again.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { autoStartResponseSchema } from '@shared/api/mining';
import { transactionWithAnswer } from '../../plugins/idempotency';
import { buyAutoMiner, subscriptionJson } from '../../services/auto-miner';
import { sessionJson, startSession } from '../../services/mining-sessions';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/mining/auto-start/',
    {
      schema: {
        tags: ['mining'],
        security: [{ bearer: [] }],
        summary: 'Buy 30 days of Auto Miner for 150 Gems (extends a running period; 400 not_enough_gems)',
        response: { 200: autoStartResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const now = Date.now();
      return transactionWithAnswer(app.db, request, async (trx) => {
        const subscription = await buyAutoMiner(trx, userId, now);
        const started = await startSession(trx, userId, {
          now,
          sessionSeconds: app.config.miningSessionSeconds,
          auto: true,
        });
        const user = await trx.selectFrom('users').select('gems').where('id', '=', userId).executeTakeFirstOrThrow();
        return {
          subscription: subscriptionJson(subscription, now),
          gems: Number(user.gems),
          session: started ? sessionJson(started.session, started.applied) : null,
        };
      });
    },
  );
};
export default routes;
