// The beta-test application (decisions §7): all 9 required tasks done, valid contacts, once.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { betaApplicationRequestSchema, betaApplicationResponseSchema, betaStatusSchema } from '@shared/api/beta';
import { BETA_EMAIL_MAX, isValidDiscord, isValidTelegram, isValidWallet } from '@shared/beta';
import { BETA_REQUIRED_TASKS } from '@shared/constants';
import type { TaskMessageCode } from '@shared/task-messages';
import { isValidEmail } from '@shared/validation';
import type { BetaApplicationRequest } from '@shared/api/beta';
import type { Tx } from '../../db/schema';
import { betaProgress, invalidTaskFields, refuseTask, settleReferralAwards, taskAnswer } from '../../services/quests';

function fieldErrors(b: BetaApplicationRequest): { field: string; code: TaskMessageCode }[] {
  const errors: { field: string; code: TaskMessageCode }[] = [];
  if (!isValidTelegram(b.telegram)) errors.push({ field: 'telegram', code: 'invalid_telegram_format' });
  if (!isValidDiscord(b.discord)) errors.push({ field: 'discord', code: 'invalid_discord_format' });
  if (b.email.length > BETA_EMAIL_MAX || !isValidEmail(b.email))
    errors.push({ field: 'email', code: 'invalid_email_format' });
  if (!isValidWallet(b.wallet)) errors.push({ field: 'wallet', code: 'invalid_wallet_format' });
  return errors;
}

async function hasApplied(db: Tx, userId: number): Promise<boolean> {
  const row = await db.selectFrom('beta_applications').select('id').where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}

const routes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/apply-for-beta/',
    {
      onRequest: app.requireUser,
      schema: { tags: ['beta'], body: betaApplicationRequestSchema, response: { 201: betaApplicationResponseSchema } },
    },
    async (request, reply) => {
      const userId = request.userId!;
      if (await hasApplied(app.db, userId)) throw refuseTask('beta_already_applied');
      // Invite quests are done once their referral count is reached; pay any such award not
      // claimed yet, so every required task has its ledger row before the check.
      await app.db.transaction().execute((trx) => settleReferralAwards(trx, userId));
      const { missing } = await betaProgress(app.db, userId);
      if (missing.length > 0) throw refuseTask('beta_tasks_incomplete', undefined, { missing });
      const errors = fieldErrors(request.body);
      if (errors.length > 0) throw invalidTaskFields(errors);

      const b = request.body;
      const application = {
        telegram: b.telegram.startsWith('@') ? b.telegram : `@${b.telegram}`,
        discord: b.discord.includes('#') ? b.discord : b.discord.toLowerCase(),
        email: b.email,
        wallet: b.wallet,
        created_at: Date.now(),
      };
      // The unique user_id decides between two racing applications.
      const inserted = await app.db
        .insertInto('beta_applications')
        .values({ user_id: userId, ...application })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!inserted) throw refuseTask('beta_already_applied');
      reply.status(201);
      return {
        ...taskAnswer('beta_applied'),
        application: { ...application, created_at: new Date(application.created_at).toISOString() },
      };
    },
  );

  app.get(
    '/beta/status/',
    { onRequest: app.requireUser, schema: { tags: ['beta'], response: { 200: betaStatusSchema } } },
    async (request) => {
      const userId = request.userId!;
      const { completed, missing } = await betaProgress(app.db, userId);
      const applied = await hasApplied(app.db, userId);
      return {
        is_eligible: missing.length === 0,
        has_access: applied,
        completed_tasks: completed.length,
        total_required_tasks: BETA_REQUIRED_TASKS,
        missing_tasks: missing,
        applied,
      };
    },
  );
};
export default routes;
