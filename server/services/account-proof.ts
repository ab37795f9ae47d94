// Proof for account changes (decisions §13): adding or removing a sign-in method and changing the
// e-mail need, in the same call, the account's password or a single-use `reauth` string that
// /auth/reauth/ gave for another proof (a wallet signature, Google, Telegram). A stolen access token
// alone can then change nothing about who holds the account.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PASSWORD_WRONG, type Proof, REAUTH_REQUIRED } from '@shared/api/auth';
import { ApiError, invalidField, refuse } from '../lib/errors';
import type { Tx } from '../db/schema';
import { consumeActionToken, issueActionToken, ACTION_TTL_MS } from './action-tokens';
import { hashClientOf } from './hash-queue';
import { verifyPassword } from './passwords';
import { deviceLoginLimits, loginLimits, pruneThrottle, signedIn, spendAttempt, takeAttempt } from './throttle';
import type { User } from './users';

export const reauthRequired = (detail = REAUTH_REQUIRED) => new ApiError(403, 'reauth_required', detail);

/**
 * Checks `password` against the account's, counted like a sign-in: against the browser's known
 * device of this account when it has one (its own limit and queue lane), else the address and IP.
 */
export async function passwordMatches(
  app: FastifyInstance,
  request: FastifyRequest,
  user: Pick<User, 'id' | 'email' | 'device_epoch'>,
  stored: string,
  password: string,
): Promise<boolean> {
  const device = app.knownDevices.of(request, user);
  const limits = device
    ? deviceLoginLimits(device.id)
    : loginLimits('email', user.email ?? `user-${user.id}`, request.ip);
  const attempt = await takeAttempt(app.db, limits);
  const who = device
    ? { ...hashClientOf(request), address: `device:${device.id}`, knownDevice: true }
    : hashClientOf(request);
  const ok = await spendAttempt(app.db, attempt, () => verifyPassword(password, stored, who));
  if (ok) await signedIn(app.db, attempt);
  else await pruneThrottle(app.db);
  return ok;
}

/**
 * Whether `checked` is still the account's password hash, read under the row's lock. A password is
 * checked in the hash queue, which takes a while: a reset, change or removal that commits meanwhile
 * must not let the old password open a session or give a proof after it.
 */
export async function passwordStillIs(
  app: FastifyInstance,
  trx: Tx,
  userId: number,
  checked: string,
): Promise<boolean> {
  const row = await trx
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .$if(app.dialect === 'postgres', (q) => q.forUpdate())
    .executeTakeFirst();
  return row?.password_hash === checked;
}

/** Throws 403 `reauth_required` (no or spent proof) or 400 `invalid_password`; returns when the proof holds. */
export async function requireProof(
  app: FastifyInstance,
  request: FastifyRequest,
  user: User,
  proof: Proof,
  trx: Tx = app.db,
): Promise<void> {
  if (proof.reauth) {
    const used = await consumeActionToken(trx, ['reauth'], proof.reauth);
    if (used?.userId !== user.id) throw reauthRequired('This confirmation has expired. Confirm it is you again.');
    return;
  }
  if (proof.password && user.password_hash) {
    if (
      !(await passwordMatches(app, request, user, user.password_hash, proof.password)) ||
      !(await passwordStillIs(app, trx, user.id, user.password_hash))
    )
      throw invalidField('password', PASSWORD_WRONG, 'invalid_password');
    return;
  }
  throw reauthRequired();
}

/**
 * `passwordChecked`: the hash a password proof was checked against, which must still be the account's
 * (else the answer is the route's wrong password).
 */
export async function issueReauth(
  app: FastifyInstance,
  userId: number,
  passwordChecked?: string,
  now = Date.now(),
): Promise<{ reauth: string; expires_at: string }> {
  const reauth = await app.db.transaction().execute(async (trx) => {
    if (passwordChecked !== undefined && !(await passwordStillIs(app, trx, userId, passwordChecked)))
      throw refuse('invalid_password', 'Wrong password');
    return issueActionToken(trx, { userId, kind: 'reauth' }, now);
  });
  return { reauth, expires_at: new Date(now + ACTION_TTL_MS.reauth).toISOString() };
}
