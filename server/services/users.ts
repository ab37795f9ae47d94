// Creating players and shaping the record `/auth/me` returns. Every way to sign up (e-mail, wallet,
// Google) goes through `createUser`, so what a new account receives is decided in one place.
import { randomBytes, randomInt } from 'node:crypto';
import type { Selectable } from 'kysely';
import { USERNAME_MAX, USERNAME_MIN } from '@shared/constants';
import { usernameKey } from '@shared/validation';
import type { Tx } from '../db/schema';
import type { UsersTable } from '../db/tables/core';
import { grantWelcomeBoost } from './temp-boosts';

export type User = Selectable<UsersTable>;

export interface NewUser {
  username?: string | null;
  email?: string | null;
  emailConfirmed?: boolean;
  passwordHash?: string | null;
  walletAddress?: string | null;
  googleSub?: string | null;
  /** The interface's language at sign-up (mails go out before the first sign-in records it). */
  locale?: string;
}

const newReferralCode = () => randomBytes(6).toString('base64url');

/** Inserts a player inside the caller's transaction and grants what every new account gets. */
export async function createUser(trx: Tx, u: NewUser, now = Date.now()): Promise<User> {
  const user = await trx
    .insertInto('users')
    .values({
      ...usernameColumns(u.username ?? null),
      email: u.email ?? null,
      email_confirmed: u.emailConfirmed ? 1 : 0,
      password_hash: u.passwordHash ?? null,
      wallet_address: u.walletAddress ?? null,
      google_sub: u.googleSub ?? null,
      password_added_at: u.passwordHash ? now : null,
      wallet_added_at: u.walletAddress ? now : null,
      google_added_at: u.googleSub ? now : null,
      referral_code: newReferralCode(),
      created_at: now,
      ...(u.locale ? { locale: u.locale } : {}),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await grantWelcomeBoost(trx, user.id, now);
  return user;
}

/**
 * The columns to write whenever a username is set: the name as chosen and the key it is unique by
 * (the same fold on SQLite and PostgreSQL, computed here rather than by the database).
 */
export const usernameColumns = (username: string | null) => ({
  username,
  username_key: username === null ? null : usernameKey(username),
});

export function referralLink(appUrl: string, code: string): string {
  return `${appUrl}/?refCode=${encodeURIComponent(code)}`;
}

/** E-mail addresses are kept trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export async function findUserById(db: Tx, id: number): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByEmail(db: Tx, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

/** Whether another player already has this username, or one that folds to the same key (case, look-alike forms). */
export async function usernameTaken(db: Tx, username: string, exceptUserId: number | null = null): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_key', '=', usernameKey(username))
    .$if(exceptUserId !== null, (q) => q.where('id', '!=', exceptUserId!))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A free username for a new Google player: the e-mail's local part (letters, digits, `_`, at most
 * 10 characters), as is when it is free and long enough, else with random digits appended.
 * The caller inserts it; a race for the same name shows as a unique violation to retry on.
 */
export async function generateUsername(db: Tx, email: string): Promise<string> {
  let base = email
    .split('@')[0]
    .replace(/[^A-Za-z0-9_]/g, '')
    .slice(0, USERNAME_MAX - 5);
  if (base.length === 0) base = 'player';
  if (base.length >= USERNAME_MIN && !(await usernameTaken(db, base))) return base;
  for (let attempt = 0; attempt < 20; attempt++) {
    // At least 4 digits, more when the base is short; never beyond USERNAME_MAX.
    const digits = Math.min(
      USERNAME_MAX - base.length,
      Math.max(4, USERNAME_MIN - base.length) + Math.floor(attempt / 5),
    );
    const candidate = base + String(randomInt(0, 10 ** digits)).padStart(digits, '0');
    if (!(await usernameTaken(db, candidate))) return candidate;
  }
  return `player${String(randomInt(0, 1e9)).padStart(9, '0')}`;
}

/** True for a unique-constraint violation on either database. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
