// New accounts per client address (decisions §12, SIGNUP_LIMIT_PER_HOUR): every way to sign up
// creates a free account, and free accounts are what referral farming is made of. Counted in the
// database's `throttle` table, so every server process shares the count. Called in the
// transaction that creates the account: a refused sign-up rolls its count back with it, and a
// sign-in to an existing account never counts.
import type { Tx } from '../db/schema';
import { takeAttempt } from './throttle';

export const SIGNUP_WINDOW_MS = 60 * 60 * 1000;

/** Counts one new account for this client address; 429 with Retry-After past the limit (0: no limit). */
export async function takeSignup(trx: Tx, ip: string, perHour: number): Promise<void> {
  if (perHour <= 0) return;
  await takeAttempt(trx, [{ key: `signup:ip:${ip}`, max: perHour, windowMs: SIGNUP_WINDOW_MS }]);
}
