// Registrations not confirmed yet. Each confirmation link carries the password given with it
// (register again, get another link with another password), so until a link is opened the account
// has no password of its own: a sign-in is checked against the newest live link's.
import type { Tx } from '../db/schema';
import { newestLivePayload } from './action-tokens';
import type { User } from './users';

/**
 * The hash an e-mail login of this unconfirmed account is checked against, to answer "not
 * confirmed" to the one who registered last (one hash per attempt, like any login), else null.
 * Accounts registered before passwords travelled with links keep theirs on the row.
 */
export async function pendingPasswordHash(db: Tx, user: User, now = Date.now()): Promise<string | null> {
  const payload = (await newestLivePayload(db, user.id, 'confirm_registration', now)) as { password_hash?: string } | null | undefined;
  return payload?.password_hash ?? user.password_hash;
}
