// Temporary boosts: granted (welcome gift, shop, season tiers), selected for the next session or
// applied to the running one, chained after the boosts already applied (decisions §6).
import type { Boost } from '@shared/api/mining';
import { TEMP_BOOST_VALUE, WELCOME_BOOST_HOURS } from '@shared/constants';
import { prepared } from '../db/prepared';
import type { NowOrLater } from '../lib/now-or-later';
import type { Tx } from '../db/schema';
import type { TempBoostSource } from '../db/tables/mining';
import { notFound, refuse } from '../lib/errors';
import { chainStart, planBoost, type PlannedBoost } from '@shared/mining-math';
import {
  boostsOfSessions,
  lockRunningSession,
  openSession,
  type SessionRow,
  type TempBoostRow,
} from './mining-sessions';

/** Gives the player one unused temporary boost, inside the caller's transaction. */
export async function grantTempBoost(
  trx: Tx,
  userId: number,
  hours: number,
  source: TempBoostSource,
  now = Date.now(),
): Promise<TempBoostRow> {
  return trx
    .insertInto('temp_boosts')
    .values({
      user_id: userId,
      duration_seconds: Math.round(hours * 3600),
      value: TEMP_BOOST_VALUE,
      state: 'owned',
      source,
      selected_at: null,
      session_id: null,
      starts_at: null,
      ends_at: null,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Every new account gets one 1-hour boost; `createUser` calls this. */
export function grantWelcomeBoost(trx: Tx, userId: number, now = Date.now()): Promise<TempBoostRow> {
  return grantTempBoost(trx, userId, WELCOME_BOOST_HOURS, 'welcome', now);
}

export function tempBoostJson(b: TempBoostRow, now: number): Boost {
  return {
    id: Number(b.id),
    boost_type: 'temporary',
    is_active: b.state === 'applied' && Number(b.ends_at) > now,
    value: Number(b.value),
    is_selected: b.state === 'selected',
    duration_seconds: Number(b.duration_seconds),
  };
}

/** Boosts the player still has: unused (owned, selected) and applied ones not over yet. */
export function currentTempBoosts(db: Tx, userId: number, now: number): NowOrLater<TempBoostRow[]> {
  return currentTempBoostsQuery.read(db, { userId, now });
}
const currentTempBoostsQuery = prepared((db, p: { userId: number; now: number }) =>
  db
    .selectFrom('temp_boosts')
    .selectAll()
    .where('user_id', '=', p.userId)
    .where((eb) =>
      eb.or([
        eb('state', 'in', ['owned', 'selected']),
        eb.and([eb('state', '=', 'applied'), eb('ends_at', '>', p.now)]),
      ]),
    )
    .orderBy('id'),
);

async function ownBoost(db: Tx, userId: number, boostId: number): Promise<TempBoostRow> {
  const boost = await db
    .selectFrom('temp_boosts')
    .selectAll()
    .where('id', '=', boostId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!boost) throw notFound('Boost not found.', 'boost_not_found');
  return boost;
}

const usedUp = () => refuse('boost_already_used', 'This boost has already been used');

/** Marks an unused boost to be applied when the player's next session starts (idempotent). */
export async function selectBoost(trx: Tx, userId: number, boostId: number, now: number): Promise<TempBoostRow> {
  const boost = await ownBoost(trx, userId, boostId);
  if (boost.state === 'selected') return boost;
  if (boost.state !== 'owned') throw usedUp();
  const row = await trx
    .updateTable('temp_boosts')
    .set({ state: 'selected', selected_at: now })
    .where('id', '=', boostId)
    .where('state', '=', 'owned')
    .returningAll()
    .executeTakeFirst();
  if (!row) throw usedUp();
  return row;
}

export type ApplyOutcome =
  | { applied: false; plan: PlannedBoost }
  | { applied: true; plan: PlannedBoost; boost: TempBoostRow; session: SessionRow };

/**
 * Applies an unused boost to the running session, after the boosts already applied to it. A boost
 * that would run past the session end is applied only with `force`; otherwise nothing changes and
 * the caller tells the player how much of it would count.
 */
export async function applyBoost(
  trx: Tx,
  userId: number,
  boostId: number,
  force: boolean,
  now: number,
): Promise<ApplyOutcome> {
  const boost = await ownBoost(trx, userId, boostId);
  if (boost.state !== 'owned' && boost.state !== 'selected') throw usedUp();
  const session = await openSession(trx, userId);
  if (!session || !(await lockRunningSession(trx, Number(session.id), now))) {
    throw refuse('no_running_session', 'There is no running mining session');
  }
  const span = { startedAt: Number(session.started_at), endsAt: Number(session.ends_at) };
  const applied = (await boostsOfSessions(trx, [Number(session.id)])).get(Number(session.id)) ?? [];
  const from = chainStart(
    span,
    applied.map((b) => ({ startsAt: Number(b.starts_at), endsAt: Number(b.ends_at), value: Number(b.value) })),
    now,
  );
  const durationMs = Number(boost.duration_seconds) * 1000;
  const plan = planBoost(span, from, durationMs);
  if (plan.insideMs <= 0) throw refuse('no_time_left', 'Boosts already cover the rest of this mining session');
  if (plan.insideMs < durationMs && !force) return { applied: false, plan };
  const row = await trx
    .updateTable('temp_boosts')
    .set({ state: 'applied', session_id: session.id, starts_at: plan.startsAt, ends_at: plan.endsAt })
    .where('id', '=', boostId)
    .where('state', 'in', ['owned', 'selected'])
    .returningAll()
    .executeTakeFirst();
  if (!row) throw usedUp();
  return { applied: true, plan, boost: row, session };
}
