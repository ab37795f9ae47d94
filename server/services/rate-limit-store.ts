// A store for @fastify/rate-limit in the database, so that every process behind the balancer counts
// the same requests (with DATABASE_URL; one SQLite process counts in memory). Each hit is ONE
// statement that opens, counts or restarts the key's window and returns the count: parallel
// requests on several processes cannot all read "9 of 10" and all go ahead. Windows that ended are
// deleted in the background, at most once a minute per process, in bounded batches.
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { sql } from 'kysely';
import { preparedWrite } from '../db/prepared';
import type { Db } from '../db/schema';

const PRUNE_EVERY_MS = 60_000;
/** Ended windows deleted per statement, and statements per pass, so a prune never holds many rows at once. */
const PRUNE_BATCH = 5000;
const PRUNE_BATCHES = 20;

// Compiled once (db/prepared.ts): with DATABASE_URL, every request counts through it.
const hit = preparedWrite((db, p: { key: string; now: number; windowEnd: number }) => {
  const ended = sql<boolean>`${sql.ref('rate_limits.expires_at')} <= ${p.now}`;
  return db
    .insertInto('rate_limits')
    .values({ key: p.key, count: 1, expires_at: p.windowEnd })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`CASE WHEN ${ended} THEN 1 ELSE ${sql.ref('rate_limits.count')} + 1 END`,
        expires_at: sql<number>`CASE WHEN ${ended} THEN ${p.windowEnd} ELSE ${sql.ref('rate_limits.expires_at')} END`,
      }),
    )
    .returning(['count', 'expires_at']);
});

/** Counts one hit of `key` in a window of `windowMs`: the count so far and the ms until the window ends. */
export async function hitRateLimit(
  db: Db,
  key: string,
  windowMs: number,
  now = Date.now(),
): Promise<{ current: number; ttl: number }> {
  const { rows } = await hit(db, { key, now, windowEnd: now + windowMs });
  const row = rows[0];
  if (!row) throw new Error(`rate limit of ${key} not counted`);
  return { current: Number(row.count), ttl: Math.max(0, Number(row.expires_at) - now) };
}

/** Deletes the rows whose window ended before `now`; returns how many. */
export async function pruneRateLimits(db: Db, now = Date.now()): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    const batch = db.selectFrom('rate_limits').select('key').where('expires_at', '<', now).limit(PRUNE_BATCH);
    // Checked again on the row itself: a key whose window restarted meanwhile keeps its new count.
    const result = await db
      .deleteFrom('rate_limits')
      .where('key', 'in', batch)
      .where('expires_at', '<', now)
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    deleted += n;
    if (n < PRUNE_BATCH) break;
  }
  return deleted;
}

export interface DatabaseRateLimitStore {
  /** The class to hand to @fastify/rate-limit as `store`. */
  Store: FastifyRateLimitStoreCtor;
  /** Resolves once a prune in progress has finished (before the database closes). */
  settled(): Promise<void>;
}

export function databaseRateLimitStore(db: Db, log: FastifyBaseLogger): DatabaseRateLimitStore {
  let lastPrune = 0;
  let pruning: Promise<void> = Promise.resolve();

  function maybePrune(now: number) {
    if (now - lastPrune < PRUNE_EVERY_MS) return;
    lastPrune = now;
    pruning = pruneRateLimits(db, now).then(
      () => undefined,
      (err) => log.warn({ err }, 'rate limits: pruning ended windows failed'),
    );
  }

  // Every limiter shares this one table: keys carry their class, so `child` needs no state of its own.
  class Store implements FastifyRateLimitStore {
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      hitRateLimit(db, key, timeWindow, now).then(
        (result) => callback(null, result),
        (err: Error) => {
          log.warn({ err }, 'rate limits: counting a request failed; it is let through');
          callback(err);
        },
      );
      maybePrune(now);
    }
    child(): FastifyRateLimitStore {
      return this;
    }
  }
  return { Store, settled: () => pruning };
}
