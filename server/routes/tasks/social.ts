// Social follows (decisions §7): a click pays 15 coins once per network. With the channel or the
// Discord server configured (decisions §14), the follow pays only for a member: the check is asked
// before the paying transaction, and the ledger's unique key still pays it exactly once. A checked
// follow pays once per Telegram or Discord account too: linked to another player later, the same
// account does not pay the same follow again (`follow_already_rewarded`).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { followsSchema, socialRewardRequestSchema, socialRewardResponseSchema } from '@shared/api/tasks';
import { SOCIAL_QUESTS } from '@shared/tasks';
import { currentUser } from '../auth/common';
import { followAccountOf, followVerified, requireMembership, takeFollowAccount } from '../../services/follow-checks';
import { completedTasks, payQuest, questPaid, refuseTask, taskAnswer } from '../../services/quests';

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/tasks/social-media-reward/',
    {
      onRequest: app.requireUser,
      config: {
        answers: {
          400: [
            'reward_already_granted',
            'telegram_not_linked',
            'discord_not_linked',
            'not_a_member',
            'follow_already_rewarded',
          ],
          503: ['check_unavailable'],
        },
      },
      schema: { tags: ['tasks'], body: socialRewardRequestSchema, response: { 200: socialRewardResponseSchema } },
    },
    async (request) => {
      const userId = request.userId!;
      const quest = SOCIAL_QUESTS.find((q) => q.network === request.body.network)!;
      const network = quest.network!;
      let account: string | null = null;
      if (followVerified(app, network)) {
        // Paid before: no need to ask Telegram or Discord again.
        if (await questPaid(app.db, userId, quest)) throw refuseTask('reward_already_granted');
        const user = await currentUser(app.db, request);
        await requireMembership(app, user, network);
        account = followAccountOf(user, network);
      }
      return app.db.transaction().execute(async (trx) => {
        if (account !== null && !(await takeFollowAccount(trx, network, account, userId)))
          throw refuseTask('follow_already_rewarded', undefined, { network });
        if (!(await payQuest(trx, userId, quest))) throw refuseTask('reward_already_granted');
        const rewards = (await completedTasks(trx, userId))
          .filter((t) => t.quest.network !== undefined)
          .map((t) => ({ network: t.quest.network!, reward: t.reward }));
        return { ...taskAnswer('reward_granted'), rewards };
      });
    },
  );

  // What the quest cards need for their steps (decisions §14): which follows are checked, and
  // whether the accounts they are checked with are linked.
  app.get(
    '/tasks/follows/',
    { onRequest: app.requireUser, schema: { tags: ['tasks'], response: { 200: followsSchema } } },
    async (request) => {
      const user = await currentUser(app.db, request);
      const discordUsable =
        user.discord_token !== null &&
        (user.discord_token_expires_at === null || Number(user.discord_token_expires_at) > Date.now());
      return {
        telegram_linked: user.telegram_id !== null,
        discord_linked: user.discord_id !== null && discordUsable,
      };
    },
  );
};
export default routes;
