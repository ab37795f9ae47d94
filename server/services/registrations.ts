// Registrations not confirmed yet. Each confirmation link carries the password given with it
// (register again, get another link with another password), so until a link is opened the account
// has no password of its own: a sign-in is checked against the newest live link's.
import type { Tx } from '../db/schema';
import { newestLivePayload, revokeActionTokens } from './action-tokens';
import type { User } from './users';

/**
 * The hash an e-mail login of this unconfirmed account is checked against, to answer "not
 * confirmed" to the one who registered last (one hash per attempt, like any login), else null.
 * Accounts registered before passwords travelled with links keep theirs on the row.
 */
export async function pendingPasswordHash(db: Tx, user: User, now = Date.now()): Promise<string | null> {
  const payload = (await newestLivePayload(db, user.id, 'confirm_registration', now)) as
    { password_hash?: string } | null | undefined;
  return payload?.password_hash ?? user.password_hash;
}

/** Unconfirmed registrations are dropped after this long; until then they never block the address's proven owner. */
export const PENDING_REGISTRATION_MS = 7 * 24 * 60 * 60 * 1000;

/**
 * Frees `email` for the account `userId` is proving it for (decisions §13): an unconfirmed
 * registration of the address (perhaps a stranger's, made to block it) loses the address and its
 * links. Returns false when a confirmed account holds it.
 */
export async function claimAddress(trx: Tx, email: string, userId: number, now = Date.now()): Promise<boolean> {
  const holder = await trx
    .selectFrom('users')
    .select(['id', 'email_confirmed'])
    .where('email', '=', email)
    .executeTakeFirst();
  if (!holder || Number(holder.id) === userId) return true;
  if (holder.email_confirmed) return false;
  await trx.updateTable('users').set({ email: null }).where('id', '=', holder.id).execute();
  await revokeActionTokens(trx, Number(holder.id), ['confirm_registration'], now);
  return true;
}

/** Releases the addresses of registrations left unconfirmed for PENDING_REGISTRATION_MS (the worker runs it). */
export async function expirePendingRegistrations(db: Tx, now = Date.now()): Promise<number> {
  const result = await db
    .updateTable('users')
    .set({ email: null })
    .where('email_confirmed', '=', 0)
    .where('email', 'is not', null)
    .where('wallet_address', 'is', null)
    .where('google_sub', 'is', null)
    .where('created_at', '<', now - PENDING_REGISTRATION_MS)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
