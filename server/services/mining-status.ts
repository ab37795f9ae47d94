// Whether a player has a mining session that is not claimed yet (the `mining` flag of /auth/me):
// running, or finished and waiting to be claimed. Served by the partial index on unclaimed sessions.
// `claimed = 0` is written into the SQL (eb.lit), not bound: SQLite picks that partial index by the
// bound value, so a bound 0 expires the prepared statement at every call and each /auth/me parsed
// and planned its query again (3–5× the cost of running it).
import type { ExpressionBuilder } from 'kysely';
import { prepared } from '../db/prepared';
import type { DB, Tx } from '../db/schema';

export async function hasUnclaimedSession(db: Tx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('mining_sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('claimed', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The same as SQL over the current `users` row (1 or true), so /auth/me reads the player and the flag in one query. */
export function unclaimedSessionExists(eb: ExpressionBuilder<DB, 'users'>) {
  return eb.exists(
    eb
      .selectFrom('mining_sessions')
      .select('mining_sessions.id')
      .whereRef('mining_sessions.user_id', '=', 'users.id')
      .where('mining_sessions.claimed', '=', eb.lit(0)),
  );
}

/**
 * The player's row, the `mining` flag and when the token's session (decisions §13) was last used, in
 * one query compiled once (it comes with every page): `session_used_at` is null when that session
 * has ended or is another player's. The session is a scalar subquery, not a join: with the ids bound,
 * SQLite ran the joined statement about ten times slower than with the same ids written in (as if it
 * planned it anew at every call), most of /auth/me's time (`npm run bench`: 144 → 61 µs of CPU per
 * answer); this form runs as fast as the player's row alone.
 */
export const meWithMiningFlag = prepared(
  (db, p: { userId: number; sessionId: number }) =>
    db
      .selectFrom('users')
      .selectAll('users')
      .select((eb) => [
        unclaimedSessionExists(eb).as('mining'),
        eb
          .selectFrom('sessions')
          .select('sessions.last_used_at')
          .where('sessions.id', '=', p.sessionId)
          .whereRef('sessions.user_id', '=', 'users.id')
          .where('sessions.ended_at', 'is', null)
          .as('session_used_at'),
      ])
      .where('users.id', '=', p.userId),
  { oneRow: true },
);
