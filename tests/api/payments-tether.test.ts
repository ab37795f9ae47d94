// Tether payments (decisions §8) against a real local EVM node: anvil with the tests' 6-decimal
// ERC-20 deployed twice (the configured USDT and a wrong token). Each attack sends a real
// transaction and posts its hash: none may pay early or wrongly, and a correct one pays once. The
// call's other edges (bad input, limits, a node that cannot answer) are payments-tether-calls.test.ts.
import { type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recheckTetherOrder } from '../../server/services/payments/usdt-orders';
import { usdtProvider } from '../../server/services/payments/usdt-provider';
import { type AnvilNode, startAnvil, usdtEnv } from '../helpers/anvil';
import { balance, createPlayer, ledgerRowsOf } from '../helpers/players';
import { CONFIRMATIONS, type Payer, pendingOrder, PRICE, tetherCalls } from '../helpers/tether';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

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

describe.each(testDialects())('tether payments against anvil on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, usdtEnv(node, usdt, treasury, CONFIRMATIONS));
  });
  afterAll(() => t.close());

  const { payer, submit, orderRow, confirm } = tetherCalls(
    () => t,
    () => node,
    () => usdt,
  );
  const tetherOrder = (userId: number, method: 'tether' | 'card' = 'tether') => pendingOrder(t.app.db, userId, method);

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
});
