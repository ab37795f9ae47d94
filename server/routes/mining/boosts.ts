// Boosts: the list, selecting and applying temporary boosts, and granting task/referral boosts.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { transactionWithAnswer } from '../../plugins/idempotency';
import {
  applyTempBoostRequestSchema,
  applyTempBoostResponseSchema,
  boostsResponseSchema,
  rewardReferralBoostResponseSchema,
  rewardTaskBoostRequestSchema,
  rewardTaskBoostResponseSchema,
  selectTempBoostRequestSchema,
  selectTempBoostResponseSchema,
} from '@shared/api/mining';
import { refuse } from '../../lib/errors';
import { allOf, andThen } from '../../lib/now-or-later';
import { sessionBoostJson, sessionJsonById, userRatePercents } from '../../services/mining-sessions';
import {
  rateBoostJson,
  rateBoosts,
  rateBoostTotals,
  rewardReferralBoosts,
  rewardTaskBoost,
  waitingReferralBoosts,
} from '../../services/rate-boosts';
import { applyBoost, currentTempBoosts, selectBoost, tempBoostJson } from '../../services/temp-boosts';

const routes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['mining'];
  const security = [{ bearer: [] }];

  app.get(
    '/mining/boosts/',
    {
      schema: {
        tags,
        security,
        summary: 'Temporary, task and referral boosts with their totals',
        response: { 200: boostsResponseSchema },
      },
    },
    // Not async: on SQLite the three reads are answered without a promise (lib/now-or-later.ts).
    (request) => {
      const userId = request.userId!;
      const now = Date.now();
      const reads = allOf([
        currentTempBoosts(app.db, userId, now),
        rateBoosts(app.db, userId),
        waitingReferralBoosts(app.db, userId),
      ]);
      return andThen(reads, ([temp, permanent, waiting]) => {
        // The totals from the rate boosts just read (every one of the player's), not a query of their own.
        const rate = rateBoostTotals(permanent);
        return {
          boosts: [...temp.map((b) => tempBoostJson(b, now)), ...permanent.map(rateBoostJson)],
          task_total_boost: rate.taskPercent,
          task_count: rate.taskCount,
          referral_total_boost: rate.referralPercent,
          referral_count: rate.referralCount,
          referral_waiting: waiting,
          temporary_count: temp.filter((b) => b.state === 'owned' || b.state === 'selected').length,
        };
      });
    },
  );

  app.post(
    '/mining/select-temp-boost/',
    {
      config: { answers: { 404: ['boost_not_found'] } },
      schema: {
        tags,
        security,
        summary: 'Select an unused boost for the next session start',
        body: selectTempBoostRequestSchema,
        response: { 200: selectTempBoostResponseSchema },
      },
    },
    async (request) => {
      const now = Date.now();
      return transactionWithAnswer(app.db, request, async (trx) => {
        const boost = await selectBoost(trx, request.userId!, request.body.boost_id, now);
        return {
          message: 'Boost selected: it applies when the next mining session starts',
          boost: tempBoostJson(boost, now),
        };
      });
    },
  );

  app.post(
    '/mining/apply-temp-boost/',
    {
      config: { answers: { 404: ['boost_not_found'] } },
      schema: {
        tags,
        security,
        summary: 'Apply an unused boost to the running session, after the boosts already applied',
        description:
          'If the boost would run past the session end and `force_apply` is false, nothing is applied: 200 with `applied: false`, `message` and `efficiency_percent` (the share of the boost inside the session). With `force_apply: true` it is applied and the time past the end expires.',
        body: applyTempBoostRequestSchema,
        response: { 200: applyTempBoostResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const now = Date.now();
      return transactionWithAnswer(app.db, request, async (trx) => {
        const outcome = await applyBoost(trx, userId, request.body.boost_id, request.body.force_apply, now);
        if (!outcome.applied) {
          return {
            code: 'boost_longer_than_session' as const,
            message: 'The boost lasts longer than the time left in this mining session. Unused boost time expires.',
            efficiency_percent: outcome.plan.efficiencyPercent,
            applied: false,
          };
        }
        return {
          code: 'boost_applied' as const,
          message: 'Boost applied',
          efficiency_percent: outcome.plan.efficiencyPercent,
          applied: true,
          boost: sessionBoostJson(outcome.boost),
          session: await sessionJsonById(trx, Number(outcome.session.id)),
        };
      });
    },
  );

  app.post(
    '/mining/reward-task-boost/',
    {
      schema: {
        tags,
        security,
        summary: 'Grant the +5 % boost of a completed task (once per task)',
        body: rewardTaskBoostRequestSchema,
        response: { 200: rewardTaskBoostResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const boost = await app.db
        .transaction()
        .execute((trx) => rewardTaskBoost(trx, userId, request.body.task_title, Date.now()));
      const rate = await userRatePercents(app.db, userId);
      return {
        message: 'Task boost received',
        boost: rateBoostJson(boost),
        task_total_boost: rate.taskPercent,
        task_count: rate.taskCount,
      };
    },
  );

  app.get(
    '/mining/reward-referral-boost/',
    {
      config: { stateChanging: true },
      schema: {
        tags,
        security,
        summary: 'Grant a +10 % boost for each referral not boosted yet',
        response: { 200: rewardReferralBoostResponseSchema },
      },
    },
    async (request) => {
      const userId = request.userId!;
      const added = await app.db.transaction().execute((trx) => rewardReferralBoosts(trx, userId, Date.now()));
      if (added === 0) throw refuse('no_new_referrals', 'No new referrals to boost');
      const rate = await userRatePercents(app.db, userId);
      return {
        message: 'Referral boost received',
        added,
        referral_total_boost: rate.referralPercent,
        referral_count: rate.referralCount,
      };
    },
  );
};
export default routes;
