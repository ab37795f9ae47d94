// Tether payments (decisions §8: "a transaction pays one order only, ever") when a re-check of an
// order races the player posting another hash for it. The generic re-check (GET
// /payments/orders/{id}/, the payments worker) reads the order, asks the chain about the hash it
// holds, and books the verdict later; meanwhile POST /payments/orders/{id}/tx/ may have recorded
// another hash, freeing the first for another order. Each race is driven step by step (the second
// call runs while the first is asking the chain), so it is the same interleaving every run, against
// a real local EVM node (anvil). Also: the top-up refuses tether to a player without a linked wallet.
import { type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { recheckOrder } from '../../server/services/payments/orders';
import type { PaymentProvider } from '../../server/services/payments/provider';
import { createPaymentsWorker } from '../../server/workers/payments-worker';
import { type AnvilNode, startAnvil, usdtEnv } from '../helpers/anvil';
import { apiCall, balance, createPlayer, ledgerRowsOf } from '../helpers/players';
import { CONFIRMATIONS, type Payer, pendingOrder, PRICE, randomHash, tetherCalls } from '../helpers/tether';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

let node: AnvilNode;
let usdt: Address;
const treasury = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  node = await startAnvil();
  usdt = await node.deployToken();
}, 30_000);
afterAll(() => node?.stop());

describe.each(testDialects())('tether re-check races on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, usdtEnv(node, usdt, treasury, CONFIRMATIONS));
  });
  afterAll(() => t.close());

  const { payer, submit, orderRow } = tetherCalls(
    () => t,
    () => node,
    () => usdt,
  );
  /** A pending tether order of 50 Gems for 4.99 USD, as the top-up writes it. */
  const tetherOrder = (userId: number) => pendingOrder(t.app.db, userId);
  const usdtProvider = () => t.app.payments.byName('usdt')!;
  const recheckDeps = () => ({ db: t.app.db, dialect, providerFor: (name: string) => t.app.payments.byName(name) });

  /**
   * Order `a` holds a real transfer `h1` still short of its confirmations; the confirmations then
   * arrive. Order `b` of the same player waits for a payment.
   */
  async function transferWaitingOnA() {
    const p = await payer();
    const a = await tetherOrder(p.id);
    const b = await tetherOrder(p.id);
    const h1 = (await node.transfer(usdt, p.wallet, treasury, PRICE)).toLowerCase() as Hash;
    const first = await submit(p, a, h1);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ order: { status: 'pending' }, confirmations: 1, gems: 0 });
    await node.mine(CONFIRMATIONS - 1);
    return { p, a, b, h1 };
  }

  /** While the re-check asks the chain about `h1`, the player records a random hash `h2` on `a`. */
  async function postOtherHash(p: Payer, a: number): Promise<Hash> {
    const h2 = randomHash();
    const res = await submit(p, a, h2);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ order: { status: 'pending', tx_hash: h2 }, confirmations: 0 });
    return h2;
  }

  /**
   * After the race: `a` was not paid by a verdict about a hash it no longer holds, so `h1` pays `b`
   * (and nothing else, ever): 50 Gems in all, through one ledger row.
   */
  async function expectPaidOnce(p: Payer, a: number, b: number, h1: Hash, h2: Hash) {
    expect(await orderRow(a)).toMatchObject({ status: 'pending', tx_hash: h2, paid_at: null });
    expect(await balance(t, p.id, 'gems')).toBe(0);
    const toB = await submit(p, b, h1);
    expect(toB.statusCode, toB.body).toBe(200);
    expect(toB.json()).toMatchObject({ order: { id: b, status: 'paid' }, gems: 50 });
    // The hash that paid b is b's for good: no other order, a included, can take it again.
    const backToA = await submit(p, a, h1);
    expect(backToA.statusCode, backToA.body).toBe(409);
    expect(backToA.json().code).toBe('tx_used');
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect((await ledgerRowsOf(t, p.id, 'top_up')).map((r) => [r.amount, r.unique_key])).toEqual([[50, `order:${b}`]]);
    expect(await orderRow(a)).toMatchObject({ status: 'pending', tx_hash: h2 });
    expect(await orderRow(b)).toMatchObject({ status: 'paid', tx_hash: h1 });
  }

  /** The USDT provider, calling `during` (once) while it is asked about `orderId`, before it answers. */
  function providerWithPause(orderId: number, during: () => Promise<void>): PaymentProvider {
    const real = usdtProvider();
    const check = real.check.bind(real);
    let paused = false;
    return {
      ...real,
      async check(order) {
        if (order.id === orderId && !paused) {
          paused = true;
          await during();
        }
        return check(order);
      },
    };
  }

  it('a re-check of a row read before another hash was recorded does not pay the order (service calls)', async () => {
    const { p, a, b, h1 } = await transferWaitingOnA();
    // A re-check (the page or the worker) has read a's row holding h1 ...
    const stale = await orderRow(a);
    expect(stale.tx_hash).toBe(h1);
    // ... the player records another hash on a ...
    const h2 = await postOtherHash(p, a);
    // ... and the chain's answer about h1 ("paid") arrives.
    const outcome = await recheckOrder(recheckDeps(), stale, Date.now(), 10_000);
    expect(outcome).not.toBe('paid');
    await expectPaidOnce(p, a, b, h1, h2);
  });

  it('GET /payments/orders/{id}/ re-checking a hash replaced during its chain call does not pay the order', async () => {
    const { p, a, b, h1 } = await transferWaitingOnA();
    let h2: Hash | null = null;
    const paused = providerWithPause(a, async () => {
      h2 = await postOtherHash(p, a);
    });
    const spy = vi.spyOn(usdtProvider(), 'check').mockImplementation((order) => paused.check(order));
    let viewed;
    try {
      viewed = await apiCall(t, p, 'GET', `/payments/orders/${a}/`);
    } finally {
      spy.mockRestore();
    }
    expect(h2).not.toBeNull();
    expect(viewed.statusCode, viewed.body).toBe(200);
    expect(viewed.json()).toMatchObject({ id: a, status: 'pending', tx_hash: h2 });
    await expectPaidOnce(p, a, b, h1, h2!);
  });

  it("the payments worker's re-check of a hash replaced during its chain call does not pay the order", async () => {
    const { p, a, b, h1 } = await transferWaitingOnA();
    let h2: Hash | null = null;
    const paused = providerWithPause(a, async () => {
      h2 = await postOtherHash(p, a);
    });
    const worker = createPaymentsWorker({
      db: t.app.db,
      dialect,
      registry: { byName: (name) => (name === 'usdt' ? paused : t.app.payments.byName(name)) },
    });
    await t.app.db.updateTable('payment_orders').set({ next_check_at: 0 }).where('id', '=', a).execute();
    const result = await worker.tick(Date.now());
    expect(h2).not.toBeNull();
    expect(result.paid).toBe(0);
    await expectPaidOnce(p, a, b, h1, h2!);
  });

  it('a re-check whose order still holds the verified hash pays it, once, and the hash stays with it', async () => {
    const { p, a, b, h1 } = await transferWaitingOnA();
    expect(await recheckOrder(recheckDeps(), await orderRow(a), Date.now(), 10_000)).toBe('paid');
    const view = await apiCall(t, p, 'GET', `/payments/orders/${a}/`);
    expect(view.json()).toMatchObject({ id: a, status: 'paid', tx_hash: h1 });
    const toB = await submit(p, b, h1);
    expect(toB.statusCode, toB.body).toBe(409);
    expect(toB.json().code).toBe('tx_used');
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect((await ledgerRowsOf(t, p.id, 'top_up')).map((r) => r.unique_key)).toEqual([`order:${a}`]);
    expect(await orderRow(b)).toMatchObject({ status: 'pending', tx_hash: null });
  });

  it("pays from the wallet linked now: the worker's re-check asks about the sender the hash was accepted for", async () => {
    const p = await payer();
    const a = await tetherOrder(p.id);
    // The player links another wallet while the order is open, and pays from it.
    const other = await node.fundedAccount(usdt);
    await t.app.db.updateTable('users').set({ wallet_address: other.address }).where('id', '=', p.id).execute();
    const h = (await node.transfer(usdt, other, treasury, PRICE)).toLowerCase() as Hash;
    const posted = await submit(p, a, h);
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toMatchObject({ order: { status: 'pending', tx_hash: h }, confirmations: 1 });
    // Before its confirmations the re-check keeps the hash (it was refused for the order's first wallet).
    expect(await recheckOrder(recheckDeps(), await orderRow(a), Date.now(), 10_000)).toBe('pending');
    expect(await orderRow(a)).toMatchObject({ tx_hash: h });
    await node.mine(CONFIRMATIONS - 1);
    // The worker's next turn, past the gap between two checks of one order.
    expect(await recheckOrder(recheckDeps(), await orderRow(a), Date.now() + 20_000, 10_000)).toBe('paid');
    expect(await balance(t, p.id, 'gems')).toBe(50);
  });

  it('a re-check refusing the hash it read does not forget the one recorded meanwhile', async () => {
    const p = await payer();
    const a = await tetherOrder(p.id);
    // A transaction the node had not mined when it was posted (so it was recorded), which then reverts.
    await node.setAutomine(false);
    let reverted: Hash;
    try {
      reverted = await node.transferThenRevert(usdt, p.wallet, treasury, PRICE);
      expect((await submit(p, a, reverted)).json()).toMatchObject({ order: { status: 'pending' }, confirmations: 0 });
    } finally {
      await node.setAutomine(true);
    }
    await node.mine(1);
    // A re-check reads a's row holding the reverted hash; meanwhile the player posts the real payment.
    const stale = await orderRow(a);
    expect(stale.tx_hash).toBe(reverted.toLowerCase());
    const h1 = (await node.transfer(usdt, p.wallet, treasury, PRICE)).toLowerCase() as Hash;
    expect((await submit(p, a, h1)).json()).toMatchObject({ order: { status: 'pending', tx_hash: h1 } });
    // The chain refuses the reverted hash: the order forgets that one, not the payment recorded since.
    expect(await recheckOrder(recheckDeps(), stale, Date.now(), 10_000)).toBe('pending');
    expect(await orderRow(a)).toMatchObject({ status: 'pending', tx_hash: h1, external_id: h1 });
    await node.mine(CONFIRMATIONS - 1);
    expect((await submit(p, a, h1)).json()).toMatchObject({ order: { status: 'paid', tx_hash: h1 }, gems: 50 });
  });

  it('refuses a tether top-up from a player without a linked wallet, as the transaction route does', async () => {
    const p = await createPlayer(t);
    const res = await apiCall(t, p, 'POST', '/payments/top-up/', { item_id: 'gems_50', method: 'tether' });
    expect(res.statusCode, res.body).toBe(400);
    // The provider's refusal fails the order it was asked about: nothing stays open, nothing is paid.
    const orders = await t.app.db
      .selectFrom('payment_orders')
      .select(['status', 'failure'])
      .where('user_id', '=', p.id)
      .execute();
    expect(orders).toEqual([{ status: 'failed', failure: 'wallet_required' }]);
    // The same code and text the transaction route answers for an order without a wallet.
    const walletless = await tetherOrder(p.id);
    const viaTx = await submit(p, walletless, randomHash());
    expect(viaTx.statusCode, viaTx.body).toBe(400);
    expect(viaTx.json()).toMatchObject({ code: 'wallet_required' });
    expect(res.json()).toEqual(viaTx.json());

    // With a linked wallet the same call makes the order and says what to pay.
    const q = await payer();
    const ok = await apiCall(t, q, 'POST', '/payments/top-up/', { item_id: 'gems_50', method: 'tether' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      order: { status: 'pending', method: 'tether' },
      pay_to: { amount: PRICE.toString() },
    });
  });
});
