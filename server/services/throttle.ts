// Counting failures (bad passwords, bad wallet signatures, mails asked for) per key in the database,
// so every server process sees the same counters. A fixed window per key: the first failure opens
// it, further failures count up, and once it has passed the next failure starts a new one.
import { sql } from 'kysely';
import { tooManyAttempts } from '../lib/errors';
import type { Tx } from '../db/schema';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;
export const LOGIN_WINDOW_MS = 15 * MINUTE;
/** Failed sign-ins allowed per address (e-mail or wallet) and per client IP in LOGIN_WINDOW_MS. */
export const LOGIN_FAILURES_PER_ADDRESS = 5;
export const LOGIN_FAILURES_PER_IP = 20;
/** Link mails (confirmation resend, password reset) per address and per IP in 15 minutes. */
export const MAILS_PER_ADDRESS = 5;
// Generous per IP: many players can share one address behind carrier NAT.
export const MAILS_PER_IP = 100;

export function loginLimits(kind: 'email' | 'wallet', address: string, ip: string): Limit[] {
  return [
    { key: `login:${kind}:${address.toLowerCase()}`, max: LOGIN_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS },
    { key: `login:ip:${ip}`, max: LOGIN_FAILURES_PER_IP, windowMs: LOGIN_WINDOW_MS },
  ];
}

/** Keyed on the one recipient mailed (trimmed, lower-cased as the schema and the mailer have it). */
export function mailLimits(address: string, ip: string): Limit[] {
  return [
    { key: `mail:${address.trim().toLowerCase()}`, max: MAILS_PER_ADDRESS, windowMs: 15 * MINUTE },
    { key: `mail:ip:${ip}`, max: MAILS_PER_IP, windowMs: 15 * MINUTE },
  ];
}

/** Throws 429 (with Retry-After) when any of the limits is used up. */
export async function assertNotThrottled(db: Tx, limits: Limit[], now = Date.now()): Promise<void> {
  const rows = await db.selectFrom('throttle').selectAll().where('key', 'in', limits.map((l) => l.key)).execute();
  let wait = 0;
  for (const row of rows) {
    const limit = limits.find((l) => l.key === row.key)!;
    const endsAt = Number(row.window_start) + limit.windowMs;
    if (endsAt > now && row.count >= limit.max) wait = Math.max(wait, endsAt - now);
  }
  if (wait > 0) throw tooManyAttempts(Math.max(1, Math.ceil(wait / 1000)));
}

/** Counts one event against every limit (one atomic upsert per key). */
export async function recordAttempt(db: Tx, limits: Limit[], now = Date.now()): Promise<void> {
  for (const limit of limits) {
    const expired = sql<boolean>`${sql.ref('throttle.window_start')} <= ${now - limit.windowMs}`;
    await db
      .insertInto('throttle')
      .values({ key: limit.key, count: 1, window_start: now })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet({
          count: sql<number>`CASE WHEN ${expired} THEN 1 ELSE ${sql.ref('throttle.count')} + 1 END`,
          window_start: sql<number>`CASE WHEN ${expired} THEN ${now} ELSE ${sql.ref('throttle.window_start')} END`,
        }),
      )
      .execute();
  }
}

/** Counts an event and refuses it when that used up a limit (for mails: the limit-th is still sent). */
export async function takeAttempt(db: Tx, limits: Limit[], now = Date.now()): Promise<void> {
  await assertNotThrottled(db, limits, now);
  await recordAttempt(db, limits, now);
}

export async function clearThrottle(db: Tx, key: string): Promise<void> {
  await db.deleteFrom('throttle').where('key', '=', key).execute();
}

const lastPrune = new WeakMap<object, number>();
/** Drops counters whose window ended long ago; runs at most once a minute per database handle. */
export async function pruneThrottle(db: Tx, now = Date.now()): Promise<void> {
  if (now - (lastPrune.get(db) ?? 0) < MINUTE) return;
  lastPrune.set(db, now);
  await db.deleteFrom('throttle').where('window_start', '<', now - 24 * 60 * MINUTE).execute();
}
