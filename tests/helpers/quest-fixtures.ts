// Players and requests for the quest, referral-award and beta tests: players are created with the
// users service (as sign-up does) and their conditions set on the columns directly.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { ledgerSum } from '../../server/services/ledger';
import { createUser, type NewUser } from '../../server/services/users';
import { accessFor } from './accounts';
import { claimFirstSession } from './mining';
import type { TestApp } from './test-app';

export interface Player {
  id: number;
  token: string;
}

export const randomWallet = () => `0x${randomBytes(20).toString('hex')}`;

export async function makePlayer(t: TestApp, u: NewUser & { referrerId?: number } = {}): Promise<Player> {
  const user = await t.app.db.transaction().execute(async (trx) => {
    const created = await createUser(trx, u);
    if (u.referrerId !== undefined)
      await trx.updateTable('users').set({ referrer_id: u.referrerId }).where('id', '=', created.id).execute();
    return created;
  });
  return { id: Number(user.id), token: await accessFor(t, Number(user.id)) };
}

/**
 * Signs up `n` players through `referrerId`'s link. They claim a mining session through the API, so
 * they count (decisions §12 Active friends), unless `active` is false.
 */
export async function addReferrals(
  t: TestApp,
  referrerId: number,
  n: number,
  { active = true } = {},
): Promise<Player[]> {
  const friends: Player[] = [];
  for (let i = 0; i < n; i++) {
    const friend = await makePlayer(t, { referrerId });
    if (active) await claimFirstSession(t, friend);
    friends.push(friend);
  }
  return friends;
}

/** A player whose three account quests' conditions hold (none paid yet). */
export const accountReady = (): NewUser => ({
  username: `nick_${randomBytes(4).toString('hex')}`,
  walletAddress: randomWallet(),
  email: `p${randomBytes(5).toString('hex')}@example.com`,
  emailConfirmed: true,
  passwordHash: 'scrypt$test$hash',
});

export function call(
  t: TestApp,
  p: Player | null,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...(p ? { authorization: `Bearer ${p.token}` } : {}), ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

export async function balanceOf(t: TestApp, id: number): Promise<number> {
  const row = await t.app.db.selectFrom('users').select('balance').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.balance);
}

/** Asserts the cached balance equals the ledger sum and returns it. */
export async function expectBalanceMatchesLedger(t: TestApp, id: number): Promise<number> {
  const balance = await balanceOf(t, id);
  expect(await ledgerSum(t.app.db, id, 'balance')).toBe(balance);
  return balance;
}

export async function ledgerRows(t: TestApp, id: number, reason: string) {
  return t.app.db
    .selectFrom('ledger')
    .selectAll()
    .where('user_id', '=', id)
    .where('reason', '=', reason)
    .orderBy('id')
    .execute();
}

/**
 * Completes the 9 beta tasks: account quests and follows through the API, and 6 referrals (their
 * invite awards are left for add-reward or the application to pay).
 */
export async function completeBetaTasks(t: TestApp, p: Player): Promise<void> {
  for (const path of ['/check-username/', '/check-wallet/', '/check-email-password/'])
    expect((await call(t, p, 'GET', path)).statusCode).toBe(200);
  for (const network of ['telegram_ru', 'telegram_eng', 'discord']) {
    expect((await call(t, p, 'POST', '/tasks/social-media-reward/', { network })).statusCode).toBe(200);
  }
  await addReferrals(t, p.id, 6);
}
