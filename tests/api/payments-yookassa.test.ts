// sbp through YooKassa (decisions §8) against the local stand-in of its API: a notification is only
// a hint, and the payment is read back with the shop's key. Attacks: notifications saying
// "succeeded" for a payment the API calls pending or canceled, for another amount or currency, for
// another order's payment, repeated and concurrent deliveries, and malformed bodies.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recheckOrder } from '../../server/services/payments/orders';
import { createPaymentsWorker } from '../../server/workers/payments-worker';
import { apiCall, balance, createPlayer, ledgerRowsOf, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';
import { startYookassaStandIn, type StandInPayment, type YookassaStandIn } from '../helpers/yookassa-stand-in';

const WEBHOOK = '/api/v1/payments/webhooks/yookassa/';

describe.each(testDialects())('sbp through YooKassa on %s', (dialect) => {
  let t: TestApp;
  let kassa: YookassaStandIn;
  beforeAll(async () => {
    kassa = await startYookassaStandIn();
    t = await createTestApp(dialect, { PAYMENTS_PROVIDER: '', ...kassa.env });
  });
  afterAll(async () => {
    await t.close();
    await kassa.close();
  });

  /** As if the gap between two read-backs of the order had passed (instead of sleeping through it). */
  const gapPassed = (id: number) =>
    t.app.db.updateTable('payment_orders').set({ checked_at: null }).where('id', '=', id).execute();
  const orderRow = (id: number) =>
    t.app.db.selectFrom('payment_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function sbpOrder(p: TestPlayer, quantity = 1): Promise<{ orderId: number; payment: StandInPayment }> {
    const res = await apiCall(t, p, 'POST', '/payments/top-up/', { item_id: 'gems_50', method: 'sbp', quantity });
    expect(res.statusCode, res.body).toBe(200);
    const orderId = res.json().order.id as number;
    return { orderId, payment: kassa.paymentOf(orderId) };
  }

  /** What YooKassa would send (or what an attacker claims): the payment object as the body says it. */
  const notify = (payment: Partial<StandInPayment> & { id: string }, event = 'payment.succeeded') =>
    t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: { type: 'notification', event, object: { ...payment, status: 'succeeded', paid: true } },
    });

  it('pays 50 Gems × quantity exactly once for a succeeded payment, under repeated and concurrent notifications', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p, 2);
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    const answers = await Promise.all(Array.from({ length: 8 }, () => notify(payment)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.filter((a) => a.json().status === 'paid')).toHaveLength(1);
    for (let i = 0; i < 3; i++) expect((await notify(payment)).json()).toEqual({ status: 'unchanged' });
    expect(await balance(t, p.id, 'gems')).toBe(100);
    expect((await ledgerRowsOf(t, p.id, 'top_up')).map((r) => r.unique_key)).toEqual([`order:${orderId}`]);
    expect((await apiCall(t, p, 'GET', `/payments/orders/${orderId}/`)).json()).toMatchObject({
      status: 'paid',
      gems: 100,
    });
  });

  it("pays once when notifications and two workers' passes meet", async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p, 3);
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    const due = Number((await orderRow(orderId)).next_check_at);
    await Promise.all([notify(payment), worker().tick(due), notify(payment), worker().tick(due), notify(payment)]);
    expect((await orderRow(orderId)).status).toBe('paid');
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toHaveLength(1);
    expect(await balance(t, p.id, 'gems')).toBe(150);
  });

  it('pays nothing when the API says the payment is not succeeded, whatever the notification says', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p);
    // The notification claims success; the API still says pending.
    expect((await notify(payment)).json()).toEqual({ status: 'pending' });
    kassa.set(payment.id, { status: 'waiting_for_capture' });
    await gapPassed(orderId);
    expect((await notify(payment)).json()).toEqual({ status: 'pending' });
    expect((await orderRow(orderId)).status).toBe('pending');
    kassa.set(payment.id, {
      status: 'canceled',
      cancellation_details: { party: 'yoo_money', reason: 'expired_on_confirmation' },
    });
    await gapPassed(orderId);
    expect((await notify(payment, 'payment.canceled')).json()).toEqual({ status: 'failed' });
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect((await apiCall(t, p, 'GET', `/payments/orders/${orderId}/`)).json()).toMatchObject({
      status: 'failed',
      failure: 'canceled:expired_on_confirmation',
    });
  });

  it('pays nothing for a succeeded payment of another amount or currency', async () => {
    const p = await createPlayer(t);
    const cheap = await sbpOrder(p);
    expect(cheap.payment.amount).toEqual({ value: '449.10', currency: 'RUB' });
    kassa.set(cheap.payment.id, { status: 'succeeded', paid: true, amount: { value: '1.00', currency: 'RUB' } });
    // The notification even states the right amount: only the API's word counts.
    expect((await notify({ ...cheap.payment, amount: { value: '449.10', currency: 'RUB' } })).json()).toEqual({
      status: 'failed',
    });

    const dollars = await sbpOrder(p);
    kassa.set(dollars.payment.id, { status: 'succeeded', paid: true, amount: { value: '449.10', currency: 'USD' } });
    expect((await notify(dollars.payment)).json()).toEqual({ status: 'failed' });

    const more = await sbpOrder(p);
    kassa.set(more.payment.id, { status: 'succeeded', paid: true, amount: { value: '449.11', currency: 'RUB' } });
    expect((await notify(more.payment)).json()).toEqual({ status: 'failed' });

    expect(await balance(t, p.id, 'gems')).toBe(0);
    for (const o of [cheap, dollars, more])
      expect(await orderRow(o.orderId)).toMatchObject({ status: 'failed', failure: 'amount_mismatch' });
  });

  it("pays nothing for another order's payment", async () => {
    const victim = await createPlayer(t);
    const attacker = await createPlayer(t);
    const theirs = await sbpOrder(attacker);
    const mine = await sbpOrder(victim);
    // A real succeeded payment, renamed in the notification as the other order's.
    kassa.set(theirs.payment.id, { status: 'succeeded', paid: true });
    const claim = await notify({ ...theirs.payment, metadata: { order_id: String(mine.orderId) } });
    expect(claim.statusCode).toBe(200);
    // Only the order that payment belongs to is paid.
    expect((await orderRow(mine.orderId)).status).toBe('pending');
    expect((await orderRow(theirs.orderId)).status).toBe('paid');
    expect(await balance(t, victim.id, 'gems')).toBe(0);
    expect(await balance(t, attacker.id, 'gems')).toBe(50);

    // A payment of ours whose metadata names another order (never made by this server) pays nothing.
    const odd = await sbpOrder(attacker);
    kassa.set(odd.payment.id, { status: 'succeeded', paid: true, metadata: { order_id: String(mine.orderId) } });
    expect((await notify(odd.payment)).json()).toEqual({ status: 'failed' });
    expect(await orderRow(odd.orderId)).toMatchObject({ status: 'failed', failure: 'payment_of_another_order' });
    expect((await orderRow(mine.orderId)).status).toBe('pending');
    expect(await balance(t, attacker.id, 'gems')).toBe(50);
  });

  it('ignores payments no order made, without asking YooKassa', async () => {
    const before = kassa.requests.length;
    const res = await notify({
      id: '2f1d1e6a-000f-5000-9000-1c5ddf7a7a2b',
      amount: { value: '449.10', currency: 'RUB' },
      metadata: { order_id: '1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ignored' });
    expect(kassa.requests.length).toBe(before);
  });

  it('answers 503 while YooKassa cannot be asked (so it delivers again), and pays on the next delivery', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p);
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    kassa.down = true;
    try {
      const res = await notify(payment);
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('payment_provider_unavailable');
    } finally {
      kassa.down = false;
    }
    expect((await orderRow(orderId)).status).toBe('pending');
    await gapPassed(orderId);
    expect((await notify(payment)).json()).toEqual({ status: 'paid' });
    expect(await balance(t, p.id, 'gems')).toBe(50);
  });

  it("shows the outcome to a player back from YooKassa's page before any notification", async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p);
    // The first view checks; a second one within 10 s does not ask again.
    expect((await apiCall(t, p, 'GET', `/payments/orders/${orderId}/`)).json()).toMatchObject({ status: 'pending' });
    const asked = kassa.requests.length;
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    expect((await apiCall(t, p, 'GET', `/payments/orders/${orderId}/`)).json()).toMatchObject({ status: 'pending' });
    expect(kassa.requests.length).toBe(asked);
    await gapPassed(orderId);
    expect((await apiCall(t, p, 'GET', `/payments/orders/${orderId}/`)).json()).toMatchObject({ status: 'paid' });
    expect(await balance(t, p.id, 'gems')).toBe(50);
  });

  it('takes the Gems back when YooKassa reports the payment fully refunded', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p);
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    expect((await notify(payment)).json()).toEqual({ status: 'paid' });
    expect(await balance(t, p.id, 'gems')).toBe(50);
    kassa.set(payment.id, { refunded_amount: { value: '449.10', currency: 'RUB' } });
    await gapPassed(orderId);
    const refund = await t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: {
        type: 'notification',
        event: 'refund.succeeded',
        object: { id: 'refund-1', payment_id: payment.id, status: 'succeeded' },
      },
    });
    expect(refund.json()).toEqual({ status: 'refunded' });
    expect(await balance(t, p.id, 'gems')).toBe(0);
    expect((await orderRow(orderId)).status).toBe('refunded');
    await gapPassed(orderId);
    // A late "succeeded" never pays a refunded order again.
    expect((await notify(payment)).json()).toEqual({ status: 'unchanged' });
    expect(await balance(t, p.id, 'gems')).toBe(0);
  });

  // A notification within the gap after a check is turned away (no flood of read-backs). For a
  // pending order the worker's next look moved forward; for a settled one nothing ever looked again:
  // a refund, or a late payment of an expired order, notified just after a check was lost.
  const worker = () => createPaymentsWorker({ db: t.app.db, dialect, registry: t.app.payments });
  const refundNotice = (payment: StandInPayment) =>
    t.app.inject({
      method: 'POST',
      url: WEBHOOK,
      payload: {
        type: 'notification',
        event: 'refund.succeeded',
        object: { id: `refund-${payment.id}`, payment_id: payment.id, status: 'succeeded' },
      },
    });

  /** A paid order whose refund is notified within the gap after the check that paid it: turned away. */
  async function refundNotifiedWithinGap(p: TestPlayer) {
    const { orderId, payment } = await sbpOrder(p);
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    expect((await notify(payment)).json()).toEqual({ status: 'paid' });
    kassa.set(payment.id, { refunded_amount: { value: '449.10', currency: 'RUB' } });
    expect((await refundNotice(payment)).json()).toEqual({ status: 'unchanged' });
    return { orderId, payment };
  }

  it('a refund notified just after the check that paid the order is read back once the gap has passed', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await refundNotifiedWithinGap(p);
    expect(await balance(t, p.id, 'gems')).toBe(50);

    await worker().tick(Date.now() + 2_001);
    expect((await orderRow(orderId)).status).toBe('refunded');
    expect(await balance(t, p.id, 'gems')).toBe(0);
    // One look: later passes leave the order alone.
    const askedAbout = () => kassa.requests.filter((r) => r.includes(payment.id)).length;
    const asked = askedAbout();
    await worker().tick(Date.now() + 60 * 60_000);
    expect(askedAbout()).toBe(asked);
    expect((await orderRow(orderId)).next_check_at).toBeNull();
  });

  it('a late payment notified just after the check that expired the order is read back and paid once', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p);
    const expiry = Number((await orderRow(orderId)).expires_at);
    expect((await worker().tick(expiry)).expired).toBeGreaterThanOrEqual(1);
    expect((await orderRow(orderId)).status).toBe('expired');
    // Paid at the last moment: the notification arrives within the gap after the expiring check.
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    // (The pass above ran at the expiry, a day ahead of this clock: its check is put at "now".)
    await t.app.db.updateTable('payment_orders').set({ checked_at: Date.now() }).where('id', '=', orderId).execute();
    expect((await notify(payment)).json()).toEqual({ status: 'unchanged' });
    expect(await balance(t, p.id, 'gems')).toBe(0);

    await Promise.all([worker().tick(Date.now() + 2_001), worker().tick(Date.now() + 2_001)]);
    expect((await orderRow(orderId)).status).toBe('paid');
    expect(await balance(t, p.id, 'gems')).toBe(50);
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toHaveLength(1);
    expect((await orderRow(orderId)).next_check_at).toBeNull();
  });

  it('a second pass turned away by the check that paid a late payment asks for no further look', async () => {
    const p = await createPlayer(t);
    const { orderId, payment } = await sbpOrder(p);
    const expiry = Number((await orderRow(orderId)).expires_at);
    await worker().tick(expiry);
    kassa.set(payment.id, { status: 'succeeded', paid: true });
    await t.app.db.updateTable('payment_orders').set({ checked_at: Date.now() }).where('id', '=', orderId).execute();
    expect((await notify(payment)).json()).toEqual({ status: 'unchanged' });
    // The order as another process's pass read it, due, before this pass claimed, asked and paid.
    const seenByOther = await orderRow(orderId);
    const at = Date.now() + 2_001;
    expect((await worker().tick(at)).paid).toBe(1);
    const asked = kassa.requests.filter((r) => r.includes(payment.id)).length;
    // That pass comes to its claim now, within the gap of the check that paid: turned away.
    const deps = { db: t.app.db, dialect, providerFor: (name: string) => t.app.payments.byName(name) };
    expect(await recheckOrder(deps, seenByOther, at + 1, 2_000, { news: false })).toBe('unchanged');
    expect((await orderRow(orderId)).next_check_at).toBeNull();
    expect(kassa.requests.filter((r) => r.includes(payment.id))).toHaveLength(asked);
    // A caller with news (a webhook) turned away still asks for a look after the gap.
    expect(await recheckOrder(deps, seenByOther, at + 2, 2_000)).toBe('unchanged');
    expect(Number((await orderRow(orderId)).next_check_at)).toBe(at + 2 + 2_000);
    expect(await ledgerRowsOf(t, p.id, 'top_up')).toHaveLength(1);
  });

  it('a settled order the provider cannot be asked about now is asked again later, once answered never again', async () => {
    const p = await createPlayer(t);
    const { orderId } = await refundNotifiedWithinGap(p);
    kassa.down = true;
    const first = Date.now() + 2_001;
    try {
      await worker().tick(first);
    } finally {
      kassa.down = false;
    }
    expect((await orderRow(orderId)).status).toBe('paid');
    const retry = Number((await orderRow(orderId)).next_check_at);
    expect(retry).toBeGreaterThan(first);
    await worker().tick(retry);
    expect((await orderRow(orderId)).status).toBe('refunded');
    expect(await balance(t, p.id, 'gems')).toBe(0);
  });

  it('never answers a malformed notification with a 5xx', async () => {
    const bodies: { payload: string; type?: string }[] = [
      { payload: '' },
      { payload: 'not json' },
      { payload: '{' },
      { payload: 'null' },
      { payload: '[]' },
      { payload: '42' },
      { payload: '"text"' },
      { payload: '{}' },
      { payload: '{"event":"payment.succeeded"}' },
      { payload: '{"event":1,"object":{"id":"x"}}' },
      { payload: '{"event":"payment.succeeded","object":null}' },
      { payload: '{"event":"payment.succeeded","object":{"id":""}}' },
      { payload: '{"event":"payment.succeeded","object":{"id":123}}' },
      { payload: '{"event":"payment.succeeded","object":{"id":["a"]}}' },
      { payload: `{"event":"payment.succeeded","object":{"id":"${'a'.repeat(5000)}"}}` },
      { payload: '{"event":"payment.succeeded","object":{"id":"a\\u0000b"}}' },
      { payload: '{"event":"refund.succeeded","object":{"id":"r"}}' },
      { payload: '{"event":"payment.succeeded","object":{"id":"../../etc/passwd"}}' },
      { payload: '{"event":"payment.succeeded","object":{"id":"x"}}', type: 'text/plain' },
      { payload: '<xml/>', type: 'application/xml' },
      {
        payload:
          '{"__proto__":{"polluted":true},"event":"payment.succeeded","object":{"id":"x","constructor":{"prototype":{"a":1}}}}',
      },
    ];
    for (const b of bodies) {
      const res = await t.app.inject({
        method: 'POST',
        url: WEBHOOK,
        payload: b.payload,
        headers: { 'content-type': b.type ?? 'application/json' },
      });
      expect(res.statusCode, b.payload.slice(0, 80)).toBeLessThan(500);
      if (res.statusCode >= 400)
        expect(res.json(), b.payload.slice(0, 80)).toMatchObject({
          detail: expect.any(String),
          code: expect.any(String),
        });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
