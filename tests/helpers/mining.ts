// Moving mining sessions through time without sleeping: shift a session (and the boosts applied to
// it) into the past, so it has ended `agoMs` before now with its length and boost layout unchanged.
import { sql } from 'kysely';
import type { TestApp } from './test-app';

export async function endSession(t: TestApp, sessionId: number, agoMs = 1000): Promise<void> {
  const s = await t.app.db
    .selectFrom('mining_sessions')
    .select('ends_at')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const shift = Number(s.ends_at) - (Date.now() - agoMs);
  if (shift <= 0) return;
  await t.app.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('mining_sessions')
      .set({ started_at: sql`started_at - ${shift}`, ends_at: sql`ends_at - ${shift}` })
      .where('id', '=', sessionId)
      .execute();
    await trx
      .updateTable('temp_boosts')
      .set({ starts_at: sql`starts_at - ${shift}`, ends_at: sql`ends_at - ${shift}` })
      .where('session_id', '=', sessionId)
      .execute();
  });
}

export async function openSessionId(t: TestApp, userId: number): Promise<number | null> {
  const s = await t.app.db
    .selectFrom('mining_sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('claimed', '=', 0)
    .executeTakeFirst();
  return s ? Number(s.id) : null;
}

/**
 * Makes a player an active friend (decisions §12) the way a player does: starts a session through
 * the API, lets it end (shifted into the past, no sleep) and claims it through the API.
 */
export async function claimFirstSession(t: TestApp, player: { id: number; token: string }): Promise<void> {
  const headers = { authorization: `Bearer ${player.token}` };
  const start = await t.app.inject({ method: 'GET', url: '/api/v1/mining/start/', headers });
  if (start.statusCode !== 200) throw new Error(`start: ${start.statusCode} ${start.body}`);
  await endSession(t, (await openSessionId(t, player.id))!);
  const claim = await t.app.inject({ method: 'GET', url: '/api/v1/mining/claim/', headers });
  if (claim.statusCode !== 200) throw new Error(`claim: ${claim.statusCode} ${claim.body}`);
}
