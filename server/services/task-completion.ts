// Whether a player completed a quest, for mining's task boosts. Completion is read from the ledger,
// the quests' own record of payment: a task is completed when the player has a `quest_account` or
// `quest_social` row (or, for an invite quest, a `referral_award` row) in coins whose `ref` is the
// task's Russian server title from shared/tasks.ts. Quests must post their rows that way.
import type { Tx } from '../db/schema';
import type { LedgerReason } from './ledger';

const COMPLETION_REASONS = [
  'quest_account',
  'quest_social',
  'referral_award',
] as const satisfies readonly LedgerReason[];

export async function isTaskCompleted(db: Tx, userId: number, taskTitle: string): Promise<boolean> {
  const row = await db
    .selectFrom('ledger')
    .select('id')
    .where('user_id', '=', userId)
    .where('currency', '=', 'balance')
    .where('reason', 'in', COMPLETION_REASONS)
    .where('ref', '=', taskTitle)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
