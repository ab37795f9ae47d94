// Active friends (decisions §12).
// - `username_chosen_at`: when the player first chose a username through complete-registration.
//   A referrer is recorded only at that call (and within 24 h of the account's creation), so a
//   rename never records or replaces one. Existing accounts start with NULL: one younger than 24 h
//   without a referrer may still record one at its next choice, which the old rules allowed too.
// - Referral boosts granted before the rule for friends who never claimed a session are taken
//   back (a boost is a rate, not money: sessions already running keep theirs). They are granted
//   again by /mining/reward-referral-boost/ once that friend claims a session.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_chosen_at', 'bigint').execute();
  await sql`DELETE FROM rate_boosts WHERE kind = 'referral' AND NOT EXISTS (
    SELECT 1 FROM ledger WHERE ledger.user_id = rate_boosts.referral_id AND ledger.reason = 'mining_claim')`.execute(
    db,
  );
}
