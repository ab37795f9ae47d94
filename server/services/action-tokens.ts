// Single-use tokens sent in e-mail links (confirmations, password resets). The link carries 32
// random bytes; the database keeps only their sha256, so a leaked table gives no usable links.
import { createHash, randomBytes } from 'node:crypto';
import type { Tx } from '../db/schema';

export type ActionKind =
  | 'confirm_registration'
  | 'confirm_email'
  | 'reset_password'
  | 'change_email'
  | 'change_password'
  | 'undo_email_change'
  | 'reauth'
  | 'discord_state';

const HOUR = 60 * 60 * 1000;
/** Confirmations live 24 hours, anything that sets a password 1 hour (decisions §5). */
export const ACTION_TTL_MS: Record<ActionKind, number> = {
  confirm_registration: 24 * HOUR,
  confirm_email: 24 * HOUR,
  change_email: 24 * HOUR,
  reset_password: HOUR,
  change_password: HOUR,
  // Sent to the old address after an e-mail change (decisions §12): long enough to notice.
  undo_email_change: 72 * HOUR,
  // Proof of a sign-in method for the next account change (decisions §13): used at once or never.
  reauth: 5 * 60 * 1000,
  // The OAuth2 `state` of one trip to Discord's consent page and back (decisions §14): this player's, once.
  discord_state: 10 * 60 * 1000,
};

export const PASSWORD_KINDS: ActionKind[] = ['reset_password', 'change_password'];

export const hashToken = (raw: string) => createHash('sha256').update(raw).digest('hex');

export async function issueActionToken(
  trx: Tx,
  t: { userId: number; kind: ActionKind; payload?: unknown },
  now = Date.now(),
): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await trx
    .insertInto('action_tokens')
    .values({
      user_id: t.userId,
      kind: t.kind,
      token_hash: hashToken(raw),
      payload: t.payload === undefined ? null : JSON.stringify(t.payload),
      expires_at: now + ACTION_TTL_MS[t.kind],
      used_at: null,
      created_at: now,
    })
    .execute();
  return raw;
}

export interface ConsumedToken {
  userId: number;
  kind: ActionKind;
  payload: unknown;
}

/**
 * Marks an unused, unexpired token of one of `kinds` used and returns it, else null. The check and
 * the mark are one UPDATE, so two requests racing with one link cannot both succeed. Run it in the
 * transaction that applies the token's effect: if the effect is refused, the token stays usable.
 */
export async function consumeActionToken(
  trx: Tx,
  kinds: ActionKind[],
  raw: string,
  now = Date.now(),
): Promise<ConsumedToken | null> {
  if (!raw) return null;
  const row = await trx
    .updateTable('action_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', hashToken(raw))
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['user_id', 'kind', 'payload'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.user_id,
    kind: row.kind as ActionKind,
    payload: row.payload === null ? null : JSON.parse(row.payload),
  };
}

/**
 * Whether a token would be accepted now, without using it: lets a handler skip expensive work
 * (hashing a new password) for links that are dead anyway. `consumeActionToken` still decides.
 */
export async function isLiveActionToken(db: Tx, kinds: ActionKind[], raw: string, now = Date.now()): Promise<boolean> {
  const row = await db
    .selectFrom('action_tokens')
    .select('id')
    .where('token_hash', '=', hashToken(raw))
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

/** The payload of the user's newest unused, unexpired token of `kind`, or undefined when there is none. */
export async function newestLivePayload(db: Tx, userId: number, kind: ActionKind, now = Date.now()): Promise<unknown> {
  const row = await db
    .selectFrom('action_tokens')
    .select('payload')
    .where('user_id', '=', userId)
    .where('kind', '=', kind)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  return row.payload === null ? null : JSON.parse(row.payload);
}

/** Voids a user's outstanding tokens of these kinds (a newer link or a password change supersedes them). */
export async function revokeActionTokens(
  trx: Tx,
  userId: number,
  kinds: ActionKind[],
  now = Date.now(),
  opts: { issuedAfter?: number } = {},
): Promise<void> {
  await trx
    .updateTable('action_tokens')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('kind', 'in', kinds)
    .where('used_at', 'is', null)
    .$if(opts.issuedAfter !== undefined, (q) => q.where('created_at', '>', opts.issuedAfter!))
    .execute();
}
