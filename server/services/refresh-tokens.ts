// Refresh tokens: opaque random strings, kept only as sha256, valid 30 days, revocable one by one
// (logout) or all at once (password change). Refreshing does not rotate them (decisions §4).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { REFRESH_TOKEN_SECONDS } from '@shared/constants';
import type { Tx } from '../db/schema';
import { hashToken } from './action-tokens';

export async function issueRefreshToken(trx: Tx, userId: number, now = Date.now()): Promise<string> {
  const raw = randomBytes(32).toString('base64url');
  await trx
    .insertInto('refresh_tokens')
    .values({ user_id: userId, token_hash: hashToken(raw), expires_at: now + REFRESH_TOKEN_SECONDS * 1000, revoked_at: null, created_at: now })
    .execute();
  return raw;
}

/** The access + refresh pair that every sign-in answers with. */
export async function issueTokenPair(app: FastifyInstance, trx: Tx, userId: number): Promise<{ access: string; refresh: string }> {
  return { access: app.issueAccess(userId), refresh: await issueRefreshToken(trx, userId) };
}

/** The user a live refresh token belongs to, else null. */
export async function userOfRefreshToken(db: Tx, raw: string, now = Date.now()): Promise<number | null> {
  const row = await db
    .selectFrom('refresh_tokens')
    .select('user_id')
    .where('token_hash', '=', hashToken(raw))
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row?.user_id ?? null;
}

export type RevokeResult = 'revoked' | 'already_revoked' | 'unknown';

export async function revokeRefreshToken(db: Tx, raw: string, now = Date.now()): Promise<RevokeResult> {
  const hash = hashToken(raw);
  const updated = await db.updateTable('refresh_tokens').set({ revoked_at: now }).where('token_hash', '=', hash).where('revoked_at', 'is', null).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return 'revoked';
  const known = await db.selectFrom('refresh_tokens').select('id').where('token_hash', '=', hash).executeTakeFirst();
  return known ? 'already_revoked' : 'unknown';
}

export async function revokeAllRefreshTokens(trx: Tx, userId: number, now = Date.now()): Promise<void> {
  await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
}
