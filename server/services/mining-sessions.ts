// Starting, claiming and showing mining sessions (decisions §6). The routes and the Auto Miner
// worker both go through here. Concurrency rests on the database, not on this process:
// - one unclaimed session per player is a partial unique index, so racing starts insert once;
// - a claim is a conditional update (`… where claimed = 0`) that only one caller wins, and the
//   payment carries the ledger unique key `mining_claim:<id>`, so a session is paid exactly once.
import { type Selectable, sql } from 'kysely';
import type { MiningSession, SessionBoost } from '@shared/api/mining';
import { TOKEN_SCALE } from '@shared/constants';
import { prepared, preparedWrite } from '../db/prepared';
import { allOf, andThen, type NowOrLater } from '../lib/now-or-later';
import type { Tx } from '../db/schema';
import type { MiningSessionsTable, TempBoostsTable } from '../db/tables/mining';
import { post } from './ledger';
import { chainBoosts, ratePercents, ratePerHour, sessionReward } from '@shared/mining-math';
import { isoTime, isoTimeOrNull } from '../lib/iso-time';

export type SessionRow = Selectable<MiningSessionsTable>;
export type TempBoostRow = Selectable<TempBoostsTable>;

/** The player's rate boost now: task and referral boosts rewarded so far. */
const rateBoostCounts = prepared((db, p: { userId: number }) =>
  db
    .selectFrom('rate_boosts')
    .select(['kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('user_id', '=', p.userId)
    .groupBy('kind'),
);

export async function userRatePercents(db: Tx, userId: number) {
  const rows = await rateBoostCounts(db, { userId });
  const count = (kind: string) => Number(rows.find((r) => r.kind === kind)?.n ?? 0);
  const taskCount = count('task');
  const referralCount = count('referral');
  return { ...ratePercents(taskCount, referralCount), taskCount, referralCount };
}

/** The player's unclaimed session (running, or finished and waiting to be claimed), if any. */
export function openSession(db: Tx, userId: number): Promise<SessionRow | undefined> {
  return db
    .selectFrom('mining_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('claimed', '=', 0)
    .executeTakeFirst();
}

/**
 * The query of `boostsOfSessions` for `n` sessions (an `in` list has a length); pages hold at most
 * 100. Its parameters are the ids' places in the list, so the list itself is the call's values.
 */
const appliedBoostsQueries = new Map<number, ReturnType<typeof appliedBoostsOf>>();
function appliedBoostsOf(n: number) {
  return prepared((db, ids: Record<number, number>) =>
    db
      .selectFrom('temp_boosts')
      .selectAll()
      .where(
        'session_id',
        'in',
        Array.from({ length: n }, (_, i) => ids[i]),
      )
      .where('state', 'in', ['applied', 'expired'])
      .orderBy('starts_at')
      .orderBy('id'),
  );
}
const PREPARED_LIST_MAX = 100;

function bySession(rows: readonly TempBoostRow[]): Map<number, TempBoostRow[]> {
  const out = new Map<number, TempBoostRow[]>();
  for (const r of rows) {
    const sid = Number(r.session_id);
    const list = out.get(sid);
    if (list) list.push(r);
    else out.set(sid, [r]);
  }
  return out;
}

/** Applied boosts of these sessions, in the order they run (at once on SQLite: lib/now-or-later.ts). */
export function boostsOfSessions(db: Tx, sessionIds: readonly number[]): NowOrLater<Map<number, TempBoostRow[]>> {
  if (sessionIds.length === 0) return new Map();
  if (sessionIds.length <= PREPARED_LIST_MAX) {
    let query = appliedBoostsQueries.get(sessionIds.length);
    if (!query) appliedBoostsQueries.set(sessionIds.length, (query = appliedBoostsOf(sessionIds.length)));
    return andThen(query.read(db, sessionIds), bySession);
  }
  return db
    .selectFrom('temp_boosts')
    .selectAll()
    .where('session_id', 'in', sessionIds)
    .where('state', 'in', ['applied', 'expired'])
    .orderBy('starts_at')
    .orderBy('id')
    .execute()
    .then(bySession);
}

const boostSpans = (boosts: readonly TempBoostRow[]) =>
  boosts.map((b) => ({ startsAt: Number(b.starts_at), endsAt: Number(b.ends_at), value: Number(b.value) }));

export function rewardOf(session: SessionRow, boosts: readonly TempBoostRow[]): number {
  return sessionReward({
    startedAt: Number(session.started_at),
    endsAt: Number(session.ends_at),
    boostPercent: Number(session.task_boost_percent) + Number(session.referral_boost_percent),
    boosts: boostSpans(boosts),
  });
}

export const sessionBoostJson = (b: TempBoostRow): SessionBoost => ({
  boost_id: Number(b.id),
  starts_at: isoTime(Number(b.starts_at)),
  ends_at: isoTime(Number(b.ends_at)),
  value: Number(b.value),
});

export function sessionJson(session: SessionRow, boosts: readonly TempBoostRow[]): MiningSession {
  const boostPercent = Number(session.task_boost_percent) + Number(session.referral_boost_percent);
  const reward = session.claimed ? Number(session.reward ?? 0) : rewardOf(session, boosts);
  return {
    id: Number(session.id),
    started_at: isoTime(session.started_at),
    ends_at: isoTime(session.ends_at),
    claimed: Number(session.claimed) === 1,
    claimed_at: isoTimeOrNull(session.claimed_at),
    rate_per_hour: ratePerHour(boostPercent),
    boost_percent: boostPercent,
    reward: reward / TOKEN_SCALE,
    temporary_boosts: boosts.map(sessionBoostJson),
  };
}

export async function sessionJsonById(db: Tx, sessionId: number): Promise<MiningSession> {
  const session = await db
    .selectFrom('mining_sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  const boosts = await boostsOfSessions(db, [sessionId]);
  return sessionJson(session, boosts.get(sessionId) ?? []);
}

/**
 * Applies the player's selected boosts to a session that starts now, one after another in the
 * order they were selected. A boost that would get no time inside the session stays selected for
 * the next one.
 */
async function applySelectedBoosts(trx: Tx, session: SessionRow): Promise<TempBoostRow[]> {
  const selected = await selectedBoosts(trx, { userId: Number(session.user_id) });
  const span = { startedAt: Number(session.started_at), endsAt: Number(session.ends_at) };
  const plan = chainBoosts(
    span,
    span.startedAt,
    selected.map((b) => Number(b.duration_seconds) * 1000),
  );
  const applied: TempBoostRow[] = [];
  for (let i = 0; i < selected.length; i++) {
    if (plan[i].insideMs <= 0) break;
    const row = await trx
      .updateTable('temp_boosts')
      .set({ state: 'applied', session_id: session.id, starts_at: plan[i].startsAt, ends_at: plan[i].endsAt })
      .where('id', '=', selected[i].id)
      .where('state', '=', 'selected')
      .returningAll()
      .executeTakeFirst();
    if (row) applied.push(row);
  }
  return applied;
}

// A start's statements, compiled once (db/prepared.ts).
const insertSession = preparedWrite(
  (
    db,
    p: { userId: number; now: number; endsAt: number; taskPercent: number; referralPercent: number; auto: number },
  ) =>
    db
      .insertInto('mining_sessions')
      .values({
        user_id: p.userId,
        started_at: p.now,
        ends_at: p.endsAt,
        claimed: 0,
        claimed_at: null,
        task_boost_percent: p.taskPercent,
        referral_boost_percent: p.referralPercent,
        reward: null,
        auto: p.auto,
        ready_notified_at: null,
      })
      .onConflict((oc) =>
        oc
          .column('user_id')
          .where(sql<boolean>`claimed = 0`)
          .doNothing(),
      )
      .returningAll(),
);
const selectedBoosts = prepared((db, p: { userId: number }) =>
  db
    .selectFrom('temp_boosts')
    .selectAll()
    .where('user_id', '=', p.userId)
    .where('state', '=', 'selected')
    .orderBy('selected_at')
    .orderBy('id'),
);

export interface Started {
  session: SessionRow;
  applied: TempBoostRow[];
}

/**
 * Starts a session now with the player's current rate boost and selected boosts. Returns null when
 * the player already has an unclaimed session (the partial unique index decides, so two racing
 * starts cannot both succeed).
 */
export async function startSession(
  trx: Tx,
  userId: number,
  opts: { now: number; sessionSeconds: number; auto?: boolean },
): Promise<Started | null> {
  const rate = await userRatePercents(trx, userId);
  const {
    rows: [session],
  } = await insertSession(trx, {
    userId,
    now: opts.now,
    endsAt: opts.now + opts.sessionSeconds * 1000,
    taskPercent: rate.taskPercent,
    referralPercent: rate.referralPercent,
    auto: opts.auto ? 1 : 0,
  });
  if (!session) return null;
  return { session, applied: await applySelectedBoosts(trx, session) };
}

// The claim's statements, compiled once (db/prepared.ts): a claim is the hottest write. `claimed = 0`
// is written into the SQL (eb.lit), not bound, as in services/mining-status.ts: SQLite picks the
// partial indexes on unclaimed sessions by that value, and re-prepares a statement that binds it.
const claimById = preparedWrite((db, p: { sessionId: number; now: number }) =>
  db
    .updateTable('mining_sessions')
    .set({ claimed: 1, claimed_at: p.now })
    .where('id', '=', p.sessionId)
    .where((eb) => eb('claimed', '=', eb.lit(0)))
    .where('ends_at', '<=', p.now)
    .returningAll(),
);
const claimByPlayer = preparedWrite((db, p: { userId: number; now: number }) =>
  db
    .updateTable('mining_sessions')
    .set({ claimed: 1, claimed_at: p.now })
    .where('user_id', '=', p.userId)
    .where((eb) => eb('claimed', '=', eb.lit(0)))
    .where('ends_at', '<=', p.now)
    .returningAll(),
);
// Applied boosts end with the session; the rows they return are the boosts the reward counts (a
// session's boosts turn `expired` only here, once, when it is claimed).
const expireAppliedBoosts = preparedWrite((db, p: { sessionId: number }) =>
  db
    .updateTable('temp_boosts')
    .set({ state: 'expired' })
    .where('session_id', '=', p.sessionId)
    .where('state', '=', 'applied')
    .returningAll(),
);
const setReward = preparedWrite((db, p: { sessionId: number; reward: number }) =>
  db.updateTable('mining_sessions').set({ reward: p.reward }).where('id', '=', p.sessionId),
);

export interface Claimed {
  /** The session as it is now: claimed, with its reward. */
  session: SessionRow;
  /** Its boosts, in the order they ran (what `boostsOfSessions` reads for it from now on). */
  boosts: TempBoostRow[];
}

/**
 * Pays a session this transaction just won the claim of. On PostgreSQL the claim's update holds the
 * row lock, so a boost applied concurrently has committed before its boosts are read here.
 */
async function payClaim(trx: Tx, won: SessionRow, now: number): Promise<Claimed> {
  const sessionId = Number(won.id);
  const { rows: boosts } = await expireAppliedBoosts(trx, { sessionId });
  boosts.sort((a, b) => Number(a.starts_at) - Number(b.starts_at) || Number(a.id) - Number(b.id));
  const reward = rewardOf(won, boosts);
  await setReward(trx, { sessionId, reward });
  if (reward > 0) {
    await post(
      trx,
      {
        userId: Number(won.user_id),
        currency: 'token',
        amount: reward,
        reason: 'mining_claim',
        ref: `session:${sessionId}`,
        uniqueKey: `mining_claim:${sessionId}`,
      },
      now,
    );
  }
  return { session: { ...won, reward }, boosts };
}

/**
 * Claims a finished session and pays its reward, inside the caller's transaction. Returns the
 * claimed session, or null when the session is not finished or someone else claimed it first.
 */
export async function claimSession(trx: Tx, sessionId: number, now: number): Promise<Claimed | null> {
  // The conditional update is the claim itself: only one caller changes the row.
  const { rows } = await claimById(trx, { sessionId, now });
  return rows.length === 1 ? payClaim(trx, rows[0], now) : null;
}

/**
 * Claims the player's finished session and pays it (the player's claim): the same conditional
 * update, found by the player. `not_finished` when the player's open session is still running;
 * null when there is none (or a concurrent claim, or the Auto Miner, won it).
 */
export async function claimPlayerSession(
  trx: Tx,
  userId: number,
  now: number,
): Promise<Claimed | 'not_finished' | null> {
  const { rows } = await claimByPlayer(trx, { userId, now });
  if (rows.length === 1) return payClaim(trx, rows[0], now);
  // Nothing claimed: tell a running session from none at all.
  const open = await openSession(trx, userId);
  return open && Number(open.ends_at) > now ? 'not_finished' : null;
}

/**
 * Locks a running session's row for the rest of the transaction (PostgreSQL; SQLite transactions
 * are serial already) so boosts applied at the same time chain one after another. Returns false
 * when the session is no longer running.
 */
export async function lockRunningSession(trx: Tx, sessionId: number, now: number): Promise<boolean> {
  const r = await trx
    .updateTable('mining_sessions')
    .set({ claimed: 0 })
    .where('id', '=', sessionId)
    .where('claimed', '=', 0)
    .where('ends_at', '>', now)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface SessionsPageRows {
  count: number;
  sessions: SessionRow[];
  /** The applied boosts of those sessions, by session id. */
  boosts: Map<number, TempBoostRow[]>;
}

const sessionCount = prepared(
  (db, p: { userId: number }) =>
    db
      .selectFrom('mining_sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', p.userId),
  { oneRow: true },
);
const sessionPage = prepared((db, p: { userId: number; limit: number; offset: number }) =>
  db
    .selectFrom('mining_sessions')
    .selectAll()
    .where('user_id', '=', p.userId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .limit(p.limit)
    .offset(p.offset),
);

/** The player's count of sessions, one page of them and their boosts (at once on SQLite: lib/now-or-later.ts). */
export function listSessions(db: Tx, userId: number, page: number, pageSize: number): NowOrLater<SessionsPageRows> {
  const reads = allOf([
    sessionCount.read(db, { userId }),
    sessionPage.read(db, { userId, limit: pageSize, offset: (page - 1) * pageSize }),
  ]);
  return andThen(reads, ([[total], sessions]) =>
    andThen(
      boostsOfSessions(
        db,
        sessions.map((s) => Number(s.id)),
      ),
      (boosts) => ({ count: Number(total.n), sessions, boosts }),
    ),
  );
}
