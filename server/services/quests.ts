// Quest completion, read from the ledger. A task is completed when its reward row exists: a
// `quest_account` / `quest_social` row or, for an invite quest, a `referral_award` row, whose `ref`
// is the task's Russian server title. The tasks routes, referral awards, the beta application and
// mining's task boosts all read completion this way, so they cannot disagree.
import { ACCOUNT_QUEST_COUNT, CATEGORY_REWARD_COINS, SOCIAL_CATEGORY_MIN } from '@shared/constants';
import {
  BETA_REQUIRED_KEYS,
  type QuestDef,
  questByKey,
  questByServerTitle,
  REFERRAL_AWARDS,
  SOCIAL_QUESTS,
} from '@shared/tasks';
import { type TaskCategory, type TaskMessageCode, taskMessageRu } from '@shared/task-messages';
import { ApiError, type FieldError, refuse } from '../lib/errors';
import type { Tx } from '../db/schema';
import { type LedgerReason, post } from './ledger';
import { activeReferralCount } from './referrals';

/** A 400 refusal with a task message's Russian text and its code (decisions §7). */
export const refuseTask = (code: TaskMessageCode, category?: TaskCategory, body?: Record<string, unknown>) =>
  refuse(code, taskMessageRu(code, category), body);

/** A 400 with field errors whose messages are task messages; the first one names the answer. */
export function invalidTaskFields(errors: { field: string; code: TaskMessageCode }[]): ApiError {
  const fields: FieldError[] = errors.map((e) => ({ field: e.field, message: taskMessageRu(e.code) }));
  return new ApiError(400, errors[0]!.code, fields[0]!.message, { errors: fields });
}

/** The `{detail, code}` of a successful task answer. */
export const taskAnswer = (code: TaskMessageCode, category?: TaskCategory) => ({
  detail: taskMessageRu(code, category),
  code,
});

/** Ledger reasons whose rows are completed tasks. */
export const TASK_REASONS = [
  'quest_account',
  'quest_social',
  'referral_award',
] as const satisfies readonly LedgerReason[];

export const categoryOf = (quest: QuestDef): TaskCategory =>
  quest.category === 'account' ? 'user_account_quests' : 'social_quests';

export const questUniqueKey = (userId: number, key: string) => `quest:${userId}:${key}`;
export const referralAwardUniqueKey = (userId: number, friends: number) => `referral_award:${userId}:${friends}`;
export const categoryUniqueKey = (userId: number, category: TaskCategory) => `category_reward:${userId}:${category}`;

export interface CompletedTask {
  /** The ledger row's id: stable, and what `/tasks/completed/{id}/` takes. */
  id: number;
  quest: QuestDef;
  completedAt: number;
  reward: number;
}

function taskQuery(db: Tx, userId: number) {
  return db
    .selectFrom('ledger')
    .select(['id', 'ref', 'amount', 'created_at'])
    .where('user_id', '=', userId)
    .where('currency', '=', 'balance')
    .where('reason', 'in', TASK_REASONS);
}

function toTask(row: { id: number; ref: string | null; amount: number; created_at: number }): CompletedTask | null {
  const quest = row.ref === null ? undefined : questByServerTitle(row.ref);
  return quest ? { id: Number(row.id), quest, completedAt: Number(row.created_at), reward: Number(row.amount) } : null;
}

/** The player's completed tasks, oldest first, one per quest. */
export async function completedTasks(db: Tx, userId: number): Promise<CompletedTask[]> {
  const rows = await taskQuery(db, userId).orderBy('id').execute();
  const seen = new Set<string>();
  const out: CompletedTask[] = [];
  for (const row of rows) {
    const task = toTask(row);
    if (!task || seen.has(task.quest.key)) continue;
    seen.add(task.quest.key);
    out.push(task);
  }
  return out;
}

export async function completedTask(db: Tx, userId: number, id: number): Promise<CompletedTask | null> {
  const row = await taskQuery(db, userId).where('id', '=', id).executeTakeFirst();
  return row ? toTask(row) : null;
}

export function categoryCounts(tasks: readonly CompletedTask[]): Record<TaskCategory, number> {
  const counts: Record<TaskCategory, number> = { user_account_quests: 0, social_quests: 0 };
  for (const t of tasks) counts[categoryOf(t.quest)] += 1;
  return counts;
}

/** Whether a category's tasks are done enough for its 100-coin reward. */
export function categoryComplete(category: TaskCategory, counts: Record<TaskCategory, number>): boolean {
  return category === 'user_account_quests'
    ? counts.user_account_quests >= ACCOUNT_QUEST_COUNT
    : counts.social_quests >= SOCIAL_CATEGORY_MIN;
}

/** Which category rewards the player has been paid. */
export async function categoryRewardsPaid(db: Tx, userId: number): Promise<Record<TaskCategory, boolean>> {
  const rows = await db
    .selectFrom('ledger')
    .select('ref')
    .where('user_id', '=', userId)
    .where('reason', '=', 'category_reward')
    .execute();
  const refs = new Set(rows.map((r) => r.ref));
  return { user_account_quests: refs.has('user_account_quests'), social_quests: refs.has('social_quests') };
}

/** Pays a category's reward once; false when it was already paid. */
export function payCategoryReward(trx: Tx, userId: number, category: TaskCategory): Promise<boolean> {
  return post(trx, {
    userId,
    currency: 'balance',
    amount: CATEGORY_REWARD_COINS,
    reason: 'category_reward',
    ref: category,
    uniqueKey: categoryUniqueKey(userId, category),
  });
}

/** Pays an account quest or a social follow once; false when it was already paid. */
export function payQuest(trx: Tx, userId: number, quest: QuestDef): Promise<boolean> {
  if (quest.invites !== undefined) throw new Error(`invite quest ${quest.key} is paid as a referral award`);
  return post(trx, {
    userId,
    currency: 'balance',
    amount: quest.coins,
    reason: quest.category === 'account' ? 'quest_account' : 'quest_social',
    ref: quest.serverTitle,
    uniqueKey: questUniqueKey(userId, quest.key),
  });
}

export async function questPaid(db: Tx, userId: number, quest: QuestDef): Promise<boolean> {
  const row = await db
    .selectFrom('ledger')
    .select('id')
    .where('unique_key', '=', questUniqueKey(userId, quest.key))
    .executeTakeFirst();
  return row !== undefined;
}

/** Friends who count (decisions §12 Active friends): see services/referrals.ts. */
export const referralCount = activeReferralCount;

const inviteQuest = (friends: number): QuestDef => {
  const quest = SOCIAL_QUESTS.find((q) => q.invites === friends);
  if (!quest) throw new Error(`no invite quest for ${friends} friends`);
  return quest;
};

/**
 * Pays every referral award the player has reached (decisions §7 Deviation: count of active friends
 * ≥ its "friends" number) and not been paid; returns the awards paid by this call. Each award has a
 * unique ledger key, so concurrent calls pay each award once between them.
 */
export async function settleReferralAwards(trx: Tx, userId: number): Promise<{ friends: number; points: number }[]> {
  const count = await referralCount(trx, userId);
  const paid: { friends: number; points: number }[] = [];
  for (const award of REFERRAL_AWARDS) {
    if (count < award.friends) break;
    const ok = await post(trx, {
      userId,
      currency: 'balance',
      amount: award.points,
      reason: 'referral_award',
      ref: inviteQuest(award.friends).serverTitle,
      uniqueKey: referralAwardUniqueKey(userId, award.friends),
    });
    if (ok) paid.push({ friends: award.friends, points: award.points });
  }
  return paid;
}

export type BetaRequiredKey = (typeof BETA_REQUIRED_KEYS)[number];

export interface BetaProgress {
  completed: BetaRequiredKey[];
  missing: BetaRequiredKey[];
}

/**
 * The beta's required tasks (keys of BETA_REQUIRED_KEYS) done and missing. An invite quest whose
 * referral count is reached counts as done: applying pays it first (settleReferralAwards).
 */
export async function betaProgress(db: Tx, userId: number): Promise<BetaProgress> {
  const tasks = await completedTasks(db, userId);
  const referrals = await referralCount(db, userId);
  const done = new Set(tasks.map((t) => t.quest.key));
  const completed: BetaRequiredKey[] = [];
  const missing: BetaRequiredKey[] = [];
  for (const key of BETA_REQUIRED_KEYS) {
    const quest = questByKey(key);
    const reached = quest?.invites !== undefined && referrals >= quest.invites;
    (done.has(key) || reached ? completed : missing).push(key);
  }
  return { completed, missing };
}
