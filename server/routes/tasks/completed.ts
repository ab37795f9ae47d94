// The player's completed tasks, read from the ledger (services/quests.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { completedTaskParamsSchema, completedTaskSchema, completedTasksSchema } from '@shared/api/tasks';
import { notFound } from '../../lib/errors';
import {
  type CompletedTask,
  categoryCounts,
  categoryRewardsPaid,
  completedTask,
  completedTasks,
} from '../../services/quests';
import { isoTime } from '../../lib/iso-time';

const item = (t: CompletedTask) => ({
  id: t.id,
  task_title: t.quest.serverTitle,
  completed_at: isoTime(t.completedAt),
  reward: t.reward,
});

const routes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/tasks/completed/',
    { onRequest: app.requireUser, schema: { tags: ['tasks'], response: { 200: completedTasksSchema } } },
    async (request) => {
      const userId = request.userId!;
      const tasks = await completedTasks(app.db, userId);
      const paid = await categoryRewardsPaid(app.db, userId);
      return {
        completed_tasks: tasks.map(item),
        category_completion_counts: categoryCounts(tasks),
        total_completed: tasks.length,
        finished_user_account_quest: paid.user_account_quests,
        finished_social_quest: paid.social_quests,
      };
    },
  );

  app.get(
    '/tasks/completed/:id/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['tasks'], params: completedTaskParamsSchema, response: { 200: completedTaskSchema } },
    },
    async (request) => {
      // Another player's task is as unknown as a missing one.
      const task = await completedTask(app.db, request.userId!, request.params.id);
      if (!task) throw notFound('Task not found.');
      return item(task);
    },
  );
};
export default routes;
