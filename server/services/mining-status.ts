// Whether a player has a mining session that is not claimed yet (the `mining` flag of /auth/me):
// running, or finished and waiting to be claimed. Served by the partial index on unclaimed sessions.
import type { Tx } from '../db/schema';

export async function hasUnclaimedSession(db: Tx, userId: number): Promise<boolean> {
  const row = await db.selectFrom('mining_sessions').select('id').where('user_id', '=', userId).where('claimed', '=', 0).limit(1).executeTakeFirst();
  return row !== undefined;
}
