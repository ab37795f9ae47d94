// GET /referrals/add-reward/ (decisions §7): pays every referral award whose "friends" number the
// referral count has reached and that was not paid yet; 200 with reward 0 when there is none.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { addReferralRewardSchema } from '@shared/api/tasks';
import { settleReferralAwards, taskAnswer } from '../../services/quests';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/referrals/add-reward/',
    {
      onRequest: app.requireUser,
      config: { stateChanging: true },
      schema: { tags: ['referrals'], response: { 200: addReferralRewardSchema } },
    },
    async (request) => {
      const userId = request.userId!;
      const paid = await app.db.transaction().execute((trx) => settleReferralAwards(trx, userId));
      const reward = paid.reduce((sum, a) => sum + a.points, 0);
      return {
        ...taskAnswer(reward > 0 ? 'referral_rewards_granted' : 'no_new_rewards'),
        reward,
        awards: paid.map((a) => a.friends),
      };
    },
  );
};
export default routes;
