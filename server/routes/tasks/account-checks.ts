// Account quests (decisions §7): each check pays its quest once, when its condition holds.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { questRewardSchema } from '@shared/api/tasks';
import type { TaskMessageCode } from '@shared/task-messages';
import { questByKey } from '@shared/tasks';
import { notAuthenticated } from '../../lib/errors';
import { payQuest, questPaid, refuseTask, taskAnswer } from '../../services/quests';
import type { User } from '../../services/users';

interface Check {
  path: string;
  questKey: string;
  holds: (u: User) => boolean;
  refusal: TaskMessageCode;
}

const CHECKS: readonly Check[] = [
  {
    path: '/check-username/',
    questKey: 'add_nickname',
    // A wallet sign-up gets its address as username: that is not a nickname yet.
    holds: (u) => !!u.username && u.username.toLowerCase() !== (u.wallet_address ?? '').toLowerCase(),
    refusal: 'username_not_set',
  },
  { path: '/check-wallet/', questKey: 'connect_wallet', holds: (u) => !!u.wallet_address, refusal: 'wallet_not_added' },
  {
    path: '/check-email-password/',
    questKey: 'add_email_password',
    holds: (u) => !!u.email && u.email_confirmed === 1 && !!u.password_hash,
    refusal: 'email_password_not_confirmed',
  },
];

const routes: FastifyPluginAsyncZod = async (app) => {
  for (const check of CHECKS) {
    const quest = questByKey(check.questKey);
    if (!quest) throw new Error(`unknown quest ${check.questKey}`);
    app.get(
      check.path,
      {
        onRequest: app.requireUser,
        config: { stateChanging: true },
        schema: {
          tags: ['tasks'],
          summary: `Pays «${quest.serverTitle}» (${quest.coins} coins) once`,
          response: { 200: questRewardSchema },
        },
      },
      async (request) => {
        const userId = request.userId!;
        return app.db.transaction().execute(async (trx) => {
          const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
          if (!user) throw notAuthenticated('User not found');
          if (await questPaid(trx, userId, quest)) throw refuseTask('reward_already_granted');
          if (!check.holds(user)) throw refuseTask(check.refusal);
          if (!(await payQuest(trx, userId, quest))) throw refuseTask('reward_already_granted');
          const { balance } = await trx
            .selectFrom('users')
            .select('balance')
            .where('id', '=', userId)
            .executeTakeFirstOrThrow();
          return { ...taskAnswer('reward_granted'), reward: quest.coins, balance: Number(balance) };
        });
      },
    );
  }
};
export default routes;
