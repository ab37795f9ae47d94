// The arcade season for the signed-in player: progress and tier claims.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transactionWithAnswer } from '../../plugins/idempotency';
import { claimTierBodySchema, claimTierResponseSchema, seasonSchema } from '@shared/api/arcade';
import { activeSeason, claimTier, noActiveSeason, seasonView } from '../../services/season';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/arcade/season/',
    { onRequest: app.requireUser, schema: { tags: ['arcade'], response: { 200: seasonSchema } } },
    async (request) => {
      const season = await activeSeason(app.db, Date.now());
      if (!season) throw noActiveSeason();
      return seasonView(app.db, request.userId!, season);
    },
  );

  app.post(
    '/arcade/claim/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['arcade'], body: claimTierBodySchema, response: { 200: claimTierResponseSchema } },
    },
    async (request) => {
      const userId = request.userId!;
      const { tier } = request.body;
      return transactionWithAnswer(app.db, request, async (trx) => {
        const { season, reward } = await claimTier(trx, userId, tier, Date.now());
        return { tier, reward, season: await seasonView(trx, userId, season) };
      });
    },
  );
};
export default routes;
