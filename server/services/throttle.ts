// Counting attempts (sign-ins, wallet signatures, mails asked for, password links) per key in the
// database, so every server process sees the same counters. A fixed window per key: the first
// attempt opens it, further attempts count up, and once it has passed the next one starts a new
// window. An attempt is reserved BEFORE the work it guards (hashing, mailing) with one statement
// per key that increments and returns the count: parallel requests cannot all read "4 of 5" and
// all go ahead, as they could when the check and the count were two steps.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { tooManyAttempts } from '../lib/errors';
import type { Tx } from '../db/schema';
import { clientKey } from '../lib/client-key';

export interface Limit {
  key: string;
  max: number;
  windowMs: number;
}

const MINUTE = 60 * 1000;
export const LOGIN_WINDOW_MS = 15 * MINUTE;
/** Sign-in attempts allowed per address (e-mail or wallet) and per client IP in LOGIN_WINDOW_MS. */
export const LOGIN_FAILURES_PER_ADDRESS = 5;
export const LOGIN_FAILURES_PER_IP = 20;
/** Link mails (confirmation resend, password reset) per address and per IP in 15 minutes. */
export const MAILS_PER_ADDRESS = 5;
// Generous per IP: many players can share one address behind carrier NAT.
export const MAILS_PER_IP = 100;
/** New passwords set through one mailed link, and through any links from one IP, in 15 minutes. */
export const PASSWORD_LINK_ATTEMPTS = 5;
export const PASSWORD_LINK_ATTEMPTS_PER_IP = 20;

export function loginLimits(kind: 'email' | 'wallet', address: string, ip: string): Limit[] {
  return [
    { key: `login:${kind}:${address.toLowerCase()}`, max: LOGIN_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS },
    { key: `login:ip:${clientKey(ip)}`, max: LOGIN_FAILURES_PER_IP, windowMs: LOGIN_WINDOW_MS },
  ];
}

/**
 * A sign-in from a known device of the account (services/known-devices.ts): counted against that
 * device alone, so failures from elsewhere, which lock the address, do not lock the owner out.
 */
export function deviceLoginLimits(deviceId: string): Limit[] {
  return [{ key: `login:device:${deviceId}`, max: LOGIN_FAILURES_PER_ADDRESS, windowMs: LOGIN_WINDOW_MS }];
}

/** Keyed on the one recipient mailed (trimmed, lower-cased as the schema and the mailer have it). */
export function mailLimits(address: string, ip: string): Limit[] {
  return [
    { key: `mail:${address.trim().toLowerCase()}`, max: MAILS_PER_ADDRESS, windowMs: 15 * MINUTE },
    { key: `mail:ip:${clientKey(ip)}`, max: MAILS_PER_IP, windowMs: 15 * MINUTE },
  ];
}

/** For setting a password by mailed link; the link is keyed by a digest, so no live token sits in this table. */
export function passwordLinkLimits(token: string, ip: string): Limit[] {
  const digest = createHash('sha256').update(token).digest('base64url').slice(0, 22);
  return [
    { key: `link:${digest}`, max: PASSWORD_LINK_ATTEMPTS, windowMs: 15 * MINUTE },
    { key: `link:ip:${clientKey(ip)}`, max: PASSWORD_LINK_ATTEMPTS_PER_IP, windowMs: 15 * MINUTE },
  ];
}

/** What takeAttempt counted: each key with the window it was counted in, to give it back exactly there. */
export interface Reservation {
  taken: { key: string; windowStart: number }[];
}

const retrySeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Increments one key and returns its count and window (one statement; the window logic lives here). */
async function increment(db: Tx, limit: Limit, now: number): Promise<{ count: number; windowStart: number }> {
  const expired = sql<boolean>`${sql.ref('throttle.window_start')} <= ${now - limit.windowMs}`;
  const row = await db
    .insertInto('throttle')
    .values({ key: limit.key, count: 1, window_start: now })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`CASE WHEN ${expired} THEN 1 ELSE ${sql.ref('throttle.count')} + 1 END`,
        window_start: sql<number>`CASE WHEN ${expired} THEN ${now} ELSE ${sql.ref('throttle.window_start')} END`,
      }),
    )
    .returning(['count', 'window_start'])
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), windowStart: Number(row.window_start) };
}

/**
 * Reserves one attempt against every limit, or throws 429 (with Retry-After) when that is more
 * than a limit allows. A refused attempt is given back on every key it touched, so the counters
 * hold exactly the attempts that went ahead: a flood of refused requests neither extends a lockout
 * nor uses up the IP's share for other addresses. (For mails: the limit-th is still sent.)
 */
export async function takeAttempt(db: Tx, limits: Limit[], now = Date.now()): Promise<Reservation> {
  const reservation: Reservation = { taken: [] };
  for (const limit of limits) {
    const { count, windowStart } = await increment(db, limit, now);
    reservation.taken.push({ key: limit.key, windowStart });
    if (count > limit.max) {
      await giveBack(db, reservation);
      throw tooManyAttempts(retrySeconds(windowStart + limit.windowMs - now));
    }
  }
  return reservation;
}

/** Returns reserved attempts (all, or those of `keys`), in the window they were counted in only. */
export async function giveBack(db: Tx, reservation: Reservation, keys?: string[]): Promise<void> {
  for (const { key, windowStart } of reservation.taken) {
    if (keys && !keys.includes(key)) continue;
    await db
      .updateTable('throttle')
      .set({ count: sql<number>`${sql.ref('count')} - 1` })
      .where('key', '=', key)
      .where('window_start', '=', windowStart)
      .where('count', '>', 0)
      .execute();
  }
}

/**
 * Runs the work an attempt was reserved for. If it throws (the hash queue was full, so nothing was
 * checked, hashed or mailed), the attempt is given back before the error goes on.
 */
export async function spendAttempt<T>(db: Tx, reservation: Reservation, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    await giveBack(db, reservation);
    throw err;
  }
}

/**
 * A successful sign-in: the address starts afresh and the other keys (the IP) get their attempt
 * back, so players behind one carrier NAT do not lock each other out by signing in.
 */
export async function signedIn(db: Tx, reservation: Reservation): Promise<void> {
  const [first, ...rest] = reservation.taken;
  if (first) await clearThrottle(db, first.key);
  await giveBack(
    db,
    reservation,
    rest.map((r) => r.key),
  );
}

/**
 * Throws 429 when any of the limits is used up. Only a read: never guard work with it followed by
 * recordAttempt (parallel requests pass together); use takeAttempt.
 */
export async function assertNotThrottled(db: Tx, limits: Limit[], now = Date.now()): Promise<void> {
  const rows = await db
    .selectFrom('throttle')
    .selectAll()
    .where(
      'key',
      'in',
      limits.map((l) => l.key),
    )
    .execute();
  let wait = 0;
  for (const row of rows) {
    const limit = limits.find((l) => l.key === row.key)!;
    const endsAt = Number(row.window_start) + limit.windowMs;
    if (endsAt > now && row.count >= limit.max) wait = Math.max(wait, endsAt - now);
  }
  if (wait > 0) throw tooManyAttempts(retrySeconds(wait));
}

/** Counts one event against every limit without refusing it (one atomic upsert per key). */
export async function recordAttempt(db: Tx, limits: Limit[], now = Date.now()): Promise<void> {
  for (const limit of limits) await increment(db, limit, now);
}

export async function clearThrottle(db: Tx, key: string): Promise<void> {
  await db.deleteFrom('throttle').where('key', '=', key).execute();
}

const lastPrune = new WeakMap<object, number>();
/** Drops counters whose window ended long ago; runs at most once a minute per database handle. */
export async function pruneThrottle(db: Tx, now = Date.now()): Promise<void> {
  if (now - (lastPrune.get(db) ?? 0) < MINUTE) return;
  lastPrune.set(db, now);
  await db
    .deleteFrom('throttle')
    .where('window_start', '<', now - 24 * 60 * MINUTE)
    .execute();
}
