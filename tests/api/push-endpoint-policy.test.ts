// Push endpoints are URLs players give and the server POSTs to: without a policy the server
// connected to https://127.0.0.1/, 169.254.169.254, 10.x, localhost, 0x7f000001 and
// metadata.google.internal. Decisions §12: public https hosts on port 443 only, checked when
// subscribing and again when sending (resolved, checked, connected to the checked address, no
// redirects); PUSH_ALLOWED_HOSTS for private hosts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createPushSender, sessionReadyPayload } from '../../server/services/push';
import {
  checkedLookup,
  isPublicAddress,
  parseAllowedHosts,
  pushAgent,
  PushEndpointRefused,
  pushHost,
  type ResolveAll,
} from '../../server/services/push-endpoint-policy';
import { endSession } from '../helpers/mining';
import { apiCall, createPlayer, type TestPlayer } from '../helpers/players';
import { browserKeys, makeCertificate, type PushService, startPushService } from '../helpers/push-service';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** Each reaches the server's own network, or breaks the https-on-443 rule. */
const REFUSED = [
  'https://127.0.0.1/push/x',
  'https://169.254.169.254/latest/meta-data/',
  'https://10.1.2.3/push/x',
  'https://localhost/push/x',
  'https://0x7f000001/push/x',
  'https://metadata.google.internal/computeMetadata/v1/',
  'https://2130706433/push/x', // decimal
  'https://0177.0.0.1/push/x', // octal
  'https://127.1/push/x', // short
  'https://0x7f.1/push/x',
  'https://127.0.0.1./push/x',
  'https://[::ffff:127.0.0.1]/push/x', // IPv4-mapped
  'https://[::ffff:a9fe:a9fe]/push/x',
  'https://[::1]/push/x',
  'https://[::]/push/x',
  'https://0.0.0.0/push/x',
  'https://[fd00::1]/push/x', // unique-local
  'https://[fe80::1]/push/x', // link-local
  'https://[64:ff9b::7f00:1]/push/x', // NAT64 of 127.0.0.1
  'https://[2002:7f00:1::1]/push/x', // 6to4 of 127.0.0.1
  'https://[ff02::1]/push/x',
  'https://100.64.0.1/push/x', // carrier-grade NAT
  'https://172.16.0.1/push/x',
  'https://192.168.1.1/push/x',
  'https://224.0.0.1/push/x',
  'https://255.255.255.255/push/x',
  'https://LOCALHOST./push/x',
  'https://app.localhost/push/x',
  'https://printer.local/push/x',
  'https://router.home.arpa/push/x',
  'https://intranet/push/x',
  'http://push.example.com/push/x',
  'https://push.example.com:8443/push/x',
  'https://user:pass@push.example.com/push/x',
];

const ACCEPTED = [
  'https://fcm.googleapis.com/fcm/send/abc',
  'https://updates.push.services.mozilla.com/wpush/v2/abc',
  'https://web.push.apple.com/abc',
  'https://push.example.com:443/abc',
  'https://8.8.8.8/abc',
  'https://[2606:4700:4700::1111]/abc',
];

describe.each(testDialects())('push endpoint policy on %s', (dialect) => {
  let t: TestApp;
  let open: TestApp;
  let service: PushService;
  let certDir: string;
  let caFile: string;

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'pxt-push-policy-'));
    const cert = await makeCertificate(certDir);
    caFile = cert.caFile;
    service = await startPushService(cert);
    // The default: no private host allowed.
    t = await createTestApp(dialect, { MINING_SESSION_SECONDS: '60', PUSH_CA_FILE: caFile });
    // The local push service allowed by its address, as the project's push tests run it.
    open = await createTestApp(dialect, {
      MINING_SESSION_SECONDS: '60',
      PUSH_CA_FILE: caFile,
      PUSH_ALLOWED_HOSTS: '127.0.0.1',
    });
  });
  afterAll(async () => {
    await t.close();
    await open.close();
    await service.close();
    rmSync(certDir, { recursive: true, force: true });
  });

  const rows = (app: TestApp, userId: number) =>
    app.app.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', userId).execute();
  const path = () => `/push/${randomBytes(8).toString('hex')}`;

  /** Stores a subscription past the API, as a row from before the policy (or a rebinding host) would be. */
  async function storeDirectly(app: TestApp, p: TestPlayer, endpoint: string) {
    const { p256dh, auth } = browserKeys().json;
    await app.app.db
      .insertInto('push_subscriptions')
      .values({ endpoint, user_id: p.id, p256dh, auth, created_at: Date.now(), last_success_at: null, failures: 0 })
      .execute();
  }

  async function finishSession(app: TestApp, p: TestPlayer) {
    const start = await apiCall(app, p, 'GET', '/mining/start/');
    expect(start.statusCode).toBe(200);
    await endSession(app, start.json().session.id);
    await app.app.miningWorker.tick();
    await app.app.pushReminders.idle();
  }

  it('refuses to subscribe an endpoint that is not a public https host on port 443, naming the field', async () => {
    const p = await createPlayer(t);
    const keys = browserKeys().json;
    for (const endpoint of REFUSED) {
      const res = await apiCall(t, p, 'POST', '/push/subscribe/', { endpoint, keys });
      expect(res.statusCode, endpoint).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        endpoint,
      ).toContain('endpoint');
    }
    expect(await rows(t, p.id)).toEqual([]);
    for (const endpoint of ACCEPTED)
      expect((await apiCall(t, p, 'POST', '/push/subscribe/', { endpoint, keys })).statusCode, endpoint).toBe(201);
  });

  it('refuses to subscribe the host-name spellings the send-time check refuses (issue 21): dots, case, IDNA, percent-encoding', async () => {
    const p = await createPlayer(t);
    const keys = browserKeys().json;
    const spellings = [
      'https://localhost../abc',
      'https://vm../abc',
      'https://localhost.../abc',
      'https://vm.../abc',
      'https://LOCALHOST../abc',
      'https://push.local../abc',
      'https://metadata.google.internal../abc',
      'https://a..b.example/abc',
      'https://%6c%6fcalhost/abc',
      'https://%6c%6fcalhost../abc',
      'https://vm%2e/abc',
      'https://ｌｏｃａｌｈｏｓｔ../abc',
      'https://xn--vm-/abc',
    ];
    for (const endpoint of spellings) {
      const res = await apiCall(t, p, 'POST', '/push/subscribe/', { endpoint, keys });
      expect(res.statusCode, endpoint).toBe(400);
      expect(
        res.json().errors.map((e: { field: string }) => e.field),
        endpoint,
      ).toContain('endpoint');
    }
    expect(await rows(t, p.id)).toEqual([]);
    // A trailing dot on a public name is the same name.
    expect(
      (await apiCall(t, p, 'POST', '/push/subscribe/', { endpoint: 'https://push.example.com./abc', keys })).statusCode,
    ).toBe(201);
  });

  it('PUSH_ALLOWED_HOSTS lets exactly the listed host through, on any port; other private hosts stay refused', async () => {
    const p = await createPlayer(open);
    const keys = browserKeys().json;
    expect(
      (await apiCall(open, p, 'POST', '/push/subscribe/', { endpoint: `${service.origin}${path()}`, keys })).statusCode,
    ).toBe(201);
    for (const endpoint of [
      'https://localhost/x',
      'https://127.0.0.2/x',
      'https://10.0.0.1/x',
      'https://[::1]/x',
      `http://127.0.0.1:${new URL(service.origin).port}/x`,
    ]) {
      expect((await apiCall(open, p, 'POST', '/push/subscribe/', { endpoint, keys })).statusCode, endpoint).toBe(400);
    }
  });

  it('checks stored endpoints again when sending: a host that is not allowed gets nothing and is dropped', async () => {
    const p = await createPlayer(open);
    const port = new URL(service.origin).port;
    // All three lead to the local service (its certificate names localhost too); only 127.0.0.1 is allowed.
    const refused = [
      `https://localhost:${port}${path()}`,
      `https://[::ffff:127.0.0.1]:${port}${path()}`,
      `https://app.localhost:${port}${path()}`,
    ];
    for (const endpoint of refused) await storeDirectly(open, p, endpoint);
    const allowed = `${service.origin}${path()}`;
    await storeDirectly(open, p, allowed);

    await finishSession(open, p);
    const paths = service.received.map((r) => r.path);
    for (const endpoint of refused) expect(paths, endpoint).not.toContain(new URL(endpoint).pathname);
    expect(paths).toContain(new URL(allowed).pathname);
    expect((await rows(open, p.id)).map((r) => r.endpoint)).toEqual([allowed]);
  });

  it('refuses at connect time a host whose DNS answer is private, and connects only to the address it checked', async () => {
    const ca = [readFileSync(caFile, 'utf8')];
    const port = new URL(service.origin).port;
    // The attacker's DNS: rebound.test answers 127.0.0.1 (the name exists nowhere else).
    const rebinding: ResolveAll = async (host) =>
      host === 'rebound.test' ? [{ address: '127.0.0.1', family: 4 }] : [];
    const post = (agent: ReturnType<typeof pushAgent>, url: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(url, { method: 'POST', agent }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        });
        req.on('error', reject);
        req.end('x');
      });

    const strict = pushAgent({ allowed: new Set(), ca, resolveAll: rebinding });
    const blocked = path();
    await expect(post(strict, `https://rebound.test:${port}${blocked}`)).rejects.toBeInstanceOf(PushEndpointRefused);
    // With the real resolver too: localhost resolves to loopback.
    const system = pushAgent({ allowed: new Set(), ca });
    await expect(post(system, `https://localhost:${port}${blocked}`)).rejects.toBeInstanceOf(PushEndpointRefused);
    expect(service.received.map((r) => r.path)).not.toContain(blocked);

    // Allowed by name, the connection goes to the address the lookup checked (no second DNS query
    // could find rebound.test), and the certificate is still checked against the name.
    const trusting = pushAgent({ allowed: new Set(['rebound.test']), ca, resolveAll: rebinding });
    const through = path();
    expect(await post(trusting, `https://rebound.test:${port}${through}`)).toBe(201);
    expect(service.received.map((r) => r.path)).toContain(through);
    for (const agent of [strict, system, trusting]) agent.destroy();

    // The sender counts such a send as failed, with the policy's reason in the log.
    const p = await createPlayer(open);
    await storeDirectly(open, p, 'https://rebound.test/push/sender');
    const warnings: unknown[] = [];
    const sender = createPushSender({
      db: open.app.db,
      vapid: open.app.config.vapid,
      allowedHosts: new Set(),
      ca,
      resolveAll: rebinding,
      log: { warn: (obj) => warnings.push(obj) },
    });
    try {
      expect(await sender.sendToUser(p.id, sessionReadyPayload({ sessionId: 1, endsAt: Date.now() }))).toEqual({
        sent: 0,
        gone: 0,
        failed: 1,
      });
    } finally {
      sender.close();
    }
    expect(warnings).toEqual([expect.objectContaining({ err: expect.any(PushEndpointRefused) })]);
    expect(Number((await rows(open, p.id))[0].failures)).toBe(1);
  });

  it('follows no redirect: a push service answering 307 elsewhere is a failed send, the target gets nothing', async () => {
    const p = await createPlayer(open);
    const from = path();
    const target = path();
    service.respond(from, 307, { location: `${service.origin}${target}` });
    const keys = browserKeys().json;
    expect(
      (await apiCall(open, p, 'POST', '/push/subscribe/', { endpoint: `${service.origin}${from}`, keys })).statusCode,
    ).toBe(201);
    await finishSession(open, p);
    const paths = service.received.map((r) => r.path);
    expect(paths.filter((x) => x === from)).toHaveLength(1);
    expect(paths).not.toContain(target);
    expect(Number((await rows(open, p.id))[0].failures)).toBe(1);
  });
});

describe('push endpoint policy: addresses and configuration', () => {
  it('normalizes a host one way for the subscribe check, the allowed list and the send-time lookup', async () => {
    for (const [raw, host] of [
      ['LocalHost..', 'localhost'],
      ['vm.', 'vm'],
      ['[::1]', '::1'],
      ['Push.Example.COM.', 'push.example.com'],
      ['bücher.example', 'xn--bcher-kva.example'],
    ]) {
      expect(pushHost(raw), raw).toBe(host);
    }
    for (const bad of ['a..b', '..', '', '%zz']) expect(pushHost(bad), bad).toBeNull();
    // The lookup resolves the normalized name: `localhost..` is looked up as `localhost`, and refused.
    const asked: string[] = [];
    const lookup = checkedLookup(new Set(), async (h) => (asked.push(h), [{ address: '127.0.0.1', family: 4 }]));
    const err = await new Promise((resolve) => lookup('localhost..', {}, (e) => resolve(e)));
    expect(asked).toEqual(['localhost']);
    expect(err).toBeInstanceOf(Error);
  });

  it('tells public addresses from private and special ones', () => {
    for (const a of ['8.8.8.8', '1.1.1.1', '142.250.74.10', '2606:4700:4700::1111', '2a00:1450:4001:80b::200a'])
      expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '255.255.255.255',
      '::1',
      '::',
      '::ffff:8.8.8.8',
      'fc00::1',
      'fd12::1',
      'fe80::1',
      'ff02::1',
      '64:ff9b::808:808',
      '2001:db8::1',
      '2002:808:808::1',
      'localhost',
      '',
    ]) {
      expect(isPublicAddress(a), a).toBe(false);
    }
  });

  it('reads PUSH_ALLOWED_HOSTS as exact host names (normalized like URL hosts), default none, and refuses junk', () => {
    expect([
      ...loadConfig({ NODE_ENV: 'test', DATA_DIR: mkdtempSync(join(tmpdir(), 'pxt-cfg-')) }).pushAllowedHosts,
    ]).toEqual([]);
    expect([...parseAllowedHosts(' Push.Local , 127.0.0.1,[::1] ')]).toEqual(['push.local', '127.0.0.1', '::1']);
    for (const bad of ['push.local:8443', 'https://push.local', 'a/b', 'u@host'])
      expect(() => parseAllowedHosts(bad), bad).toThrow(/PUSH_ALLOWED_HOSTS/);
  });
});
