// Social follows (decisions §7): a trusted click pays 15 coins once per network.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { socialRewardRequestSchema, socialRewardResponseSchema } from '@shared/api/tasks';
import { SOCIAL_QUESTS } from '@shared/tasks';
import { completedTasks, payQuest, refuseTask, taskAnswer } from '../../services/quests';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/tasks/social-media-reward/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['tasks'], body: socialRewardRequestSchema, response: { 200: socialRewardResponseSchema } },
    },
    async (request) => {
      const userId = request.userId!;
      const quest = SOCIAL_QUESTS.find((q) => q.network === request.body.network)!;
      return app.db.transaction().execute(async (trx) => {
        if (!(await payQuest(trx, userId, quest))) throw refuseTask('reward_already_granted');
        const rewards = (await completedTasks(trx, userId))
          .filter((t) => t.quest.network !== undefined)
          .map((t) => ({ network: t.quest.network!, reward: t.reward }));
        return { ...taskAnswer('reward_granted'), rewards };
      });
    },
  );
};
export default routes;
