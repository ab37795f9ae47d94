// Many players at once, written straight into the database with one INSERT … SELECT per table
// (generate_series on PostgreSQL, a recursive CTE on SQLite) instead of row by row: the fault tests
// and the bench seed hundreds to a million players this way. Each player can have
//  - `ended`: an unclaimed mining session that ended a minute ago (ready to claim), or
//  - `claimed`: a claimed session in the past with its `mining_claim` ledger row and balance,
// plus the unused welcome boost every account gets. `seedBusyPlayer` makes one player with a history
// (through the services, row by row), whose calls the bench and the compression test make.
import { sql } from 'kysely';
import {
  MINING_SESSION_SECONDS_DEFAULT,
  TASK_BOOST_PERCENT,
  TEMP_BOOST_VALUE,
  WELCOME_BOOST_HOURS,
} from '@shared/constants';
import { usernameKey } from '@shared/validation';
import type { Db, Dialect } from '../../server/db/schema';
import { post } from '../../server/services/ledger';
import { createUser } from '../../server/services/users';

export interface BulkPlayers {
  /** Ids of the players created, lowest first (consecutive on a database nobody else writes to). */
  ids: number[];
}

export interface BulkOptions {
  count: number;
  /** Prefix of usernames and referral codes; unique per call. */
  tag: string;
  session: 'ended' | 'claimed' | 'none';
  /** How long ago `ended` sessions ended (default a minute). */
  endedAgoMs?: number;
  now?: number;
}

/** PXT millionths a seeded past session paid. */
export const SEEDED_PAST_REWARD = 8_000_000;

// Parameters in a SELECT list have no type PostgreSQL can infer: cast them (valid SQLite too).
const big = (v: number) => sql`CAST(${v} AS BIGINT)`;
const int = (v: number) => sql`CAST(${v} AS INTEGER)`;
const text = (v: string) => sql`CAST(${v} AS TEXT)`;

async function maxUserId(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.max('id').as('m'))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

export async function seedPlayers(db: Db, dialect: Dialect, opts: BulkOptions): Promise<BulkPlayers> {
  const now = opts.now ?? Date.now();
  const before = await maxUserId(db);
  const tag = opts.tag;
  // Digits fold to themselves, so the key of `tag || n` is the tag's key followed by n.
  const insertUsers = sql`INSERT INTO users (username, username_key, referral_code, created_at)
    SELECT ${text(tag)} || n, ${text(usernameKey(tag))} || n, ${text(tag)} || 'r' || n, ${big(now)}`;
  if (dialect === 'postgres') {
    await sql`${insertUsers} FROM generate_series(1, ${opts.count}::int) AS g(n)`.execute(db);
  } else {
    await sql`WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < ${opts.count}) ${insertUsers} FROM g`.execute(
      db,
    );
  }
  const after = await maxUserId(db);
  const mine = sql`FROM users WHERE id > ${before} AND id <= ${after}`;

  await sql`INSERT INTO temp_boosts (user_id, duration_seconds, value, state, source, created_at)
    SELECT id, ${int(WELCOME_BOOST_HOURS * 3600)}, ${int(TEMP_BOOST_VALUE)}, 'owned', 'welcome', ${big(now)} ${mine}`.execute(
    db,
  );

  const length = MINING_SESSION_SECONDS_DEFAULT * 1000;
  if (opts.session === 'ended') {
    const endsAt = now - (opts.endedAgoMs ?? 60_000);
    await sql`INSERT INTO mining_sessions (user_id, started_at, ends_at, claimed, task_boost_percent, referral_boost_percent, auto)
      SELECT id, ${big(endsAt - length)}, ${big(endsAt)}, 0, 0, 0, 0 ${mine}`.execute(db);
  } else if (opts.session === 'claimed') {
    const endsAt = now - 24 * 3600 * 1000;
    await sql`INSERT INTO mining_sessions (user_id, started_at, ends_at, claimed, claimed_at, task_boost_percent, referral_boost_percent, reward, auto)
      SELECT id, ${big(endsAt - length)}, ${big(endsAt)}, 1, ${big(endsAt)}, 0, 0, ${big(SEEDED_PAST_REWARD)}, 0 ${mine}`.execute(
      db,
    );
    await sql`INSERT INTO ledger (user_id, currency, amount, reason, ref, unique_key, created_at)
      SELECT user_id, 'token', reward, 'mining_claim', 'session:' || id, 'mining_claim:' || id, claimed_at
      FROM mining_sessions WHERE user_id > ${before} AND user_id <= ${after}`.execute(db);
    await sql`UPDATE users SET token = token + ${big(SEEDED_PAST_REWARD)} WHERE id > ${before} AND id <= ${after}`.execute(
      db,
    );
  }
  return { ids: Array.from({ length: after - before }, (_, i) => before + 1 + i) };
}

/**
 * Opens one session (decisions §13) for each of `userIds` in one statement and answers user id →
 * session id, for access tokens minted outside the app (`jwt.issueAccess(userId, sessionId, ttl)`).
 */
export async function openSessions(db: Db, userIds: number[], now = Date.now()): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (let i = 0; i < userIds.length; i += 5000) {
    const chunk = userIds.slice(i, i + 5000);
    const rows = await db
      .insertInto('sessions')
      .values(
        chunk.map((userId) => ({
          user_id: userId,
          device: 'Test device',
          address: '127.0.0.x',
          created_at: now,
          last_used_at: now,
          ended_at: null,
        })),
      )
      .returning(['id', 'user_id'])
      .execute();
    for (const r of rows) out.set(Number(r.user_id), Number(r.id));
  }
  return out;
}

/**
 * A player with a history: `sessions` claimed sessions (more than one page of the list), each paid
 * through the ledger, a running session, the welcome boost and two task boosts.
 */
export async function seedBusyPlayer(db: Db, tag: string, sessions = 25): Promise<number> {
  const now = Date.now();
  return db.transaction().execute(async (trx) => {
    const user = await createUser(trx, {
      username: `busy_${tag}`,
      email: `busy.${tag}@example.com`,
      emailConfirmed: true,
    });
    const userId = Number(user.id);
    const hour = 3600_000;
    for (let i = sessions; i >= 1; i--) {
      const startedAt = now - i * 9 * hour;
      const row = await trx
        .insertInto('mining_sessions')
        .values({
          user_id: userId,
          started_at: startedAt,
          ends_at: startedAt + 8 * hour,
          claimed: 1,
          claimed_at: startedAt + 8 * hour + 60_000,
          task_boost_percent: 0,
          referral_boost_percent: 0,
          reward: 8_000_000,
          auto: 0,
          ready_notified_at: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await post(
        trx,
        {
          userId,
          currency: 'token',
          amount: 8_000_000,
          reason: 'mining_claim',
          ref: `session:${row.id}`,
          uniqueKey: `mining_claim:${row.id}`,
        },
        startedAt + 8 * hour,
      );
    }
    await trx
      .insertInto('mining_sessions')
      .values({
        user_id: userId,
        started_at: now - hour,
        ends_at: now + 7 * hour,
        claimed: 0,
        claimed_at: null,
        task_boost_percent: 2 * TASK_BOOST_PERCENT,
        referral_boost_percent: 0,
        reward: null,
        auto: 0,
        ready_notified_at: null,
      })
      .execute();
    for (const title of ['Follow on X', 'Join Telegram']) {
      await trx
        .insertInto('rate_boosts')
        .values({
          user_id: userId,
          kind: 'task',
          percent: TASK_BOOST_PERCENT,
          task_title: title,
          referral_id: null,
          created_at: now,
        })
        .execute();
    }
    return userId;
  });
}
