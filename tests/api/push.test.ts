import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { MAX_SUBSCRIPTIONS_PER_USER } from '../../server/services/push';
import { endSession, openSessionId } from '../helpers/mining';
import { apiCall, createPlayer, grant, type TestPlayer } from '../helpers/players';
import {
  type BrowserKeys,
  browserKeys,
  decryptPush,
  makeCertificate,
  type PushService,
  readVapid,
  startPushService,
} from '../helpers/push-service';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const SESSION_SECONDS = 60;

describe.each(testDialects())('push reminders on %s', (dialect) => {
  let t: TestApp;
  let service: PushService;
  let untrusted: PushService;
  let certDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'pxt-push-'));
    const cert = await makeCertificate(certDir);
    // Same kind of certificate, but not in PUSH_CA_FILE: the app must refuse to talk to it.
    const stranger = await makeCertificate(certDir, 'stranger.pem');
    service = await startPushService(cert);
    untrusted = await startPushService(stranger);
    // The local push services are private addresses: allowed by name, as a self-hosted one would be.
    env = {
      MINING_SESSION_SECONDS: String(SESSION_SECONDS),
      PUSH_CA_FILE: cert.caFile,
      PUSH_ALLOWED_HOSTS: '127.0.0.1',
    };
    t = await createTestApp(dialect, env);
  });
  afterAll(async () => {
    await t.close();
    await service.close();
    await untrusted.close();
    rmSync(certDir, { recursive: true, force: true });
  });

  const postJson = (p: TestPlayer | null, url: string, body?: unknown) => apiCall(t, p, 'POST', url, body);
  const newEndpoint = (origin = service.origin) => `${origin}/push/${randomBytes(8).toString('hex')}`;
  const pushesTo = (endpoint: string, svc = service) =>
    svc.received.filter((r) => `${svc.origin}${r.path}` === endpoint);
  const subscriptionRows = (userId: number) =>
    t.app.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).orderBy('id').execute();

  async function subscribe(p: TestPlayer, endpoint = newEndpoint()): Promise<{ endpoint: string; keys: BrowserKeys }> {
    const keys = browserKeys();
    const res = await postJson(p, '/push/subscribe/', { endpoint, expirationTime: null, keys: keys.json });
    expect(res.statusCode, res.body).toBe(201);
    return { endpoint, keys };
  }

  /** Starts a session for `p`, moves its end into the past and runs one worker pass and its pushes. */
  async function finishSession(p: TestPlayer): Promise<{ sessionId: number; notified: number }> {
    const start = await apiCall(t, p, 'GET', '/mining/start/');
    expect(start.statusCode).toBe(200);
    const sessionId = start.json().session.id as number;
    await endSession(t, sessionId);
    const { notified } = await t.app.miningWorker.tick();
    await t.app.pushReminders.idle();
    return { sessionId, notified };
  }

  it('gives the VAPID public key of the configuration without sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/push/public-key/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ public_key: t.app.config.vapid.publicKey });
    expect(Buffer.from(res.json().public_key, 'base64url')).toHaveLength(65);
    const config = await t.app.inject({ method: 'GET', url: '/api/v1/config/' });
    expect(config.json().vapid_public_key).toBe(res.json().public_key);
  });

  it('needs a signed-in player to subscribe or unsubscribe', async () => {
    const keys = browserKeys().json;
    expect((await postJson(null, '/push/subscribe/', { endpoint: newEndpoint(), keys })).statusCode).toBe(401);
    expect((await postJson(null, '/push/unsubscribe/', { endpoint: newEndpoint() })).json()).toMatchObject({
      code: 'token_not_valid',
    });
  });

  it('refuses subscriptions with bad endpoints or keys, naming the field', async () => {
    const p = await createPlayer(t);
    const keys = browserKeys().json;
    const bad: [unknown, string][] = [
      [{ endpoint: 'http://push.example/abc', keys }, 'endpoint'],
      [{ endpoint: 'not a url', keys }, 'endpoint'],
      [{ endpoint: 'https://user:pw@push.example/abc', keys }, 'endpoint'],
      [{ endpoint: `https://push.example/${'a'.repeat(2048)}`, keys }, 'endpoint'],
      [{ endpoint: 'https://push.example/ä', keys }, 'endpoint'],
      [{ keys }, 'endpoint'],
      [{ endpoint: newEndpoint() }, 'keys'],
      [{ endpoint: newEndpoint(), keys: { ...keys, p256dh: keys.p256dh.slice(0, 86) } }, 'keys.p256dh'],
      [{ endpoint: newEndpoint(), keys: { ...keys, p256dh: `${keys.p256dh}A` } }, 'keys.p256dh'],
      [{ endpoint: newEndpoint(), keys: { ...keys, p256dh: `B+${keys.p256dh.slice(2)}` } }, 'keys.p256dh'],
      // The right length and prefix, but not a point on the curve.
      [{ endpoint: newEndpoint(), keys: { ...keys, p256dh: `B${'A'.repeat(86)}` } }, 'keys.p256dh'],
      [{ endpoint: newEndpoint(), keys: { ...keys, auth: keys.auth.slice(0, 21) } }, 'keys.auth'],
      [{ endpoint: newEndpoint(), keys: { ...keys, auth: `${keys.auth}AAAA` } }, 'keys.auth'],
      [{ endpoint: newEndpoint(), keys: { ...keys, auth: 'a/b+cdefghijklmnopqrstu' } }, 'keys.auth'],
      [{ endpoint: newEndpoint(), expirationTime: 'soon', keys }, 'expirationTime'],
    ];
    for (const [body, field] of bad) {
      const res = await postJson(p, '/push/subscribe/', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 120)).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await postJson(p, '/push/subscribe/', '{"endpoint":')).statusCode).toBe(400);
    expect((await postJson(p, '/push/unsubscribe/', { endpoint: 'x'.repeat(2049) })).statusCode).toBe(400);
    expect(await subscriptionRows(p.id)).toEqual([]);
  });

  it('stores a subscription once per endpoint, moves it to the last subscriber and lets only the owner remove it', async () => {
    const a = await createPlayer(t);
    const b = await createPlayer(t);
    const endpoint = newEndpoint();
    const keys = browserKeys();
    // Padded base64url is accepted and kept without padding.
    const padded = { p256dh: `${keys.json.p256dh}=`, auth: `${keys.json.auth}==` };
    const first = await postJson(a, '/push/subscribe/', { endpoint, expirationTime: null, keys: padded });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({ endpoint, created_at: expect.stringMatching(/Z$/) });
    expect((await postJson(a, '/push/subscribe/', { endpoint, keys: keys.json })).statusCode).toBe(201);
    expect(await subscriptionRows(a.id)).toEqual([
      expect.objectContaining({
        endpoint,
        p256dh: keys.json.p256dh,
        auth: keys.json.auth,
        failures: 0,
        last_success_at: null,
      }),
    ]);

    // The same browser signs in as b and subscribes: the endpoint is b's now.
    const newKeys = browserKeys();
    expect((await postJson(b, '/push/subscribe/', { endpoint, keys: newKeys.json })).statusCode).toBe(201);
    expect(await subscriptionRows(a.id)).toEqual([]);
    expect(await subscriptionRows(b.id)).toEqual([expect.objectContaining({ endpoint, p256dh: newKeys.json.p256dh })]);

    const notMine = await postJson(a, '/push/unsubscribe/', { endpoint });
    expect(notMine.statusCode).toBe(200);
    expect(notMine.json()).toEqual({ removed: false });
    expect(await subscriptionRows(b.id)).toHaveLength(1);

    expect((await postJson(b, '/push/unsubscribe/', { endpoint })).json()).toEqual({ removed: true });
    expect(await subscriptionRows(b.id)).toEqual([]);
    expect((await postJson(b, '/push/unsubscribe/', { endpoint })).json()).toEqual({ removed: false });
  });

  it('keeps one row when the same subscription is posted by racing requests', async () => {
    const p = await createPlayer(t);
    const endpoint = newEndpoint();
    const keys = browserKeys().json;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => postJson(p, '/push/subscribe/', { endpoint, keys })),
    );
    expect(answers.map((r) => r.statusCode)).toEqual(Array(6).fill(201));
    expect(await subscriptionRows(p.id)).toHaveLength(1);
  });

  it(`keeps the newest ${MAX_SUBSCRIPTIONS_PER_USER} subscriptions of a player`, async () => {
    const p = await createPlayer(t);
    const endpoints: string[] = [];
    for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_USER + 2; i++) endpoints.push((await subscribe(p)).endpoint);
    const rows = await subscriptionRows(p.id);
    expect(rows.map((r) => r.endpoint).sort()).toEqual(endpoints.slice(2).sort());
  });

  it('pushes an encrypted, VAPID-signed reminder to every subscription of the player when a session ends', async () => {
    const p = await createPlayer(t);
    const other = await createPlayer(t);
    const phone = await subscribe(p);
    const laptop = await subscribe(p);
    const bystander = await subscribe(other);

    const { sessionId, notified } = await finishSession(p);
    expect(notified).toBeGreaterThanOrEqual(1);
    expect(pushesTo(bystander.endpoint)).toEqual([]);

    for (const sub of [phone, laptop]) {
      const pushes = pushesTo(sub.endpoint);
      expect(pushes).toHaveLength(1);
      const [push] = pushes;
      expect(push.headers['content-encoding']).toBe('aes128gcm');
      expect(push.headers['content-type']).toBe('application/octet-stream');
      expect(push.headers.ttl).toBe('3600');
      expect(push.headers.urgency).toBe('normal');
      expect(push.headers.topic).toBe('mining-ready');
      const vapid = readVapid(push.headers.authorization as string);
      expect(vapid.key).toBe(t.app.config.vapid.publicKey);
      expect(vapid.claims.aud).toBe(service.origin);
      expect(vapid.claims.sub).toBe(t.app.config.vapid.subject);
      expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());

      const payload = JSON.parse(decryptPush(push.body, sub.keys));
      const session = await t.app.db
        .selectFrom('mining_sessions')
        .select('ends_at')
        .where('id', '=', sessionId)
        .executeTakeFirstOrThrow();
      expect(payload).toEqual({
        type: 'mining_ready',
        title: 'Your PXT is ready to claim',
        body: expect.any(String),
        url: '/miner',
        tag: 'mining-ready',
        session_id: sessionId,
        ends_at: new Date(Number(session.ends_at)).toISOString(),
      });
      // Encrypted for this subscription only.
      expect(() => decryptPush(push.body, browserKeys())).toThrow();
    }
    const rows = await subscriptionRows(p.id);
    expect(rows.every((r) => r.last_success_at !== null && Number(r.failures) === 0)).toBe(true);
  });

  it('pushes once per finished session, however often the worker ticks', async () => {
    const p = await createPlayer(t);
    const sub = await subscribe(p);
    await finishSession(p);
    await t.app.miningWorker.tick();
    await t.app.miningWorker.tick();
    await t.app.pushReminders.idle();
    expect(pushesTo(sub.endpoint)).toHaveLength(1);

    // The next session of the same player gets its own reminder.
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
    await finishSession(p);
    expect(pushesTo(sub.endpoint)).toHaveLength(2);
  });

  it('pushes once when two server processes tick at the same moment', async () => {
    // A second app on the same database and DATA_DIR, as a second process would run.
    const second: FastifyInstance = await buildApp(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: t.dataDir,
        STATIC_DIR: '',
        WORKER_INTERVAL_MS: '0',
        APP_URL: 'http://app.test',
        ...env,
        ...(t.app.config.databaseUrl ? { DATABASE_URL: t.app.config.databaseUrl } : {}),
      }),
      { logger: false },
    );
    await second.ready();
    try {
      expect(second.config.vapid).toEqual(t.app.config.vapid);
      const players = await Promise.all([createPlayer(t), createPlayer(t), createPlayer(t)]);
      const subs = await Promise.all(players.map((p) => subscribe(p)));
      for (const p of players) {
        expect((await apiCall(t, p, 'GET', '/mining/start/')).statusCode).toBe(200);
        await endSession(t, (await openSessionId(t, p.id))!);
      }
      const [one, two] = await Promise.all([t.app.miningWorker.tick(), second.miningWorker.tick()]);
      await Promise.all([t.app.pushReminders.idle(), second.pushReminders.idle()]);
      expect(one.notified + two.notified).toBe(players.length);
      for (const sub of subs) expect(pushesTo(sub.endpoint)).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('drops a subscription the push service calls gone and keeps one that failed otherwise', async () => {
    const p = await createPlayer(t);
    const gone = await subscribe(p);
    const broken = await subscribe(p);
    const fine = await subscribe(p);
    service.respond(new URL(gone.endpoint).pathname, 410);
    service.respond(new URL(broken.endpoint).pathname, 500);

    await finishSession(p);
    for (const sub of [gone, broken, fine]) expect(pushesTo(sub.endpoint)).toHaveLength(1);
    const rows = await subscriptionRows(p.id);
    expect(rows.map((r) => r.endpoint).sort()).toEqual([broken.endpoint, fine.endpoint].sort());
    expect(rows.find((r) => r.endpoint === broken.endpoint)).toMatchObject({ last_success_at: null });
    expect(Number(rows.find((r) => r.endpoint === broken.endpoint)!.failures)).toBe(1);
    expect(Number(rows.find((r) => r.endpoint === fine.endpoint)!.failures)).toBe(0);

    // A later success resets the count.
    service.respond(new URL(broken.endpoint).pathname, 201);
    expect((await apiCall(t, p, 'GET', '/mining/claim/')).statusCode).toBe(200);
    await finishSession(p);
    const after = await subscriptionRows(p.id);
    expect(after.find((r) => r.endpoint === broken.endpoint)).toMatchObject({ last_success_at: expect.anything() });
    expect(Number(after.find((r) => r.endpoint === broken.endpoint)!.failures)).toBe(0);
  });

  it('treats a 404 like gone, and an unreachable or untrusted endpoint as a counted failure', async () => {
    const p = await createPlayer(t);
    const missing = await subscribe(p);
    service.respond(new URL(missing.endpoint).pathname, 404);
    const untrustedSub = await subscribe(p, newEndpoint(untrusted.origin));
    const unreachable = await subscribe(p, 'https://127.0.0.1:1/push/nowhere');

    const { notified } = await finishSession(p);
    expect(notified).toBeGreaterThanOrEqual(1);
    // The certificate check stays on: the untrusted server never sees the request.
    expect(pushesTo(untrustedSub.endpoint, untrusted)).toEqual([]);
    const rows = await subscriptionRows(p.id);
    expect(rows.map((r) => r.endpoint).sort()).toEqual([untrustedSub.endpoint, unreachable.endpoint].sort());
    expect(rows.map((r) => Number(r.failures))).toEqual([1, 1]);
  });

  it('sends no reminder to a player whose Auto Miner claims for them', async () => {
    const p = await createPlayer(t);
    const sub = await subscribe(p);
    await grant(t, p.id, 'gems', 150);
    const auto = await postJson(p, '/mining/auto-start/');
    expect(auto.statusCode).toBe(200);
    const sessionId = (await openSessionId(t, p.id))!;
    expect(sessionId).not.toBeNull();
    await endSession(t, sessionId);

    const result = await t.app.miningWorker.tick();
    await t.app.pushReminders.idle();
    expect(result.claimed).toBeGreaterThanOrEqual(1);
    const claimed = await t.app.db
      .selectFrom('mining_sessions')
      .select(['claimed', 'ready_notified_at'])
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow();
    expect(Number(claimed.claimed)).toBe(1);
    expect(claimed.ready_notified_at).toBeNull();
    expect(pushesTo(sub.endpoint)).toEqual([]);
  });
});
