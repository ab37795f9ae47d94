// Creating players and shaping the record `/auth/me` returns. Every way to sign up (e-mail, wallet,
// Google) goes through `createUser`, so what a new account receives is decided in one place.
import { randomBytes } from 'node:crypto';
import type { Tx } from '../db/schema';
import type { UsersTable } from '../db/tables/core';
import type { Selectable } from 'kysely';

export type User = Selectable<UsersTable>;

export interface NewUser {
  username?: string | null;
  email?: string | null;
  emailConfirmed?: boolean;
  passwordHash?: string | null;
  walletAddress?: string | null;
  googleSub?: string | null;
}

const newReferralCode = () => randomBytes(6).toString('base64url');

/** Inserts a player inside the caller's transaction and grants what every new account gets. */
export async function createUser(trx: Tx, u: NewUser, now = Date.now()): Promise<User> {
  const user = await trx
    .insertInto('users')
    .values({
      username: u.username ?? null,
      email: u.email ?? null,
      email_confirmed: u.emailConfirmed ? 1 : 0,
      password_hash: u.passwordHash ?? null,
      wallet_address: u.walletAddress ?? null,
      google_sub: u.googleSub ?? null,
      referral_code: newReferralCode(),
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return user;
}

export function referralLink(appUrl: string, code: string): string {
  return `${appUrl}/?refCode=${encodeURIComponent(code)}`;
}
