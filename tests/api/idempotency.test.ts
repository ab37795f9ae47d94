// Idempotency keys under attack and under faults (issue 11, decisions §4 and §12): a key reused with
// another body, a key sent with a sign-in call, parallel retries of a stalled key, expired keys
// left behind, and a crash between a purchase's commit and its reply.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_WINDOW_MS } from '@shared/constants';
import {
  API,
  bearer,
  mailedToken,
  newWallet,
  otherIp,
  PASSWORD,
  registerAndConfirm,
  signLogin,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { apiCall, balance, createPlayer, grant, ledgerRowsOf, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const CRASH = 'x-test-crash-after-commit';

describe.each(testDialects())('idempotency keys on %s', (dialect) => {
  let t: TestApp;
  /** What each crashed request's key row held when its handler had returned, before any reply. */
  const keptAtCrash: ({ status: number | null; body: string | null } | undefined)[] = [];

  beforeAll(async () => {
    t = await createTestApp(dialect, { PAYMENTS_PROVIDER: 'test' }, (app) => {
      // The process "dies" after the handler's transaction committed and before the reply is sent
      // (or its answer kept by the reply hook): the client gets no answer and will retry.
      app.addHook('preSerialization', async (request) => {
        if (request.headers[CRASH] !== '1') return;
        keptAtCrash.push(
          await app.db
            .selectFrom('idempotency_keys')
            .select(['status', 'body'])
            .where('scope', '=', `u:${request.userId}`)
            .where('key', '=', String(request.headers['idempotency-key']))
            .executeTakeFirst(),
        );
        throw new Error('crash between commit and reply');
      });
      // A route that hands out tokens but was never marked signIn (one added later, say).
      app.post('/api/v1/test/unmarked-tokens/', async () => ({
        access: randomBytes(8).toString('hex'),
        refresh: randomBytes(8).toString('hex'),
      }));
    });
  });
  afterAll(() => t.close());

  const post = (p: TestPlayer, url: string, body?: unknown, headers?: Record<string, string>) =>
    apiCall(t, p, 'POST', url, body, headers);
  const keyRows = (userId: number, key: string) =>
    t.app.db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', `u:${userId}`)
      .where('key', '=', key)
      .execute();
  const boostsBought = async (userId: number) => (await ledgerRowsOf(t, userId, 'shop_purchase')).length;

  it('refuses the same key with another body (422) and replays it with the same body, in any key order', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 100);
    const key = { 'idempotency-key': 'buy-once' };
    const first = await post(p, '/mining/shop/buy/', { item_id: 'boost_1h' }, key);
    expect(first.statusCode).toBe(200);

    const other = await post(p, '/mining/shop/buy/', { item_id: 'boost_12h' }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toEqual({
      detail: 'This Idempotency-Key was used for another call',
      code: 'idempotency_key_reused',
    });
    expect(other.headers['idempotent-replayed']).toBeUndefined();

    const same = await post(p, '/mining/shop/buy/', { item_id: 'boost_1h' }, key);
    expect(same.statusCode).toBe(200);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.json()).toEqual(first.json());
    expect(await boostsBought(p.id)).toBe(1);
    expect(await balance(t, p.id, 'gems')).toBe(95);

    // The body is compared as read, not as bytes: the same fields in another order are the same call.
    const topUpKey = { 'idempotency-key': 'top-up-in-any-order' };
    const paid = await post(p, '/payments/top-up/', '{"item_id":"gems_50","method":"card"}', topUpKey);
    expect(paid.statusCode).toBe(200);
    const reordered = await post(p, '/payments/top-up/', '{"method":"card","item_id":"gems_50"}', topUpKey);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.json()).toEqual(paid.json());
    const otherMethod = await post(p, '/payments/top-up/', { item_id: 'gems_50', method: 'sbp' }, topUpKey);
    expect(otherMethod.json().code).toBe('idempotency_key_reused');
    expect(await balance(t, p.id, 'gems')).toBe(145);
  });

  it('never keeps nor replays the answer of a sign-in call, even from a signed-in caller', async () => {
    const signedIn = await registerAndConfirm(t);
    const id = Number(
      (await t.app.db.selectFrom('users').select('id').where('email', '=', signedIn.email).executeTakeFirstOrThrow())
        .id,
    );
    const wallet = newWallet();
    await walletLogin(t, wallet);
    const pending = uniqueEmail('pending');
    const reg = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email: pending, password: PASSWORD, confirm_password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(reg.statusCode, reg.body).toBeLessThan(300);
    const confirmToken = mailedToken(t, pending, 'confirmRegistration');

    const calls: { name: string; method: 'GET' | 'POST'; url: string; payload?: () => Promise<object> | object }[] = [
      {
        name: 'login-by-email',
        method: 'POST',
        url: '/auth/login-by-email/',
        payload: () => ({ email: signedIn.email, password: PASSWORD }),
      },
      { name: 'wallet login', method: 'POST', url: '/auth/login/', payload: () => signLogin(wallet) },
      { name: 'refresh', method: 'POST', url: '/auth/refresh/', payload: () => ({ refresh: signedIn.refresh }) },
      { name: 'confirm-email', method: 'GET', url: `/auth/confirm-email/${confirmToken}/` },
      {
        name: 'register',
        method: 'POST',
        url: '/auth/register/',
        payload: () => ({ email: uniqueEmail('again'), password: PASSWORD, confirm_password: PASSWORD }),
      },
      { name: 'google', method: 'POST', url: '/auth/google/', payload: () => ({ access_token: 'ya29.not-a-token' }) },
      {
        name: 'password-reset',
        method: 'POST',
        url: '/auth/password-reset/',
        payload: () => ({ email: signedIn.email }),
      },
      {
        name: 'password-reset-confirm',
        method: 'POST',
        url: '/auth/password-reset-confirm/',
        payload: () => ({ token: 'x'.repeat(43), new_password: 'another123' }),
      },
      {
        name: 'confirm-password-change',
        method: 'POST',
        url: '/auth/confirm-password-change/',
        payload: () => ({ token: 'x'.repeat(43), new_password: 'another123' }),
      },
      {
        name: 'an unmarked route answering tokens',
        method: 'POST',
        url: '/test/unmarked-tokens/',
        payload: () => ({}),
      },
      {
        name: 'confirm-email-change',
        method: 'GET',
        url: `/auth/confirm-email-change/${'x'.repeat(43)}/?email=${encodeURIComponent(uniqueEmail('moved'))}`,
      },
    ];
    for (const call of calls) {
      const key = `sign-in-${call.name}`;
      const send = async () =>
        t.app.inject({
          method: call.method,
          url: `${API}${call.url}`,
          remoteAddress: otherIp(),
          headers: { ...bearer(signedIn.access), 'idempotency-key': key },
          ...(call.payload ? { payload: await call.payload() } : {}),
        });
      const first = await send();
      const second = await send();
      expect(await keyRows(id, key), call.name).toEqual([]);
      expect(second.headers['idempotent-replayed'], call.name).toBeUndefined();
      if (first.statusCode === 200 && 'refresh' in first.json()) {
        // Tokens are handed out afresh each time, never a stored copy.
        expect(second.body, call.name).not.toBe(first.body);
      }
    }
  });

  it('lets exactly one of several parallel retries take over a stalled key', async () => {
    const p = await createPlayer(t);
    const key = 'stalled-buy';
    // The first attempt was refused (no Gems); then, as if its process had died mid-request, its
    // key is left "in progress" past the stall window, and the player now has Gems for eight buys.
    expect((await post(p, '/mining/shop/buy/', { item_id: 'boost_1h' }, { 'idempotency-key': key })).statusCode).toBe(
      400,
    );
    await t.app.db
      .updateTable('idempotency_keys')
      .set({ status: null, body: null, created_at: sql`created_at - 61000` })
      .where('scope', '=', `u:${p.id}`)
      .where('key', '=', key)
      .execute();
    await grant(t, p.id, 'gems', 40);

    // The retries arrive together: the table is held (on SQLite the one connection, on PostgreSQL a
    // table lock) until all of them are waiting on it, then they race.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holding = t.app.db.transaction().execute(async (trx) => {
      if (dialect === 'postgres') await sql`LOCK TABLE idempotency_keys IN EXCLUSIVE MODE`.execute(trx);
      else await sql`SELECT 1`.execute(trx);
      await gate;
    });
    const sent = Promise.all(
      Array.from({ length: 8 }, () =>
        post(p, '/mining/shop/buy/', { item_id: 'boost_1h' }, { 'idempotency-key': key }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    release();
    await holding;
    const retries = await sent;
    const ran = retries.filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
    expect(ran).toHaveLength(1);
    // The others waited (409 in progress) or got the one answer replayed.
    const others = retries
      .filter((r) => r !== ran[0])
      .map((r) => (r.statusCode === 200 ? r.headers['idempotent-replayed'] : r.json().code));
    expect(others.filter((how) => how !== 'true' && how !== 'idempotency_in_progress')).toEqual([]);
    expect(await boostsBought(p.id)).toBe(1);
    expect(await balance(t, p.id, 'gems')).toBe(35);
  });

  it('keeps the answer of a shop buy, an Auto Miner purchase and a top-up with the payment: a retry after a crash charges once', async () => {
    const p = await createPlayer(t);
    await grant(t, p.id, 'gems', 400);
    const cases = [
      { url: '/mining/shop/buy/', body: { item_id: 'boost_4h' }, reason: 'shop_purchase', gems: -15 },
      { url: '/mining/auto-start/', body: undefined, reason: 'auto_miner', gems: -150 },
      { url: '/payments/top-up/', body: { item_id: 'gems_50', method: 'card' }, reason: 'top_up', gems: 50 },
    ];
    let expected = 400;
    for (const c of cases) {
      const key = `crash-${c.reason}`;
      const crashed = await post(p, c.url, c.body, { 'idempotency-key': key, [CRASH]: '1' });
      expect(crashed.statusCode, c.url).toBe(500);
      const kept = keptAtCrash.at(-1);
      // Committed with the effect: already there before any reply hook ran.
      expect(kept?.status, c.url).toBe(200);

      const retry = await post(p, c.url, c.body, { 'idempotency-key': key });
      expect(retry.statusCode, c.url).toBe(200);
      expect(retry.headers['idempotent-replayed'], c.url).toBe('true');
      expect(retry.json(), c.url).toEqual(JSON.parse(kept!.body!));
      expected += c.gems;
      expect(retry.json().gems, c.url).toBe(expected);
      expect(await ledgerRowsOf(t, p.id, c.reason), c.url).toHaveLength(1);
      expect(await balance(t, p.id, 'gems'), c.url).toBe(expected);
    }
  });

  it('deletes expired keys, in batches, and keeps those still within the window', async () => {
    // A server of its own: pruning runs at most once a minute per database handle.
    const own = await createTestApp(dialect);
    try {
      const p = await createPlayer(own);
      const now = Date.now();
      const row = (key: string, created_at: number) => ({
        scope: `u:${p.id}`,
        key,
        route: 'POST /api/v1/mining/shop/buy/',
        status: 200,
        body: '{}',
        created_at,
      });
      const expired = Array.from({ length: 2500 }, (_, i) => row(`old-${i}`, now - IDEMPOTENCY_WINDOW_MS - 1000 - i));
      for (let i = 0; i < expired.length; i += 500)
        await own.app.db
          .insertInto('idempotency_keys')
          .values(expired.slice(i, i + 500))
          .execute();
      await own.app.db
        .insertInto('idempotency_keys')
        .values(row('recent', now - IDEMPOTENCY_WINDOW_MS + 60_000))
        .execute();

      const res = await apiCall(
        own,
        p,
        'POST',
        '/mining/shop/buy/',
        { item_id: 'boost_1h' },
        { 'idempotency-key': 'new' },
      );
      expect(res.statusCode).toBe(400);
      const left = await own.app.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('scope', '=', `u:${p.id}`)
        .orderBy('key')
        .execute();
      expect(left.map((r) => r.key)).toEqual(['new', 'recent']);
    } finally {
      await own.close();
    }
  });
});
