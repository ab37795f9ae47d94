// Refresh tokens: opaque random strings, kept only as sha256, valid 30 days, each bound to the
// session (decisions §13) it renews; ending the session revokes them. Refreshing does not rotate
// them (decisions §4).
import { randomBytes } from 'node:crypto';
import { REFRESH_TOKEN_SECONDS } from '@shared/constants';
import type { Tx } from '../db/schema';
import { hashToken } from './action-tokens';

export async function issueRefreshToken(trx: Tx, userId: number, sessionId: number, now = Date.now()): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await trx
    .insertInto('refresh_tokens')
    .values({
      user_id: userId,
      session_id: sessionId,
      token_hash: hashToken(raw),
      expires_at: now + REFRESH_TOKEN_SECONDS * 1000,
      revoked_at: null,
      created_at: now,
    })
    .execute();
  return raw;
}

export interface RefreshOwner {
  id: number;
  userId: number;
  /** NULL for a token from before sessions existed: its next refresh opens a session for it. */
  sessionId: number | null;
}

/** The live refresh token (in a live session) and its player, else null. */
export async function refreshTokenOwner(db: Tx, raw: string, now = Date.now()): Promise<RefreshOwner | null> {
  const row = await db
    .selectFrom('refresh_tokens')
    .leftJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select(['refresh_tokens.id', 'refresh_tokens.user_id', 'refresh_tokens.session_id', 'sessions.ended_at'])
    .where('refresh_tokens.token_hash', '=', hashToken(raw))
    .where('refresh_tokens.revoked_at', 'is', null)
    .where('refresh_tokens.expires_at', '>', now)
    .executeTakeFirst();
  if (!row || row.ended_at !== null) return null;
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    sessionId: row.session_id === null ? null : Number(row.session_id),
  };
}

export async function userOfRefreshToken(db: Tx, raw: string, now = Date.now()): Promise<number | null> {
  return (await refreshTokenOwner(db, raw, now))?.userId ?? null;
}

/** Binds a token from before sessions existed to the session just opened for it. */
export async function bindRefreshToken(trx: Tx, tokenId: number, sessionId: number): Promise<void> {
  await trx
    .updateTable('refresh_tokens')
    .set({ session_id: sessionId })
    .where('id', '=', tokenId)
    .where('session_id', 'is', null)
    .execute();
}
