// Tether payments (decisions §8) against a real local EVM node: anvil with the tests' 6-decimal
// ERC-20 deployed twice (the configured USDT and a wrong token). Each attack sends a real
// transaction and posts its hash: none may pay early or wrongly, and a correct one pays once.
import { randomBytes } from 'node:crypto';
import { type Address, type Hash } from 'viem';
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import type { PaymentMethod } from '@shared/constants';
import type { Db } from '../../server/db/schema';
import { bookCheckout, createOrder } from '../../server/services/payments/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TETHER_CHECKS_PER_MINUTE } from '../../server/routes/payments/tether';
import { recheckTetherOrder } from '../../server/services/payments/usdt-orders';
import { usdtProvider } from '../../server/services/payments/usdt-provider';
import { type AnvilNode, startAnvil, usdtEnv } from '../helpers/anvil';
import { apiCall, balance, createPlayer, ledgerRowsOf, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const PRICE = 4_990_000n; // 4.99 USDT in the token's smallest unit
const CONFIRMATIONS = 3;

let node: AnvilNode;
let usdt: Address;
let otherToken: Address;
const treasuryAccount = privateKeyToAccount(generatePrivateKey());
const treasury = treasuryAccount.address;

beforeAll(async () => {
  node = await startAnvil();
  usdt = await node.deployToken();
  otherToken = await node.deployToken();
}, 30_000);
afterAll(() => node?.stop());

const usdtSettings = () => usdtEnv(node, usdt, treasury, CONFIRMATIONS);

const randomHash = () => `0x${randomBytes(32).toString('hex')}` as Hash;

/** A pending tether (or other) order of 50 Gems for 4.99 USD, written as the top-up writes it (orders.ts). */
async function pendingOrder(db: Db, userId: number, method: PaymentMethod): Promise<number> {
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

describe.each(testDialects())('tether payments against anvil on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, usdtSettings());
  });
  afterAll(() => t.close());

  interface Payer extends TestPlayer {
    wallet: PrivateKeyAccount;
  }
  /** A player whose linked wallet holds ETH for gas and 100 USDT. */
  const payer = async (token = usdt): Promise<Payer> => {
    const wallet = await node.fundedAccount(token);
    return { ...(await createPlayer(t, { walletAddress: wallet.address })), wallet };
  };
  /** A pending tether order of 50 Gems for 4.99 USD, as the top-up would write it. */
  const tetherOrder = (userId: number, method: PaymentMethod = 'tether', app = t.app): Promise<number> =>
    pendingOrder(app.db, userId, method);
  const submit = (p: TestPlayer | null, orderId: number | string, txHash: unknown) =>
    apiCall(t, p, 'POST', `/payments/orders/${orderId}/tx/`, { tx_hash: txHash });
  const orderRow = (id: number) =>
    t.app.db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  /** Mines until the transaction has the confirmations paying needs (automine mined its own block). */
  const confirm = () => node.mine(CONFIRMATIONS - 1);

  /** The attack's transaction is refused with `code`, the order stays pending without it, and no Gems moved. */
  const expectRefused = async (p: Payer, orderId: number, txHash: Hash, code: string) => {
    const res = await submit(p, orderId, txHash);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code, detail: expect.any(String) });
    const order = await orderRow(orderId);
    expect(order.status).toBe('pending');
    expect(order.tx_hash).toBeNull();
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toEqual([]);
  };

  it('pays a correct transfer exactly once, also when the hash is posted in parallel and again', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE);
    await confirm();

    const answers = await Promise.all(Array.from({ length: 4 }, () => submit(p, orderId, hash)));
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        order: { id: orderId, status: 'paid', gems: 50, method: 'tether' },
        tx_hash: hash,
        required_confirmations: CONFIRMATIONS,
        gems: 50,
      });
    }
    const again = await submit(p, orderId, hash.toUpperCase().replace('0X', '0x'));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ order: { status: 'paid' }, gems: 50 });

    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect((await ledgerRowsOf(t, p.id, 'top_up')).map((r) => [r.amount, r.unique_key])).toEqual([
      [50, `order:${orderId}`],
    ]);
    expect(await orderRow(orderId)).toMatchObject({
      status: 'paid',
      tx_hash: hash.toLowerCase(),
      external_id: hash.toLowerCase(),
    });
    expect(await node.balanceOf(usdt, treasury)).toBeGreaterThanOrEqual(PRICE);
  });

  it('refuses the same transaction for a second order, also when both are posted at once', async () => {
    const p = await payer();
    const first = await tetherOrder(p.id);
    const second = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE);
    await confirm();
    const [a, b] = await Promise.all([submit(p, first, hash), submit(p, second, hash)]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses, `${a.body} ${b.body}`).toEqual([200, 409]);
    expect([a, b].find((r) => r.statusCode === 409)!.json().code).toBe('tx_used');

    const paidOrder = a.statusCode === 200 ? first : second;
    const otherOrder = paidOrder === first ? second : first;
    // Again, after the race: still refused.
    const later = await submit(p, otherOrder, hash);
    expect(later.statusCode).toBe(409);
    expect(later.json().code).toBe('tx_used');
    expect(await orderRow(otherOrder)).toMatchObject({ status: 'pending', tx_hash: null });
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toHaveLength(1);
  });

  it('refuses a transfer of another token to the treasury', async () => {
    const p = await payer(otherToken);
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(otherToken, p.wallet, treasury, PRICE);
    await confirm();
    await expectRefused(p, orderId, hash, 'tx_wrong_token');
  });

  it('refuses a transfer of the token to another address', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, p.wallet, privateKeyToAccount(generatePrivateKey()).address, PRICE);
    await confirm();
    await expectRefused(p, orderId, hash, 'tx_wrong_recipient');
  });

  it('refuses a transfer of less than the order costs', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE - 1n);
    await confirm();
    await expectRefused(p, orderId, hash, 'tx_amount_too_low');
  });

  it("refuses another wallet's payment, which its sender can still use for their own order", async () => {
    const thief = await payer();
    const owner = await payer();
    const thiefOrder = await tetherOrder(thief.id);
    const ownerOrder = await tetherOrder(owner.id);
    const hash = await node.transfer(usdt, owner.wallet, treasury, PRICE);
    await confirm();
    await expectRefused(thief, thiefOrder, hash, 'tx_wrong_sender');

    const res = await submit(owner, ownerOrder, hash);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ order: { status: 'paid' }, gems: 50 });
  });

  it('refuses the treasury paying itself, for an account linked to its wallet', async () => {
    await node.test.setBalance({ address: treasury, value: 10n ** 18n });
    await node.mint(usdt, treasury, PRICE);
    const p = { ...(await createPlayer(t, { walletAddress: treasury })), wallet: treasuryAccount };
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, treasuryAccount, treasury, PRICE);
    await confirm();
    await expectRefused(p, orderId, hash, 'tx_wrong_sender');
  });

  it("frees a hash parked on another player's pending order (posted before the node saw it) for its sender", async () => {
    const thief = await payer();
    const owner = await payer();
    const thiefOrder = await tetherOrder(thief.id);
    const ownerOrder = await tetherOrder(owner.id);
    const hash = await node.transfer(usdt, owner.wallet, treasury, PRICE);
    await confirm();
    // What the thief's post leaves when this node has not seen the transaction yet: pending, hash recorded.
    await t.app.db
      .updateTable('payment_orders')
      .set({ tx_hash: hash.toLowerCase(), external_id: hash.toLowerCase() })
      .where('id', '=', thiefOrder)
      .execute();

    const res = await submit(owner, ownerOrder, hash);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ order: { status: 'paid' }, gems: 50 });
    expect(await orderRow(thiefOrder)).toMatchObject({ status: 'pending', tx_hash: null });
    expect(await balance(t, thief.id, 'gems')).toBe(0);
  });

  it('refuses a reverted transaction', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = await node.transferThenRevert(usdt, p.wallet, treasury, PRICE);
    await confirm();
    expect((await node.client.getTransactionReceipt({ hash })).status).toBe('reverted');
    await expectRefused(p, orderId, hash, 'tx_reverted');
  });

  it('leaves a payment without enough confirmations pending, with its count, and pays it once they are there', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE);

    for (let confirmations = 1; confirmations < CONFIRMATIONS; confirmations++) {
      const res = await submit(p, orderId, hash);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        order: { status: 'pending' },
        confirmations,
        required_confirmations: CONFIRMATIONS,
        gems: 0,
      });
      expect(await balance(t, p.id, 'gems')).toBe(0);
      await node.mine(1);
    }
    const paid = await submit(p, orderId, hash);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ order: { status: 'paid' }, confirmations: CONFIRMATIONS, gems: 50 });
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toHaveLength(1);
  });

  it("pays a pending order on the worker's re-check once confirmed, and only once", async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE);
    expect((await submit(p, orderId, hash)).json()).toMatchObject({ order: { status: 'pending' }, confirmations: 1 });

    const provider = usdtProvider(t.app.config.usdt!);
    expect(await recheckTetherOrder(t.app.db, provider, await orderRow(orderId), p.wallet.address)).toMatchObject({
      status: 'pending',
      confirmations: 1,
    });
    expect(await balance(t, p.id, 'gems')).toBe(0);
    await confirm();
    const row = await orderRow(orderId);
    await Promise.all([
      recheckTetherOrder(t.app.db, provider, row, p.wallet.address),
      recheckTetherOrder(t.app.db, provider, row, p.wallet.address),
      submit(p, orderId, hash),
    ]);
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toHaveLength(1);
    expect(
      await provider.check({
        id: orderId,
        userId: p.id,
        gems: 50,
        amountCents: 499,
        currency: 'USD',
        quantity: 1,
        externalId: hash,
        walletAddress: p.wallet.address,
        createdAt: 0,
        charge: null,
        txHash: hash,
        expiresAt: 0,
      }),
    ).toMatchObject({ status: 'paid', confirmations: CONFIRMATIONS });
  });

  it('keeps a transaction not mined yet pending, refuses it to anyone but its sender, and pays it once mined and confirmed', async () => {
    const owner = await payer();
    const thief = await payer();
    const ownerOrder = await tetherOrder(owner.id);
    const thiefOrder = await tetherOrder(thief.id);
    await node.setAutomine(false);
    let hash: Hash;
    try {
      hash = await node.transfer(usdt, owner.wallet, treasury, PRICE);
      await expectRefused(thief, thiefOrder, hash, 'tx_wrong_sender');
      const waiting = await submit(owner, ownerOrder, hash);
      expect(waiting.statusCode, waiting.body).toBe(200);
      expect(waiting.json()).toMatchObject({ order: { status: 'pending' }, confirmations: 0, gems: 0 });
      expect(await orderRow(ownerOrder)).toMatchObject({ status: 'pending', tx_hash: hash.toLowerCase() });
    } finally {
      await node.setAutomine(true);
    }
    await node.mine(CONFIRMATIONS);
    const paid = await submit(owner, ownerOrder, hash);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({ order: { status: 'paid' }, gems: 50 });
  });

  it('frees a recorded hash that then reverts, so the order can still be paid', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    await node.setAutomine(false);
    let reverted: Hash;
    try {
      reverted = await node.transferThenRevert(usdt, p.wallet, treasury, PRICE);
      expect((await submit(p, orderId, reverted)).json()).toMatchObject({
        order: { status: 'pending' },
        confirmations: 0,
      });
      expect((await orderRow(orderId)).tx_hash).toBe(reverted.toLowerCase());
    } finally {
      await node.setAutomine(true);
    }
    await node.mine(CONFIRMATIONS);
    await expectRefused(p, orderId, reverted, 'tx_reverted');

    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE);
    await confirm();
    expect((await submit(p, orderId, hash)).json()).toMatchObject({ order: { status: 'paid' }, gems: 50 });
  });

  it('asks a player without a linked wallet to link one', async () => {
    const p = await createPlayer(t);
    const orderId = await tetherOrder(p.id);
    const res = await submit(p, orderId, randomHash());
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('wallet_required');
    expect(await orderRow(orderId)).toMatchObject({ status: 'pending', tx_hash: null });
  });

  it('answers malformed and foreign calls with a 4xx, never a 5xx, and records nothing', async () => {
    const p = await payer();
    const other = await payer();
    const orderId = await tetherOrder(p.id);
    const otherOrder = await tetherOrder(other.id);
    const cardOrder = await tetherOrder(p.id, 'card');
    const hash = randomHash();

    for (const bad of [
      '',
      '0x',
      '0x1234',
      hash.slice(2),
      `${hash}00`,
      `0x${'g'.repeat(64)}`,
      ` ${hash}`,
      12,
      null,
      ['0x'],
      { hash },
    ]) {
      const res = await submit(p, orderId, bad);
      expect(res.statusCode, `${JSON.stringify(bad)}: ${res.body}`).toBe(400);
      expect(res.json().code).toBe('invalid');
    }
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999', '%00']) {
      const res = await submit(p, id, hash);
      expect(res.statusCode, `${id}: ${res.body}`).toBe(400);
    }
    const raw = await apiCall(t, p, 'POST', `/payments/orders/${orderId}/tx/`, '{"tx_hash": ');
    expect(raw.statusCode).toBe(400);
    expect((await apiCall(t, p, 'POST', `/payments/orders/${orderId}/tx/`)).statusCode).toBe(400);
    expect((await submit(null, orderId, hash)).statusCode).toBe(401);
    // Another player's order is not found, not refused: it does not say it exists.
    expect((await submit(p, otherOrder, hash)).statusCode).toBe(404);
    expect((await submit(p, 987654321, hash)).statusCode).toBe(404);
    const card = await submit(p, cardOrder, hash);
    expect(card.statusCode).toBe(400);
    expect(card.json().code).toBe('not_tether_order');

    for (const id of [orderId, otherOrder, cardOrder])
      expect(await orderRow(id)).toMatchObject({ status: 'pending', tx_hash: null });
  });

  it('refuses a paid order another transaction, and an unknown hash only waits', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const unknown = randomHash();
    const waiting = await submit(p, orderId, unknown);
    expect(waiting.statusCode, waiting.body).toBe(200);
    expect(waiting.json()).toMatchObject({ order: { status: 'pending' }, confirmations: 0, gems: 0 });

    // The real payment replaces the hash nobody sent (a wallet's sped-up transaction gets a new hash too).
    const hash = await node.transfer(usdt, p.wallet, treasury, PRICE);
    await confirm();
    expect((await submit(p, orderId, hash)).json()).toMatchObject({ order: { status: 'paid' }, gems: 50 });
    const second = await node.transfer(usdt, p.wallet, treasury, PRICE);
    await confirm();
    const res = await submit(p, orderId, second);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('order_not_pending');
    expect(await balance(t, p.id, 'gems')).toBe(50);
  });

  it('limits the chain checks a player can cause to TETHER_CHECKS_PER_MINUTE', async () => {
    const p = await payer();
    const orderId = await tetherOrder(p.id);
    const hash = randomHash();
    for (let i = 0; i < TETHER_CHECKS_PER_MINUTE; i++) expect((await submit(p, orderId, hash)).statusCode).toBe(200);
    const res = await submit(p, orderId, hash);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('throttled');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another player is not affected.
    const other = await payer();
    expect((await submit(other, await tetherOrder(other.id), randomHash())).statusCode).toBe(200);
  });

  // Two more apps boot here: a generous limit, since a loaded machine takes seconds for that.
  it(
    'answers 503 chain_unavailable, recording nothing, when the node serves another chain or cannot be reached',
    { timeout: 60_000 },
    async () => {
      for (const env of [{ USDT_CHAIN_ID: '1' }, { USDT_RPC_URL: 'http://127.0.0.1:9/' }] as Record<string, string>[]) {
        const other = await createTestApp(dialect, { ...usdtSettings(), ...env });
        try {
          const wallet = await node.fundedAccount(usdt);
          const p = await createPlayer(other, { walletAddress: wallet.address });
          const row = { id: await tetherOrder(p.id, 'tether', other.app) };
          const hash = await node.transfer(usdt, wallet, treasury, PRICE);
          await confirm();
          const res = await apiCall(other, p, 'POST', `/payments/orders/${row.id}/tx/`, { tx_hash: hash });
          expect(res.statusCode, res.body).toBe(503);
          expect(res.json().code).toBe('chain_unavailable');
          const order = await other.app.db
            .selectFrom('payment_orders')
            .selectAll()
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow();
          expect(order).toMatchObject({ status: 'pending', tx_hash: null });
          expect(await balance(other, p.id, 'gems')).toBe(0);
        } finally {
          await other.close();
        }
      }
    },
  );
});
