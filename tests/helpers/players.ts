// Players for API tests without going through sign-up: created with the users service (so they get
// what every new account gets), tokens minted by the app, money given through the ledger.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { Currency } from '../../server/db/tables/core';
import { ledgerSum, post } from '../../server/services/ledger';
import { createUser, type NewUser } from '../../server/services/users';
import { accessFor } from './accounts';
import type { TestApp } from './test-app';

export interface TestPlayer {
  id: number;
  /** A valid access token for the player. */
  token: string;
}

export async function createPlayer(t: TestApp, u: NewUser & { referrerId?: number } = {}): Promise<TestPlayer> {
  const user = await t.app.db.transaction().execute(async (trx) => {
    const created = await createUser(trx, { username: `p_${randomBytes(5).toString('hex')}`, ...u });
    if (u.referrerId !== undefined)
      await trx.updateTable('users').set({ referrer_id: u.referrerId }).where('id', '=', created.id).execute();
    return created;
  });
  return { id: Number(user.id), token: await accessFor(t, Number(user.id)) };
}

/** Calls the API as `player` (null: signed out). `url` is relative to /api/v1; a string body is sent raw as JSON. */
export function apiCall(
  t: TestApp,
  player: TestPlayer | null,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const auth = player ? { authorization: `Bearer ${player.token}` } : {};
  const raw = typeof body === 'string' ? { 'content-type': 'application/json' } : {};
  return t.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { ...auth, ...raw, ...headers },
    ...(body === undefined ? {} : { payload: body as string | object }),
  });
}

/** Gives (or with a negative amount takes) money through the ledger, as the operator would. */
export async function grant(t: TestApp, userId: number, currency: Currency, amount: number): Promise<void> {
  await t.app.db
    .transaction()
    .execute((trx) => post(trx, { userId, currency, amount, reason: 'admin_grant', ref: 'test' }));
}

/** The cached balance, after checking it equals the sum of the player's ledger rows. */
export async function balance(t: TestApp, userId: number, currency: Currency): Promise<number> {
  const row = await t.app.db.selectFrom('users').select(currency).where('id', '=', userId).executeTakeFirstOrThrow();
  const cached = Number((row as Record<string, unknown>)[currency]);
  expect(await ledgerSum(t.app.db, userId, currency)).toBe(cached);
  return cached;
}

export function ledgerRowsOf(t: TestApp, userId: number, reason: string) {
  return t.app.db
    .selectFrom('ledger')
    .selectAll()
    .where('user_id', '=', userId)
    .where('reason', '=', reason)
    .orderBy('id')
    .execute();
}
