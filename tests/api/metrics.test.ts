// Prometheus metrics (decisions §12): served by a listener of their own on METRICS_PORT (a real
// socket here), never on the public port; the counters move where things happen (a claim, a ledger
// posting once committed, a mail, a push, a payment, the worker's lateness); requests are timed by
// route pattern, so a token in a path never becomes a label. Every app has its own registry.
// (The settings, and /metrics on the public port: metrics-settings.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { post } from '../../server/services/ledger';
import {
  API,
  bearer,
  mailedToken,
  newWallet,
  otherIp,
  PASSWORD,
  quickUser,
  reauthFor,
  uniqueEmail,
} from '../helpers/accounts';
import { endSession, openSessionId } from '../helpers/mining';
import { apiCall, createPlayer, grant } from '../helpers/players';
import { browserKeys } from '../helpers/push-service';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** GETs `path` from the app's metrics listener over a real connection. */
async function scrape(t: TestApp, path = '/metrics') {
  const address = t.app.metrics.address();
  if (!address) throw new Error('no metrics listener');
  const res = await fetch(`http://127.0.0.1:${address.port}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The value of the series `name{labels}` (exactly these labels) in an exposition text; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const want = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',');
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have =
      (m[2] ?? '')
        .match(/\w+="(?:[^"\\]|\\.)*"/g)
        ?.sort()
        .join(',') ?? '';
    if (have === want) return Number(m[3]);
  }
  return 0;
}

const metricsText = async (t: TestApp) => (await scrape(t)).text;

describe.each(testDialects())('metrics on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, {
      METRICS_PORT: '0',
      MINING_SESSION_SECONDS: '60',
      PUSH_ALLOWED_HOSTS: '127.0.0.1',
    });
  });
  afterAll(() => t?.close());

  it('serves GET /metrics on METRICS_PORT, with the process defaults, and nothing else there', async () => {
    expect(t.app.metrics.address()).toMatchObject({ address: '127.0.0.1' });
    expect(t.app.metrics.address()!.port).toBeGreaterThan(0);
    const res = await scrape(t);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const name of [
      'http_request_duration_seconds',
      'pxt_claims_total',
      'pxt_ledger_postings_total',
      'pxt_worker_lag_seconds',
      'pxt_push_sent_total',
      'pxt_mail_sent_total',
      'pxt_payments_total',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `);
    }
    expect(res.text).toContain('process_cpu_user_seconds_total');
    expect(res.text).toContain('nodejs_eventloop_lag_seconds');
    expect((await scrape(t, '/')).status).toBe(404);
    expect((await scrape(t, '/api/v1/config/')).status).toBe(404);
  });

  it('answers GET /metrics on the public port with a plain 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
    expect(res.body).not.toContain('pxt_');
  });

  it('labels request times by route pattern and status, never by the URL with its token', async () => {
    const email = uniqueEmail('metrics');
    const reg = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email, password: PASSWORD, confirm_password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(reg.statusCode).toBe(201);
    const token = mailedToken(t, email, 'confirmRegistration');
    expect((await t.app.inject({ method: 'GET', url: `${API}/auth/confirm-email/${token}/` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${API}/no/such/${token}/` })).statusCode).toBe(404);

    const text = await metricsText(t);
    expect(text).not.toContain(token);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'GET',
        route: `${API}/auth/confirm-email/:token/`,
        status: '200',
      }),
    ).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', {
        method: 'POST',
        route: `${API}/auth/register/`,
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', {
        method: 'GET',
        route: `${API}/auth/confirm-email/:token/`,
        status: '200',
        le: '+Inf',
      }),
    ).toBe(1);
  });

  it('counts a claim and its ledger posting', async () => {
    const before = await metricsText(t);
    const p = await createPlayer(t);
    expect((await apiCall(t, p, 'GET', '/mining/start/')).statusCode).toBe(200);
    await endSession(t, (await openSessionId(t, p.id))!);
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
    // Nothing to claim now: a refusal is not a claim.
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(400);

    const after = await metricsText(t);
    expect(
      sample(after, 'pxt_claims_total', { source: 'player' }) -
        sample(before, 'pxt_claims_total', { source: 'player' }),
    ).toBe(1);
    const posting = { currency: 'token', reason: 'mining_claim' };
    expect(
      sample(after, 'pxt_ledger_postings_total', posting) - sample(before, 'pxt_ledger_postings_total', posting),
    ).toBe(1);
  });

  it('counts a ledger posting once its transaction committed, and not one that rolled back', async () => {
    const p = await createPlayer(t);
    const labels = { currency: 'balance', reason: 'admin_grant' };
    const count = async () => sample(await metricsText(t), 'pxt_ledger_postings_total', labels);
    const start = await count();

    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await post(trx, { userId: p.id, currency: 'balance', amount: 5, reason: 'admin_grant' });
        throw new Error('a later step of the same transaction failed');
      }),
    ).rejects.toThrow('a later step');
    expect(await count()).toBe(start);

    let seenInside = -1;
    await t.app.db.transaction().execute(async (trx) => {
      await post(trx, { userId: p.id, currency: 'balance', amount: 5, reason: 'admin_grant' });
      seenInside = await count();
    });
    // Not while the transaction was open, once it committed.
    expect(seenInside).toBe(start);
    expect(await count()).toBe(start + 1);

    // Outside a transaction the posting's own statements have committed: counted at once.
    await post(t.app.db, { userId: p.id, currency: 'balance', amount: 5, reason: 'admin_grant' });
    expect(await count()).toBe(start + 2);
  });

  it('measures how late the worker claims for the Auto Miner', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 150);
    expect((await apiCall(t, p, 'POST', '/mining/auto-start/')).statusCode).toBe(200);
    const sessionId = (await openSessionId(t, p.id))!;
    await endSession(t, sessionId);
    const { ends_at } = await t.app.db
      .selectFrom('mining_sessions')
      .select('ends_at')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const before = await metricsText(t);

    const { claimed } = await t.app.miningWorker.tick(Number(ends_at) + 42_000);
    expect(claimed).toBe(1);
    const after = await metricsText(t);
    const step = { step: 'auto_claim' };
    expect(
      sample(after, 'pxt_worker_lag_seconds_count', step) - sample(before, 'pxt_worker_lag_seconds_count', step),
    ).toBe(1);
    expect(
      sample(after, 'pxt_worker_lag_seconds_sum', step) - sample(before, 'pxt_worker_lag_seconds_sum', step),
    ).toBeCloseTo(42, 6);
    expect(
      sample(after, 'pxt_worker_lag_seconds_bucket', { ...step, le: '30' }) -
        sample(before, 'pxt_worker_lag_seconds_bucket', { ...step, le: '30' }),
    ).toBe(0);
    expect(
      sample(after, 'pxt_worker_lag_seconds_bucket', { ...step, le: '60' }) -
        sample(before, 'pxt_worker_lag_seconds_bucket', { ...step, le: '60' }),
    ).toBe(1);
    expect(
      sample(after, 'pxt_claims_total', { source: 'auto_miner' }) -
        sample(before, 'pxt_claims_total', { source: 'auto_miner' }),
    ).toBe(1);
    expect(sample(after, 'pxt_worker_last_pass_timestamp_seconds')).toBeGreaterThan(0);
  });

  it('counts a failed push and measures how late the ready reminder went out', async () => {
    const p = await createPlayer(t);
    const sub = await apiCall(t, p, 'POST', '/push/subscribe/', {
      endpoint: 'https://127.0.0.1:1/push/nowhere',
      expirationTime: null,
      keys: browserKeys().json,
    });
    expect(sub.statusCode, sub.body).toBe(201);
    expect((await apiCall(t, p, 'GET', '/mining/start/')).statusCode).toBe(200);
    const sessionId = (await openSessionId(t, p.id))!;
    await endSession(t, sessionId);
    const { ends_at } = await t.app.db
      .selectFrom('mining_sessions')
      .select('ends_at')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    const before = await metricsText(t);

    const { notified } = await t.app.miningWorker.tick(Number(ends_at) + 7000);
    await t.app.pushReminders.idle();
    expect(notified).toBe(1);
    const after = await metricsText(t);
    const step = { step: 'ready_notice' };
    expect(
      sample(after, 'pxt_worker_lag_seconds_count', step) - sample(before, 'pxt_worker_lag_seconds_count', step),
    ).toBe(1);
    expect(
      sample(after, 'pxt_worker_lag_seconds_sum', step) - sample(before, 'pxt_worker_lag_seconds_sum', step),
    ).toBeCloseTo(7, 6);
    expect(
      sample(after, 'pxt_push_sent_total', { result: 'failed' }) -
        sample(before, 'pxt_push_sent_total', { result: 'failed' }),
    ).toBe(1);
    expect(sample(after, 'pxt_push_sent_total', { result: 'sent' })).toBe(
      sample(before, 'pxt_push_sent_total', { result: 'sent' }),
    );
  });

  it('counts a mail written to the outbox and a paid top-up by method', async () => {
    const before = await metricsText(t);
    const reg = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email: uniqueEmail('mail'), password: PASSWORD, confirm_password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(reg.statusCode).toBe(201);
    const p = await createPlayer(t);
    const topUp = await apiCall(t, p, 'POST', '/payments/top-up/', { item_id: 'gems_50', method: 'sbp' });
    expect(topUp.statusCode, topUp.body).toBe(200);
    expect(topUp.json().order.status).toBe('paid');

    const after = await metricsText(t);
    expect(
      sample(after, 'pxt_mail_sent_total', { result: 'sent' }) -
        sample(before, 'pxt_mail_sent_total', { result: 'sent' }),
    ).toBe(1);
    expect(
      sample(after, 'pxt_payments_total', { method: 'sbp', status: 'paid' }) -
        sample(before, 'pxt_payments_total', { method: 'sbp', status: 'paid' }),
    ).toBe(1);
    const gems = { currency: 'gems', reason: 'top_up' };
    expect(sample(after, 'pxt_ledger_postings_total', gems) - sample(before, 'pxt_ledger_postings_total', gems)).toBe(
      1,
    );
  });

  describe('a second app in the same process', () => {
    let second: TestApp;
    beforeAll(async () => {
      // Nothing listens on port 1: every mail fails. No payment provider: top-ups are unavailable.
      second = await createTestApp(dialect, {
        METRICS_PORT: '0',
        SMTP_URL: 'smtp://127.0.0.1:1',
        PAYMENTS_PROVIDER: '',
      });
    });
    afterAll(() => second?.close());

    it('has its own registry: its counters start at 0 and move only with its own work', async () => {
      expect(second.app.metrics.address()!.port).not.toBe(t.app.metrics.address()!.port);
      const text = await metricsText(second);
      expect(sample(await metricsText(t), 'pxt_claims_total', { source: 'player' })).toBeGreaterThan(0);
      expect(sample(text, 'pxt_claims_total', { source: 'player' })).toBe(0);
      expect(sample(text, 'pxt_mail_sent_total', { result: 'sent' })).toBe(0);
    });

    it('counts mails that could not be sent, whether the answer waited for them or not', async () => {
      const before = await metricsText(second);
      // decisions §13: the change needs proof of the account; this one signs with its wallet (no mail).
      const wallet = newWallet();
      const { access } = await quickUser(second, {
        email: uniqueEmail('mover'),
        emailConfirmed: true,
        walletAddress: wallet.address,
      });
      const reauth = await reauthFor(second, access, wallet);
      const change = await second.app.inject({
        method: 'POST',
        url: `${API}/auth/change-email/`,
        payload: { new_email: uniqueEmail('refused'), reauth },
        headers: bearer(access),
        remoteAddress: otherIp(),
      });
      expect(change.statusCode).toBe(503);
      const reg = await second.app.inject({
        method: 'POST',
        url: `${API}/auth/register/`,
        payload: { email: uniqueEmail('refused'), password: PASSWORD, confirm_password: PASSWORD },
        remoteAddress: otherIp(),
      });
      expect(reg.statusCode).toBe(201);
      const after = await metricsText(second);
      expect(
        sample(after, 'pxt_mail_sent_total', { result: 'failed' }) -
          sample(before, 'pxt_mail_sent_total', { result: 'failed' }),
      ).toBe(2);
      expect(sample(after, 'pxt_mail_sent_total', { result: 'sent' })).toBe(0);
      // The first app's mail counter did not see them.
      expect(sample(await metricsText(t), 'pxt_mail_sent_total', { result: 'failed' })).toBe(0);
    });

    it('counts a top-up refused for want of a provider', async () => {
      const p = await createPlayer(second);
      const res = await apiCall(second, p, 'POST', '/payments/top-up/', { item_id: 'gems_50', method: 'card' });
      expect(res.statusCode).toBe(503);
      expect(sample(await metricsText(second), 'pxt_payments_total', { method: 'card', status: 'unavailable' })).toBe(
        1,
      );
    });
  });

  it('closes the metrics listener when the app closes, after a scrape on a kept-alive connection', async () => {
    const third = await createTestApp(dialect, { METRICS_PORT: '0' });
    const { port } = third.app.metrics.address()!;
    expect((await scrape(third)).status).toBe(200);
    await third.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
