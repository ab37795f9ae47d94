// The only way money moves (decisions §3): one append-only ledger row per change, and the user's
// cached balance column updated in the same transaction, so a balance always equals its rows' sum.
import { sql } from 'kysely';
import { refuse } from '../lib/errors';
import { announceAfterCommit, Topic } from '../db/commit-hooks';
import { preparedWrite } from '../db/prepared';
import type { Currency } from '../db/tables/core';
import type { Tx } from '../db/schema';

/**
 * Why money moved. Reports and the arcade season read these (season XP counts `mining_claim` rows
 * and the coins of the `quest_*`, `category_reward` and `referral_award` rows).
 */
export type LedgerReason =
  | 'mining_claim'
  | 'quest_account'
  | 'quest_social'
  | 'category_reward'
  | 'referral_award'
  | 'season_tier'
  | 'top_up'
  /** A paid order refunded by the provider: its Gems taken back (as many as are left). */
  | 'top_up_refund'
  | 'shop_purchase'
  | 'auto_miner'
  | 'admin_grant';

export const QUEST_COIN_REASONS: readonly LedgerReason[] = [
  'quest_account',
  'quest_social',
  'category_reward',
  'referral_award',
];

export interface Posting {
  userId: number;
  currency: Currency;
  /** Coins and Gems are whole units; PXT is in millionths. Negative takes. */
  amount: number;
  reason: LedgerReason;
  ref?: string | null;
  /** For a reward paid once: a second posting with the same key pays nothing. */
  uniqueKey?: string | null;
}

/** Every posting, heard once its transaction committed (`app.dbHooks.on(postings, …)`: metrics). */
export const postings = new Topic<Posting>('ledger posting');

// Compiled once (db/prepared.ts): every claim, purchase and reward posts.
const insertRow = preparedWrite(
  (
    db,
    p: {
      userId: number;
      currency: Currency;
      amount: number;
      reason: LedgerReason;
      ref: string | null;
      uniqueKey: string | null;
      now: number;
    },
  ) =>
    db
      .insertInto('ledger')
      .values({
        user_id: p.userId,
        currency: p.currency,
        amount: p.amount,
        reason: p.reason,
        ref: p.ref,
        unique_key: p.uniqueKey,
        created_at: p.now,
      })
      .onConflict((oc) => oc.column('unique_key').doNothing())
      .returning('id'),
);

/** The balance update of one currency, for a gain or for a take (which must not go below zero). */
function balanceUpdate(currency: Currency, take: boolean) {
  // `least` is what a take needs on the balance (-amount).
  return preparedWrite((db, p: { userId: number; amount: number; least: number }) => {
    const column = sql.ref(currency);
    return db
      .updateTable('users')
      .set({ [currency]: sql`${column} + ${p.amount}` })
      .where('id', '=', p.userId)
      .$if(take, (q) => q.where(currency, '>=', p.least));
  });
}
const balanceUpdates = new Map<string, ReturnType<typeof balanceUpdate>>();
function moveBalance(currency: Currency, take: boolean) {
  const name = `${currency}:${take}`;
  let update = balanceUpdates.get(name);
  if (!update) balanceUpdates.set(name, (update = balanceUpdate(currency, take)));
  return update;
}

/**
 * Posts one change. Call it inside a transaction (`db.transaction().execute(trx => post(trx, …))`):
 * a refused take throws after the row was written, and only the rollback removes it. Returns false (and changes nothing) when the
 * unique key was already paid. A take that would leave the balance negative is refused.
 */
export async function post(trx: Tx, p: Posting, now = Date.now()): Promise<boolean> {
  if (!Number.isSafeInteger(p.amount) || p.amount === 0)
    throw new Error(`ledger amount must be a non-zero integer, got ${p.amount}`);
  const inserted = await insertRow(trx, {
    userId: p.userId,
    currency: p.currency,
    amount: p.amount,
    reason: p.reason,
    ref: p.ref ?? null,
    uniqueKey: p.uniqueKey ?? null,
    now,
  });
  if (inserted.rows.length === 0) return false;
  const updated = await moveBalance(p.currency, p.amount < 0)(trx, {
    userId: p.userId,
    amount: p.amount,
    least: -p.amount,
  });
  if (updated.changed !== 1) {
    // Nothing was taken: undo the row by failing the caller's transaction.
    throw refuse(
      p.currency === 'gems' ? 'not_enough_gems' : 'insufficient_funds',
      p.currency === 'gems' ? 'Not enough Gems' : 'Not enough funds',
    );
  }
  await announceAfterCommit(trx, postings, p);
  return true;
}

/** Sum of a user's ledger rows in one currency (for checks and the operator). */
export async function ledgerSum(trx: Tx, userId: number, currency: Currency): Promise<number> {
  const row = await trx
    .selectFrom('ledger')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), sql<number>`0`).as('total'))
    .where('user_id', '=', userId)
    .where('currency', '=', currency)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

export const toTokenNumber = (millionths: number) => millionths / 1_000_000;
