// New accounts per client address (decisions §12, SIGNUP_LIMIT_PER_HOUR): every way to sign up
// creates a free account, and free accounts are what referral farming is made of. Counted in the
// database's `throttle` table, so every server process shares the count. Called in the
// transaction that creates the account: a refused sign-up rolls its count back with it, and a
// sign-in to an existing account never counts.
import { clientKey } from '../lib/client-key';
import { tooManyAttempts } from '../lib/errors';
import type { Tx } from '../db/schema';
import { takeAttempt } from './throttle';

export const SIGNUP_WINDOW_MS = 60 * 60 * 1000;

/** Counts one new account for this client address; 429 with Retry-After past the limit (0: no limit). */
export async function takeSignup(trx: Tx, ip: string, perHour: number, now = Date.now()): Promise<void> {
  if (perHour <= 0) return;
  // IPv6 per /64 (lib/client-key.ts): one subscriber, one count.
  const key = `signup:ip:${clientKey(ip)}`;
  await takeAttempt(trx, [{ key, max: perHour, windowMs: SIGNUP_WINDOW_MS }], now);
  // Our increment holds the counter's row until this transaction ends, so reading it now sees
  // every sign-up that went ahead of us: a burst of parallel sign-ups cannot all pass a check
  // made before they counted.
  const row = await trx
    .selectFrom('throttle')
    .select(['count', 'window_start'])
    .where('key', '=', key)
    .executeTakeFirstOrThrow();
  if (Number(row.count) > perHour)
    throw tooManyAttempts(Math.max(1, Math.ceil((Number(row.window_start) + SIGNUP_WINDOW_MS - now) / 1000)));
}
