// Who counts as a referral (decisions §12, "Active friends"): a player whose referrer is this player
// and who has claimed a mining session, i.e. has a `mining_claim` row in the ledger (the
// (user_id, reason) index answers it). A new account costs nothing to make, a claimed session costs
// a real session's wait, so invite awards, invite quests, referral boosts and the beta all count
// friends through here and cannot disagree.
import type { ExpressionBuilder } from 'kysely';
import type { DB, Tx } from '../db/schema';

/** The time after an account's creation within which its referrer may be recorded. */
export const REFERRAL_WINDOW_MS = 24 * 60 * 60 * 1000;

/** SQL over the current `users` row: whether that player has claimed a mining session. */
export function hasClaimedSession(eb: ExpressionBuilder<DB, 'users'>) {
  return eb.exists(
    eb
      .selectFrom('ledger')
      .select('ledger.id')
      .whereRef('ledger.user_id', '=', 'users.id')
      .where('ledger.reason', '=', 'mining_claim'),
  );
}

/** The players this player referred who are active, as a query for their ids. */
export function activeReferrals(db: Tx, referrerId: number) {
  return db.selectFrom('users').select('users.id').where('users.referrer_id', '=', referrerId).where(hasClaimedSession);
}

/** How many friends count for this player's awards, invite quests, boosts and beta. */
export async function activeReferralCount(db: Tx, referrerId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('users.referrer_id', '=', referrerId)
    .where(hasClaimedSession)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
