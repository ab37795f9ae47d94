// Card payments through Stripe Checkout (decisions §8): the real `stripe` package against a local
// stand-in of Stripe's API (STRIPE_API_BASE), and webhooks signed with the package's own test-header
// helper. Attacks: forged and stale signatures, replayed and concurrent deliveries, a refund before
// its payment, events for another order or amount, malformed bodies.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { post } from '../../server/services/ledger';
import { providerOrder } from '../../server/services/payments/order-views';
import { bookCheckout, createOrder } from '../../server/services/payments/orders';
import type { PaymentProvider } from '../../server/services/payments/provider';
import { createStripeProvider } from '../../server/services/payments/stripe-provider';
import { balance, createPlayer, grant, ledgerRowsOf } from '../helpers/players';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const WEBHOOK = '/api/v1/payments/webhooks/stripe/';

describe.each(testDialects())('card payments through Stripe on %s', (dialect) => {
  let t: TestApp;
  let stripe: StripeStandIn;
  let provider: PaymentProvider;

  beforeAll(async () => {
    stripe = await startStripeStandIn();
    const env = {
      STRIPE_SECRET_KEY: stripe.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
      STRIPE_API_BASE: stripe.url,
    };
    t = await createTestApp(dialect, env);
    provider = createStripeProvider(
      loadConfig({ NODE_ENV: 'test', DATA_DIR: t.dataDir, APP_URL: 'http://app.test', ...env }),
    )!;
  });
  afterAll(async () => {
    await t.close();
    await stripe.close();
  });

  /** A card order as the top-up writes it (orders.ts), with its Checkout Session created through the provider. */
  async function cardOrder(userId: number, quantity = 1, provider_ = 'stripe') {
    const created = await createOrder(t.app.db, {
      userId,
      itemId: 'gems_50',
      quantity,
      method: 'card',
      provider: provider_,
      walletAddress: null,
    });
    const result = await provider.checkout(providerOrder(created));
    expect(result.status).toBe('pending');
    const booked = await t.app.db.transaction().execute((trx) => bookCheckout(trx, created, result));
    return { id: Number(booked.id), sessionId: result.externalId!, createdAt: Number(created.created_at), quantity };
  }

  const orderRow = (id: number) =>
    t.app.db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  function deliver(
    body: string,
    signature: string | null = stripe.sign(body),
    contentType = 'application/json; charset=utf-8',
  ) {
    return t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: body,
      headers: { 'content-type': contentType, ...(signature === null ? {} : { 'stripe-signature': signature }) },
    });
  }

  const completed = (sessionId: string) => stripe.event('checkout.session.completed', stripe.session(sessionId));

  it('creates one Checkout Session per order: "50 Gems" × quantity at 4.99 USD, back to /miner?order=id', async () => {
    const p = await createPlayer(t);
    const before = stripe.requests.length;
    const order = await cardOrder(p.id, 3);
    const [create] = stripe.requests.slice(before).filter((r) => r.method === 'POST');
    expect(create.path).toBe('/v1/checkout/sessions');
    expect(create.idempotencyKey).toBe(`pxt-order-${order.id}-checkout`);
    expect(create.params).toMatchObject({
      mode: 'payment',
      line_items: [
        { quantity: '3', price_data: { currency: 'usd', unit_amount: '499', product_data: { name: '50 Gems' } } },
      ],
      client_reference_id: String(order.id),
      metadata: { order_id: String(order.id) },
      success_url: `http://app.test/miner?order=${order.id}`,
      cancel_url: `http://app.test/miner?order=${order.id}`,
    });
    const expiresAt = Number(create.params.expires_at);
    const nowS = Date.now() / 1000;
    expect(expiresAt).toBeGreaterThan(nowS + 23 * 3600);
    expect(expiresAt).toBeLessThanOrEqual(nowS + 24 * 3600);
    const session = stripe.session(order.sessionId);
    expect(session.amount_total).toBe(1497);
    expect((await orderRow(order.id)).checkout_url).toBe(session.url);

    // The same order asked again (a retried top-up) gets the same session, not a second one.
    const again = await provider.checkout({ ...providerOrder(await orderRow(order.id)), externalId: null });
    expect(again.externalId).toBe(order.sessionId);
  });

  it('reads the session back: pending, then paid, then refunded; expired unpaid is failed', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    const asked = providerOrder(await orderRow(order.id));
    expect(await provider.check(asked)).toEqual({ status: 'pending', externalId: order.sessionId });
    stripe.pay(order.sessionId);
    expect(await provider.check(asked)).toEqual({ status: 'paid', externalId: order.sessionId });
    stripe.refund(order.sessionId);
    expect(await provider.check(asked)).toEqual({ status: 'refunded', externalId: order.sessionId });
    // A session of another amount than the order's is never "paid" for it.
    expect((await provider.check({ ...asked, amountCents: 998 })).status).toBe('failed');

    const unpaid = await cardOrder(p.id);
    stripe.expire(unpaid.sessionId);
    expect((await provider.check({ ...asked, id: unpaid.id, externalId: unpaid.sessionId })).status).toBe('failed');
  });

  it('pays 50 Gems once for a signed checkout.session.completed, however often and concurrently it is delivered', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    stripe.pay(order.sessionId);
    const body = completed(order.sessionId);

    const first = await deliver(body);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ received: true, outcome: 'paid' });
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect(await orderRow(order.id)).toMatchObject({ status: 'paid', paid_at: expect.anything() });

    // Stripe redelivers (same event), and sends a second event for the same session: sequentially…
    expect((await deliver(body)).json().outcome).toBe('duplicate');
    expect((await deliver(completed(order.sessionId))).json().outcome).toBe('duplicate');
    // …and all at once, on a fresh order.
    const other = await cardOrder(p.id);
    stripe.pay(other.sessionId);
    const bodies = Array.from({ length: 8 }, (_, i) =>
      i % 2
        ? completed(other.sessionId)
        : stripe.event('checkout.session.async_payment_succeeded', stripe.session(other.sessionId)),
    );
    const answers = await Promise.all(bodies.map((b) => deliver(b)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.filter((a) => a.json().outcome === 'paid')).toHaveLength(1);
    expect(await balance(t, p.id, 'gems')).toBe(100);
    expect((await ledgerRowsOf(t, p.id, 'top_up')).map((r) => [r.amount, r.ref])).toEqual([
      [50, `order:${order.id}`],
      [50, `order:${other.id}`],
    ]);
  });

  it('refuses forged, tampered, unsigned and stale deliveries with 400 and changes nothing', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    stripe.pay(order.sessionId);
    const body = completed(order.sessionId);
    const nowS = Math.floor(Date.now() / 1000);

    const attempts = [
      deliver(body, stripe.sign(body, { secret: 'whsec_not_the_endpoint_secret' })), // forged: another secret
      deliver(body.replace('"amount_total": 499', '"amount_total": 4990'), stripe.sign(body)), // tampered after signing
      deliver(body, null), // unsigned
      deliver(body, 't=123,v1=deadbeef'), // made-up header
      deliver(body, stripe.sign(body, { timestamp: nowS - 10 * 60 })), // stale: a real signature, replayed 10 minutes later
      deliver(body, stripe.sign(body, { timestamp: nowS + 10 * 60 })), // from the future
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.stringMatching(/^invalid_signature$/) });
    }
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect((await orderRow(order.id)).status).toBe('pending');
    // The genuine delivery still pays.
    expect((await deliver(body)).json().outcome).toBe('paid');
  });

  it('takes the Gems back on charge.refunded, once, and marks the order refunded', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    stripe.pay(order.sessionId);
    expect((await deliver(completed(order.sessionId))).json().outcome).toBe('paid');
    await grant(t, p.id, 'gems', 7);

    const refund = stripe.event('charge.refunded', stripe.refund(order.sessionId));
    const answers = await Promise.all([
      deliver(refund),
      deliver(refund),
      deliver(stripe.event('charge.refunded', stripe.refund(order.sessionId))),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.json().outcome === 'refunded')).toHaveLength(1);
    expect(await balance(t, p.id, 'gems')).toBe(7);
    expect((await orderRow(order.id)).status).toBe('refunded');
    expect((await ledgerRowsOf(t, p.id, 'top_up_refund')).map((r) => [r.amount, r.ref])).toEqual([
      [-50, `order:${order.id}`],
    ]);

    // The payment event delivered again after the refund pays nothing.
    expect((await deliver(completed(order.sessionId))).json().outcome).toBe('duplicate');
    expect(await balance(t, p.id, 'gems')).toBe(7);
  });

  it('takes back only what is left when the Gems were spent: the balance reaches zero, never below', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    stripe.pay(order.sessionId);
    await deliver(completed(order.sessionId));
    await t.app.db
      .transaction()
      .execute((trx) =>
        post(trx, { userId: p.id, currency: 'gems', amount: -30, reason: 'shop_purchase', ref: 'test' }),
      );
    expect(await balance(t, p.id, 'gems')).toBe(20);

    const res = await deliver(stripe.event('charge.refunded', stripe.refund(order.sessionId)));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().outcome).toBe('refunded');
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect((await ledgerRowsOf(t, p.id, 'top_up_refund')).map((r) => r.amount)).toEqual([-20]);
    expect((await orderRow(order.id)).status).toBe('refunded');
  });

  it('leaves the Gems of a partial refund alone (the operator decides)', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    stripe.pay(order.sessionId);
    await deliver(completed(order.sessionId));
    const res = await deliver(stripe.event('charge.refunded', stripe.refund(order.sessionId, 100)));
    expect(res.json().outcome).toBe('ignored');
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect((await orderRow(order.id)).status).toBe('paid');
  });

  it('never pays an order whose refund arrived before its payment (out of order)', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    const paidSession = stripe.pay(order.sessionId);
    const refunded = stripe.refund(order.sessionId);

    const refund = await deliver(stripe.event('charge.refunded', refunded));
    expect(refund.json().outcome).toBe('refunded');
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded' });
    const late = await deliver(stripe.event('checkout.session.completed', paidSession));
    expect(late.statusCode).toBe(200);
    expect(late.json().outcome).toBe('duplicate');
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toEqual([]);
    expect(await ledgerRowsOf(t, p.id, 'top_up_refund')).toEqual([]);
  });

  it("pays nothing for a session naming an unknown order, another provider's order, another session or another amount", async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    const session = stripe.pay(order.sessionId);
    const testOrder = await cardOrder(p.id, 1, 'test');
    const twoItems = await cardOrder(p.id, 2);
    const twoItemsSession = stripe.pay(twoItems.sessionId);

    const forged = [
      { ...session, client_reference_id: '987654321', metadata: { order_id: '987654321' } }, // no such order
      { ...session, client_reference_id: String(testOrder.id), metadata: { order_id: String(testOrder.id) } }, // not a Stripe order
      { ...session, client_reference_id: String(twoItems.id), metadata: { order_id: String(twoItems.id) } }, // another order's session
      { ...session, client_reference_id: String(order.id), metadata: { order_id: String(twoItems.id) } }, // two orders named
      { ...twoItemsSession, amount_total: 499 }, // the 2-item order paid at the price of one
      { ...session, currency: 'eur' }, // another currency
      { ...session, payment_status: 'unpaid' }, // completed but not paid
      { ...session, client_reference_id: '1e3', metadata: {} }, // not an id
    ];
    for (const object of forged) {
      const res = await deliver(stripe.event('checkout.session.completed', object));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().outcome).toBe('ignored');
    }
    expect(await balance(t, p.id, 'gems')).toBe(0);
    for (const id of [order.id, testOrder.id, twoItems.id]) expect((await orderRow(id)).status).toBe('pending');
    // A refund of a charge Stripe links to no order of ours changes nothing either.
    const stray = await deliver(
      stripe.event('charge.refunded', { ...stripe.refund(order.sessionId), payment_intent: 'pi_test_unknown' }),
    );
    expect(stray.json().outcome).toBe('ignored');
    expect((await orderRow(order.id)).status).toBe('pending');
  });

  it('answers 200 to event types it does not use, and 4xx (never 5xx) to malformed deliveries', async () => {
    const p = await createPlayer(t);
    const order = await cardOrder(p.id);
    stripe.pay(order.sessionId);
    const unused = await deliver(stripe.event('customer.created', { id: 'cus_test_1', object: 'customer' }));
    expect(unused.statusCode).toBe(200);
    expect(unused.json().outcome).toBe('ignored');

    const signedBodies = [
      'not json',
      '',
      '{"type": "checkout.session.completed"}',
      '{"type": "checkout.session.completed", "data": null}',
      '{"type": "checkout.session.completed", "data": {"object": "cs_x"}}',
      JSON.stringify({
        type: 'checkout.session.completed',
        data: { object: { ...stripe.session(order.sessionId), amount_total: '499' } },
      }),
      '{"type": "charge.refunded", "data": {"object": {"id": "ch_1", "object": "charge"}}}',
      JSON.stringify({
        type: 'charge.refunded',
        data: {
          object: { id: 'ch_1', object: 'charge', refunded: true, amount: 1, amount_refunded: 1, payment_intent: 7 },
        },
      }),
      '[1, 2, 3]',
      'null',
      '{"type": {"nested": true}}',
      `{"type": "checkout.session.completed", "data": {"object": ${JSON.stringify({ ...stripe.session(order.sessionId), client_reference_id: String(order.id) + '\\u0000' })}}}`,
    ];
    for (const body of signedBodies) {
      const res = await deliver(body, body === '' ? stripe.sign('') : stripe.sign(body));
      expect(res.statusCode, `${body}: ${res.body}`).toBeLessThan(500);
      if (res.statusCode !== 200)
        expect(res.json()).toMatchObject({ code: expect.any(String), detail: expect.any(String) });
    }
    const odd = [
      await deliver('<xml/>', stripe.sign('<xml/>'), 'application/xml'),
      await deliver('a=b', stripe.sign('a=b'), 'application/x-www-form-urlencoded'),
      await deliver('x'.repeat(70 * 1024), stripe.sign('x'.repeat(70 * 1024))), // over the body limit
      await deliver(completed(order.sessionId), ['a', 'b'] as unknown as string),
      await t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: Buffer.from(completed(order.sessionId)),
        headers: { 'stripe-signature': 't=1,v1=00' },
      }), // no content type
    ];
    expect(odd.map((r) => r.statusCode)).toEqual([400, 400, 413, 400, 400]);
    expect(await balance(t, p.id, 'gems')).toBe(0);
  });
});

describe('Stripe settings', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-stripe-config-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env }).stripe;
  it('points the package at STRIPE_API_BASE, or at Stripe itself when unset, and refuses a base it would misread', () => {
    expect(load({})).toEqual({ secretKey: null, webhookSecret: null, api: null });
    expect(
      load({
        STRIPE_SECRET_KEY: 'sk_test_1',
        STRIPE_WEBHOOK_SECRET: 'whsec_1',
        STRIPE_API_BASE: 'http://127.0.0.1:12111',
      }),
    ).toEqual({
      secretKey: 'sk_test_1',
      webhookSecret: 'whsec_1',
      api: { protocol: 'http', host: '127.0.0.1', port: 12111 },
    });
    expect(load({ STRIPE_API_BASE: 'https://stripe.internal' }).api).toEqual({
      protocol: 'https',
      host: 'stripe.internal',
      port: 443,
    });
    expect(() => load({ STRIPE_API_BASE: 'https://stripe.internal/v1' })).toThrow(/no path/);
    expect(() => load({ STRIPE_API_BASE: 'ftp://stripe.internal' })).toThrow(/http/);
    expect(() => load({ STRIPE_API_BASE: 'stripe.internal' })).toThrow(/URL/);
  });
});

describe.each(testDialects())('the Stripe webhook without Stripe settings on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers 404 and reads nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: '{}',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Card payments are not configured', code: 'not_found' });
  });
});
