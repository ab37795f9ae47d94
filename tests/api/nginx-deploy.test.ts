// The deployment in deploy/ run for real: Debian's nginx with deploy/nginx/pxt.conf (only its ports,
// certificate, root and include path swapped; a self-signed certificate, so TLS is the real thing) in
// front of two compiled server processes (what pxt@.service runs) on one PostgreSQL database.
// 200 players claim at once through nginx while one process is killed with SIGKILL and restarted:
// every player is paid exactly once, balances equal their ledger sums, and every client, retrying
// with its Idempotency-Key, ends with the answer of its one payment. Also checked: the server sees
// the client address nginx saw (TRUST_PROXY=1), not one the client wrote, and the static files,
// documents and redirect answer as the site file says.
// PostgreSQL only: several processes on one database is what PostgreSQL is for (SQLite is one process).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent as HttpAgent } from 'node:http';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import selfsigned from 'selfsigned';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { ACCESS_TOKEN_SECONDS } from '@shared/constants';
import { CSP_HASHES_FILE } from '@shared/content-security-policy';
import { type Database, openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createJwt } from '../../server/services/jwt';
import { openSessions, seedPlayers } from '../helpers/bulk-players';
import { freePort, ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { type Answer, call, HOST, nginxConfig, type Ports } from '../helpers/nginx-site';
import { createPgDatabase } from '../helpers/test-app';

const PLAYERS = 200;
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
const skipReason = !NGINX
  ? "nginx is not installed (scripts/test.sh installs Debian's nginx-light): the nginx deployment test is skipped"
  : !process.env.PG_TEST_URL
    ? 'PG_TEST_URL is not set (run through `npm test`): the nginx deployment test needs PostgreSQL and is skipped'
    : null;
if (skipReason) console.warn(skipReason);

interface Client {
  userId: number;
  token: string;
  key: string;
  answers: Answer[];
}
const last = (c: Client) => c.answers[c.answers.length - 1];
const code = (a: Answer) => {
  try {
    return (JSON.parse(a.text) as { code?: string }).code;
  } catch {
    return undefined;
  }
};

describe.skipIf(skipReason)('the nginx deployment on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-nginx-'));
  const outdir = join(ROOT, '.tmp', `dist-server-${randomBytes(4).toString('hex')}`);
  const jwtSecret = randomBytes(32).toString('base64url');
  let database: Database;
  let dropPg: (() => Promise<void>) | null = null;
  let ports: Ports;
  let nginx: ChildProcess | null = null;
  let nginxExited: Promise<void> = Promise.resolve();
  const servers: (ServerProcess | null)[] = [null, null];
  let envFor: (i: number) => Record<string, string>;
  const agent = new Agent({ keepAlive: true, rejectUnauthorized: false });

  const nginxLog = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const startServer = (i: number) =>
    startServerProcess({ env: envFor(i), compiled: join(outdir, 'main.js'), port: ports.api[i], readyPath: '/readyz' });

  beforeAll(async () => {
    // The compiled server, as pxt@.service runs it: it also starts in a third of tsx's time, which
    // keeps the restart inside the burst short.
    const built = buildServer(outdir);
    const created = await createPgDatabase();
    dropPg = created.drop;
    database = openDatabase({ databaseUrl: created.url, dataDir: dir });
    await migrate(database);

    // nginx's workers run as nobody when the test runs as root: they must read the build and certificate folders.
    chmodSync(dir, 0o755);
    const dist = join(dir, 'dist');
    mkdirSync(join(dist, 'assets'), { recursive: true });
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>PXT</title><div id="root"></div>\n');
    for (const page of ['blog.html', 'app.html'])
      writeFileSync(join(dist, page), `<!doctype html><title>${page}</title><div id="root"></div>\n`);
    writeFileSync(join(dist, CSP_HASHES_FILE), JSON.stringify({ 'script-src': [] }));
    const script = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
    writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js'), script);
    writeFileSync(join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(script));
    const pems = await selfsigned.generate([{ name: 'commonName', value: HOST }], { keySize: 2048 });
    writeFileSync(join(dir, 'cert.pem'), pems.cert);
    writeFileSync(join(dir, 'key.pem'), pems.private, { mode: 0o600 });

    ports = { http: await freePort(), https: await freePort(), api: [await freePort(), await freePort()] };
    envFor = (i) => {
      const dataDir = join(dir, `data-${i}`);
      return {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        STATIC_DIR: dist,
        WORKER_INTERVAL_MS: '0',
        JWT_SECRET: jwtSecret,
        APP_URL: `https://${HOST}`,
        DATABASE_URL: created.url,
        TRUST_PROXY: '1',
        // 200 players from one address: request-rate limits would refuse most of them (decisions §12).
        RATE_LIMITS: 'off',
      };
    };
    await built;
    [servers[0], servers[1]] = await Promise.all([startServer(0), startServer(1)]);

    writeFileSync(
      join(dir, 'nginx.conf'),
      nginxConfig(dir, ports, { cert: join(dir, 'cert.pem'), key: join(dir, 'key.pem') }, dist),
    );
    const proc = spawn(NGINX!, ['-e', join(dir, 'error.log'), '-p', dir, '-c', join(dir, 'nginx.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    proc.stdout!.on('data', (d) => (output += d));
    proc.stderr!.on('data', (d) => (output += d));
    nginx = proc;
    nginxExited = new Promise((r) => proc.once('exit', () => r()));
    for (let i = 0; i < 100; i++) {
      if (proc.exitCode !== null) throw new Error(`nginx exited:\n${output}\n${nginxLog()}`);
      if ((await call(ports.http, '/healthz', { plain: true })).status === 301) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`nginx did not start:\n${output}\n${nginxLog()}`);
  }, 90_000);

  afterAll(async () => {
    agent.destroy();
    if (nginx && nginx.exitCode === null) {
      const timer = setTimeout(() => nginx?.kill('SIGKILL'), 5000);
      nginx.kill('SIGTERM');
      await nginxExited;
      clearTimeout(timer);
    }
    await Promise.all(servers.map((s) => s?.kill()));
    await database?.close();
    await dropPg?.();
    rmSync(dir, { recursive: true, force: true });
    rmSync(outdir, { recursive: true, force: true });
  }, 30_000);

  it('passes the address nginx saw, not the one the client wrote (TRUST_PROXY=1)', async () => {
    const login = await call(ports.https, '/api/v1/auth/login-by-email/', {
      method: 'POST',
      localAddress: '127.0.0.5',
      headers: { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=203.0.113.9' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' }),
    });
    expect(code(login), login.text).toBe('invalid_credentials');
    // With an Idempotency-Key the request takes the site's other route (@api_keyed): same headers, body intact.
    const keyed = await call(ports.https, '/api/v1/auth/login-by-email/', {
      method: 'POST',
      localAddress: '127.0.0.6',
      headers: { 'x-forwarded-for': '203.0.113.10', 'idempotency-key': 'login-once' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password-1' }),
    });
    expect(code(keyed), keyed.text).toBe('invalid_credentials');
    // The per-IP sign-in counter is keyed on the client address the server settled on.
    const keys = await database.db
      .selectFrom('throttle')
      .select('key')
      .where('key', 'like', 'login:ip:%')
      .orderBy('key')
      .execute();
    expect(keys.map((k) => k.key)).toEqual(['login:ip:127.0.0.5', 'login:ip:127.0.0.6']);
  });

  it('redirects http to https, serves hashed assets immutable and precompressed, documents from the app', async () => {
    const plain = await call(ports.http, '/mining/?ref=abc', { plain: true, agent: new HttpAgent() });
    expect(plain.status).toBe(301);
    expect(plain.headers.location).toBe(`https://${HOST}/mining/?ref=abc`);

    const asset = await call(ports.https, '/assets/index-Ab12Cd34.js', {
      agent,
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    // A missing hashed file is a 404, never the app's index.html.
    expect((await call(ports.https, '/assets/index-gone.js', { agent })).status).toBe(404);

    // A client route: the app's index.html with the app's CSP and no-cache, through nginx.
    const page = await call(ports.https, '/mining/', { agent });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.text).toContain('<title>app.html</title>');
    // The built pages by name, as the service worker's precache fetches them (and then answers
    // navigations with them offline): from the app too, with its CSP, never nginx's plain copy.
    for (const file of ['/index.html', '/blog.html', '/app.html']) {
      const doc = await call(ports.https, file, { agent });
      expect(doc.status).toBe(200);
      expect(doc.headers['cache-control']).toBe('no-cache');
      expect(doc.headers['content-security-policy']).toContain("default-src 'self'");
    }
  });

  it('pays each of 200 players exactly once while one process is killed and restarted', async () => {
    const { ids } = await seedPlayers(database.db, 'postgres', { count: PLAYERS, tag: 'ngx', session: 'ended' });
    const jwt = createJwt(jwtSecret);
    const sessions = await openSessions(database.db, ids);
    const clients: Client[] = ids.map((userId) => ({
      userId,
      token: jwt.issueAccess(userId, sessions.get(userId)!, ACCESS_TOKEN_SECONDS),
      key: `claim-${userId}-${randomBytes(8).toString('hex')}`,
      answers: [],
    }));
    const claim = async (c: Client) => {
      c.answers.push(
        await call(ports.https, '/api/v1/mining/claim/', {
          agent,
          headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': c.key },
        }),
      );
    };

    // Everyone at once; process 0 dies once a few answers are back (so it has claims in flight) and
    // is started again on its port while the burst goes on.
    let answered = 0;
    let restarting: Promise<void> | null = null;
    await Promise.all(
      clients.map((c) =>
        claim(c).then(() => {
          if (last(c).status === 200 && ++answered >= 10 && !restarting) {
            const dying = servers[0]!;
            restarting = dying.kill().then(async () => {
              servers[0] = null;
              servers[0] = await startServer(0);
            });
          }
        }),
      ),
    );
    await restarting;
    expect(restarting, 'the kill never happened').not.toBeNull();
    const firstRound = clients.map((c) => last(c).status);
    // The kill cut off requests nginx had passed to process 0, or this test proves nothing.
    expect(nginxLog()).toMatch(new RegExp(`(prematurely closed|reset by peer)[^\\n]*127\\.0\\.0\\.1:${ports.api[0]}`));

    // Clients without their answer retry with the same key (bounded rounds, one at a time). A key
    // whose request died with process 0 stays "in progress" (409) for the server's 60 s stall
    // window; instead of sleeping, keys of requests certainly dead (no retry is under way between
    // rounds) are aged past it, as tests/api/faults.test.ts does.
    for (let round = 0; round < 5; round++) {
      const pending = clients.filter((c) => last(c).status !== 200);
      if (pending.length === 0) break;
      await Promise.all(pending.map(claim));
      const stalled = pending.filter((c) => code(last(c)) === 'idempotency_in_progress').map((c) => `u:${c.userId}`);
      if (stalled.length > 0) {
        await database.db
          .updateTable('idempotency_keys')
          .set({ created_at: sql`created_at - 61000` })
          .where('scope', 'in', stalled)
          .where('status', 'is', null)
          .execute();
      }
    }
    const problems = clients
      .filter((c) => last(c).status !== 200)
      .map((c) => `player ${c.userId}: ${c.answers.map((a) => `${a.status} ${code(a) ?? ''}`).join(', ')}`);
    expect(problems).toEqual([]);

    // Asked once more with its key, every client gets exactly the answer it has, from either process.
    const again = await Promise.all(
      clients.map(async (c) => ({
        c,
        a: await call(ports.https, '/api/v1/mining/claim/', {
          agent,
          headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': c.key },
        }),
      })),
    );
    expect(
      again
        .filter(
          ({ c, a }) => a.status !== 200 || a.headers['idempotent-replayed'] !== 'true' || a.text !== last(c).text,
        )
        .map(({ c }) => c.userId),
    ).toEqual([]);

    // Exactly one payment per player, and it is the one its answer announced.
    const rows = await database.db
      .selectFrom('ledger')
      .select(['user_id', 'amount'])
      .where('reason', '=', 'mining_claim')
      .where('user_id', 'in', ids)
      .execute();
    const paid = new Map<number, number[]>();
    for (const r of rows) paid.set(Number(r.user_id), [...(paid.get(Number(r.user_id)) ?? []), Number(r.amount)]);
    expect(ids.filter((id) => paid.get(id)?.length !== 1)).toEqual([]);
    const wrongAnswer = clients.filter(
      (c) => Math.round((JSON.parse(last(c).text) as { reward: number }).reward * 1_000_000) !== paid.get(c.userId)![0],
    );
    expect(wrongAnswer.map((c) => c.userId)).toEqual([]);
    // Balances equal their ledger sums.
    const sums = await database.db
      .selectFrom('ledger')
      .select(['user_id', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('currency', '=', 'token')
      .where('user_id', 'in', ids)
      .groupBy('user_id')
      .execute();
    const sumOf = new Map(sums.map((s) => [Number(s.user_id), Number(s.total)]));
    const users = await database.db.selectFrom('users').select(['id', 'token']).where('id', 'in', ids).execute();
    expect(
      users.filter((u) => Number(u.token) <= 0 || Number(u.token) !== sumOf.get(Number(u.id))).map((u) => u.id),
    ).toEqual([]);

    const retried = clients.filter((c) => c.answers.length > 1);
    console.log(
      `nginx deployment: first round ${firstRound.filter((s) => s === 200).length}/${PLAYERS} answered 200, ` +
        `${retried.length} clients retried (answers: ${[...new Set(retried.flatMap((c) => c.answers.map((a) => `${a.status} ${code(a) ?? ''}`.trim())))].join('; ')}), ` +
        `${retried.filter((c) => last(c).headers['idempotent-replayed'] === 'true').length} of them got the answer kept before the kill`,
    );
  }, 60_000);
});
