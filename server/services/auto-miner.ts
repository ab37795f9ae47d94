// The Auto Miner subscription (decisions §6): 150 Gems for 30 days. A purchase while a period runs
// adds a period that starts when the last one ends, so every purchase is one row with its own dates.
import type { Selectable } from 'kysely';
import type { Subscription } from '@shared/api/mining';
import { AUTO_MINER_DAYS, AUTO_MINER_PRICE_GEMS } from '@shared/constants';
import type { Tx } from '../db/schema';
import type { AutoMinerSubscriptionsTable } from '../db/tables/mining';
import { post } from './ledger';
import { isoTime } from '../lib/iso-time';

export type SubscriptionRow = Selectable<AutoMinerSubscriptionsTable>;

const DAY_MS = 86_400_000;

export const subscriptionJson = (s: SubscriptionRow, now: number): Subscription => ({
  id: Number(s.id),
  price_gems: Number(s.price_gems),
  started_at: isoTime(s.started_at),
  expires_at: isoTime(s.expires_at),
  active: Number(s.expires_at) > now,
});

/** Takes the price and adds a 30-day period; throws `not_enough_gems` (400) without the Gems. */
export async function buyAutoMiner(trx: Tx, userId: number, now: number): Promise<SubscriptionRow> {
  const row = await trx
    .insertInto('auto_miner_subscriptions')
    .values({
      user_id: userId,
      price_gems: AUTO_MINER_PRICE_GEMS,
      started_at: now,
      expires_at: now + AUTO_MINER_DAYS * DAY_MS,
      created_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  // The payment updates the user's row, which on PostgreSQL also queues a second purchase of the
  // same player behind this one until commit, so the period dates below are read one at a time.
  await post(
    trx,
    { userId, currency: 'gems', amount: -AUTO_MINER_PRICE_GEMS, reason: 'auto_miner', ref: `subscription:${row.id}` },
    now,
  );
  const last = await trx
    .selectFrom('auto_miner_subscriptions')
    .select((eb) => eb.fn.max('expires_at').as('until'))
    .where('user_id', '=', userId)
    .where('id', '!=', row.id)
    .executeTakeFirst();
  const startsAt = Math.max(now, Number(last?.until ?? 0));
  if (startsAt === now) return row;
  return trx
    .updateTable('auto_miner_subscriptions')
    .set({ started_at: startsAt, expires_at: startsAt + AUTO_MINER_DAYS * DAY_MS })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Whether the player's Auto Miner runs at `now`. */
export async function autoMinerRunning(db: Tx, userId: number, now: number): Promise<boolean> {
  const row = await db
    .selectFrom('auto_miner_subscriptions')
    .select('id')
    .where('user_id', '=', userId)
    .where('started_at', '<=', now)
    .where('expires_at', '>', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function listSubscriptions(db: Tx, userId: number): Promise<SubscriptionRow[]> {
  return db
    .selectFrom('auto_miner_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('started_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function subscriptionById(db: Tx, userId: number, id: number): Promise<SubscriptionRow | undefined> {
  return db
    .selectFrom('auto_miner_subscriptions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}
