// What the tether payment tests share (decisions §8): the order's price on the chain, pending tether
// orders written as the top-up writes them, players whose linked wallet holds gas and USDT on the
// local node (tests/helpers/anvil.ts), and the call that posts a transaction hash for an order.
import { randomBytes } from 'node:crypto';
import type { Address, Hash } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import type { PaymentMethod } from '@shared/constants';
import type { Db } from '../../server/db/schema';
import { bookCheckout, createOrder, type OrderRow } from '../../server/services/payments/orders';
import type { AnvilNode } from './anvil';
import { apiCall, createPlayer, type TestPlayer } from './players';
import type { TestApp } from './test-app';

/** 4.99 USDT, the price of 50 Gems, in the token's smallest unit. */
export const PRICE = 4_990_000n;
/** Confirmations the tests' server asks for before paying. */
export const CONFIRMATIONS = 3;

export const randomHash = () => `0x${randomBytes(32).toString('hex')}` as Hash;

/** A pending order of 50 Gems for 4.99 USD (tether unless told), written as the top-up writes it. */
export async function pendingOrder(db: Db, userId: number, method: PaymentMethod = 'tether'): Promise<number> {
  const user = await db.selectFrom('users').select('wallet_address').where('id', '=', userId).executeTakeFirstOrThrow();
  const created = await createOrder(db, {
    userId,
    itemId: 'gems_50',
    quantity: 1,
    method,
    provider: method === 'tether' ? 'usdt' : 'test',
    walletAddress: user.wallet_address,
  });
  await db.transaction().execute((trx) => bookCheckout(trx, created, { status: 'pending', externalId: null }));
  return Number(created.id);
}

export interface Payer extends TestPlayer {
  wallet: PrivateKeyAccount;
}

/** The calls of one test app; `node` and `token` are read when called (they start in a beforeAll). */
export function tetherCalls(t: () => TestApp, node: () => AnvilNode, token: () => Address) {
  return {
    /** A player whose linked wallet holds ETH for gas and 100 of `of` (the configured USDT unless told). */
    payer: async (of = token()): Promise<Payer> => {
      const wallet = await node().fundedAccount(of);
      return { ...(await createPlayer(t(), { walletAddress: wallet.address })), wallet };
    },
    submit: (p: TestPlayer | null, orderId: number | string, txHash: unknown) =>
      apiCall(t(), p, 'POST', `/payments/orders/${orderId}/tx/`, { tx_hash: txHash }),
    orderRow: (id: number): Promise<OrderRow> =>
      t().app.db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    /** Mines until a transaction has the confirmations paying needs (automine mined its own block). */
    confirm: () => node().mine(CONFIRMATIONS - 1),
  };
}
