// Category rewards (decisions §7): 100 coins once for all 3 account quests, once for 6 or more
// social quests.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { categoryRewardSchema } from '@shared/api/tasks';
import { CATEGORY_REWARD_COINS } from '@shared/constants';
import type { TaskCategory } from '@shared/task-messages';
import {
  categoryComplete,
  categoryCounts,
  categoryRewardsPaid,
  completedTasks,
  payCategoryReward,
  refuseTask,
  taskAnswer,
} from '../../services/quests';

const PATHS: Record<TaskCategory, string> = {
  user_account_quests: '/tasks/reward-user-account/',
  social_quests: '/tasks/reward-social/',
};

const routes: FastifyPluginAsyncZod = async (app) => {
  for (const [category, path] of Object.entries(PATHS) as [TaskCategory, string][]) {
    app.get(
      path,
      {
        onRequest: app.requireUser,
        config: { stateChanging: true },
        schema: {
          tags: ['tasks'],
          summary: `Pays the ${CATEGORY_REWARD_COINS}-coin reward of ${category} once`,
          response: { 200: categoryRewardSchema },
        },
      },
      async (request) => {
        const userId = request.userId!;
        return app.db.transaction().execute(async (trx) => {
          if ((await categoryRewardsPaid(trx, userId))[category])
            throw refuseTask('category_already_claimed', undefined, { category });
          const counts = categoryCounts(await completedTasks(trx, userId));
          if (!categoryComplete(category, counts)) throw refuseTask('category_incomplete', category, { category });
          if (!(await payCategoryReward(trx, userId, category)))
            throw refuseTask('category_already_claimed', undefined, { category });
          return { ...taskAnswer('category_reward_granted', category), category, reward: CATEGORY_REWARD_COINS };
        });
      },
    );
  }
};
export default routes;
