// Permanent rate boosts (decisions §6): +5 % per completed task and +10 % per active friend
// (decisions §12), each granted once (unique indexes on user + task title and user + referral). A
// session's rate is fixed when it starts, so a new boost counts from the next session.
import type { Selectable } from 'kysely';
import type { Boost } from '@shared/api/mining';
import { REFERRAL_BOOST_PERCENT, TASK_BOOST_PERCENT } from '@shared/constants';
import { ratePercents } from '@shared/mining-math';
import { questByServerTitle } from '@shared/tasks';
import { prepared } from '../db/prepared';
import { andThen, type NowOrLater } from '../lib/now-or-later';
import type { Tx } from '../db/schema';
import type { RateBoostsTable } from '../db/tables/mining';
import { invalidField, refuse } from '../lib/errors';
import { activeReferrals } from './referrals';
import { isTaskCompleted } from './task-completion';

export type RateBoostRow = Selectable<RateBoostsTable>;

export const rateBoostJson = (b: RateBoostRow): Boost => ({
  id: Number(b.id),
  boost_type: b.kind,
  is_active: true,
  value: Number(b.percent),
  is_selected: false,
  duration_seconds: null,
});

const rateBoostsQuery = prepared((db, p: { userId: number }) =>
  db.selectFrom('rate_boosts').selectAll().where('user_id', '=', p.userId).orderBy('kind', 'desc').orderBy('id'),
);

export function rateBoosts(db: Tx, userId: number): NowOrLater<RateBoostRow[]> {
  return rateBoostsQuery.read(db, { userId });
}

/** The rate a player's boosts give (what `userRatePercents` reads), from all of their rate boost rows. */
export function rateBoostTotals(rows: readonly RateBoostRow[]) {
  let taskCount = 0;
  let referralCount = 0;
  for (const r of rows) {
    if (r.kind === 'task') taskCount++;
    else if (r.kind === 'referral') referralCount++;
  }
  return { ...ratePercents(taskCount, referralCount), taskCount, referralCount };
}

/** Grants the boost of one completed task; refuses unknown, unfinished or already boosted tasks. */
export async function rewardTaskBoost(trx: Tx, userId: number, taskTitle: string, now: number): Promise<RateBoostRow> {
  if (!questByServerTitle(taskTitle)) throw invalidField('task_title', 'Unknown task', 'unknown_task');
  if (!(await isTaskCompleted(trx, userId, taskTitle))) throw refuse('task_not_completed', 'Task is not completed yet');
  const row = await trx
    .insertInto('rate_boosts')
    .values({
      user_id: userId,
      kind: 'task',
      percent: TASK_BOOST_PERCENT,
      task_title: taskTitle,
      referral_id: null,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'task_title']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!row) throw refuse('boost_already_received', 'The boost for this task has already been received');
  return row;
}

const waitingReferralBoostsQuery = prepared(
  (db, p: { userId: number }) =>
    activeReferrals(db, p.userId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('rate_boosts')
              .select('rate_boosts.id')
              .where('rate_boosts.user_id', '=', p.userId)
              .whereRef('rate_boosts.referral_id', '=', 'users.id'),
          ),
        ),
      )
      .clearSelect()
      .select((eb) => eb.fn.countAll<number | string>().as('n')),
  { oneRow: true },
);

/** Active friends not boosted yet: what `rewardReferralBoosts` would add now (read by every GET /mining/boosts/). */
export function waitingReferralBoosts(db: Tx, userId: number): NowOrLater<number> {
  return andThen(waitingReferralBoostsQuery.read(db, { userId }), ([row]) => Number(row?.n ?? 0));
}

/** Grants one boost per active friend (services/referrals.ts) not boosted yet; returns how many were granted. */
export async function rewardReferralBoosts(trx: Tx, userId: number, now: number): Promise<number> {
  const referrals = await activeReferrals(trx, userId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('rate_boosts')
            .select('rate_boosts.id')
            .where('rate_boosts.user_id', '=', userId)
            .whereRef('rate_boosts.referral_id', '=', 'users.id'),
        ),
      ),
    )
    .orderBy('users.id')
    .execute();
  let added = 0;
  for (const r of referrals) {
    const row = await trx
      .insertInto('rate_boosts')
      .values({
        user_id: userId,
        kind: 'referral',
        percent: REFERRAL_BOOST_PERCENT,
        task_title: null,
        referral_id: r.id,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(['user_id', 'referral_id']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) added++;
  }
  return added;
}
