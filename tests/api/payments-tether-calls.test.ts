// Tether payments (decisions §8): the edges of POST /payments/orders/{id}/tx/ against a real local
// EVM node (anvil). A player without a linked wallet is asked to link one; malformed and foreign
// calls get a 4xx and record nothing; a paid order takes no other transaction; the chain checks a
// player can cause are limited; and a node on another chain, or none, answers 503 and records
// nothing. The attacks with real transfers are payments-tether.test.ts.
import { type Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TETHER_CHECKS_PER_MINUTE } from '../../server/routes/payments/tether';
import { type AnvilNode, startAnvil, usdtEnv } from '../helpers/anvil';
import { apiCall, balance, createPlayer } from '../helpers/players';
import { CONFIRMATIONS, pendingOrder, PRICE, randomHash, tetherCalls } from '../helpers/tether';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

let node: AnvilNode;
let usdt: Address;
const treasury = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  node = await startAnvil();
  usdt = await node.deployToken();
}, 30_000);
afterAll(() => node?.stop());

const usdtSettings = () => usdtEnv(node, usdt, treasury, CONFIRMATIONS);

describe.each(testDialects())('the tether call on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, usdtSettings());
  });
  afterAll(() => t.close());

  const { payer, submit, orderRow, confirm } = tetherCalls(
    () => t,
    () => node,
    () => usdt,
  );
  const tetherOrder = (userId: number, method: 'tether' | 'card' = 'tether', app = t.app) =>
    pendingOrder(app.db, userId, method);

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
