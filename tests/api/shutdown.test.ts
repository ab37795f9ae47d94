// Graceful shutdown of the compiled server (what `npm run serve` runs): SIGTERM while password
// logins are being hashed and one login's body is still arriving must let every one of them finish
// with its full answer on its keep-alive connection, refuse new requests, close the database and
// exit 0. The server is built into .tmp/ by the same script as `npm run build`, so
// this also proves the compiled bundle starts, migrates and finds its files from the project root.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { type Database, openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { hashPassword } from '../../server/services/passwords';
import { createUser } from '../../server/services/users';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { createPgDatabase, testDialects } from '../helpers/test-app';

/** More logins than libuv's 4 hashing threads, so some wait in the queue when SIGTERM arrives. */
const LOGINS = 8;
/** scrypt cost of the stored hashes: each login takes a noticeable while (2^16: 64 MiB, ~0.1–0.3 s). */
const LOG_N = 16;
const PASSWORD = 'shutdown-secret-1';

interface Answer {
  /** HTTP status, or 0 when no connection was made. */
  status: number;
  body: unknown;
  connection: string | undefined;
}

/** POST /auth/login-by-email/; with holdBody only half the body is sent until finishBody(). */
function login(
  server: ServerProcess,
  agent: Agent,
  email: string,
  opts: { holdBody?: boolean } = {},
): Promise<Answer> & { finishBody?: () => void } {
  const body = JSON.stringify({ email, password: PASSWORD });
  const req = request(`${server.baseURL}/api/v1/auth/login-by-email/`, {
    method: 'POST',
    agent,
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answer: Promise<Answer> & { finishBody?: () => void } = new Promise((resolve) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, connection: res.headers.connection }),
      );
    });
    req.on('error', () => resolve({ status: 0, body: null, connection: undefined }));
  });
  const half = Math.floor(body.length / 2);
  if (opts.holdBody) {
    req.write(body.slice(0, half));
    answer.finishBody = () => req.end(body.slice(half));
  } else req.end(body);
  return answer;
}

/** Polls `done` until it holds (the test's own timeout bounds the wait). */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 10));
}

const outdir = join(ROOT, '.tmp', `dist-server-${randomBytes(4).toString('hex')}`);
beforeAll(() => buildServer(outdir), 60_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

describe.each(testDialects())('graceful shutdown on %s', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-shutdown-'));
  let database: Database;
  let dropPg: (() => Promise<void>) | null = null;
  let env: Record<string, string>;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    let databaseUrl: string | null = null;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      dropPg = created.drop;
    }
    database = openDatabase({ databaseUrl, dataDir });
    await migrate(database);
    env = {
      NODE_ENV: 'test',
      // Info level: the test waits for the server's own "incoming request" lines.
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      SCRYPT_LOG_N: String(LOG_N),
      // Every login comes from one loopback address: let the hash queue hold them all, so the
      // requests are in flight (hashing or waiting) when SIGTERM arrives rather than refused.
      HASH_QUEUE_PER_CLIENT: '16',
      APP_URL: 'http://app.test',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
  });

  afterAll(async () => {
    await server?.kill();
    await database?.close();
    await dropPg?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes every login in flight, refuses new requests, then exits 0', async () => {
    const hash = await hashPassword(PASSWORD, LOG_N);
    const emails = Array.from({ length: LOGINS + 1 }, (_, i) => `shutdown-${dialect}-${i}@example.com`);
    for (const email of emails) await createUser(database.db, { email, emailConfirmed: true, passwordHash: hash });

    server = await startServerProcess({ env, compiled: join(outdir, 'main.js'), readyPath: '/readyz' });
    const running = server;
    // Keep-alive connections, as browsers and proxies use: the server must close them itself.
    const agent = new Agent({ keepAlive: true });
    const logins = emails.slice(0, LOGINS).map((email) => login(running, agent, email));
    // One login whose body is still arriving when SIGTERM comes: in flight for certain.
    const slow = login(running, agent, emails[LOGINS], { holdBody: true });

    const logged = (text: string) =>
      running
        .log()
        .split('\n')
        .filter((l) => l.includes(text));
    await until(
      () => logged('"incoming request"').filter((l) => l.includes('/auth/login-by-email/')).length === LOGINS + 1,
    );
    process.kill(running.pid, 'SIGTERM');
    await until(() => logged('closing: new requests are refused').length === 1);

    // Closing: a new request gets a 503 or no connection at all, never an answer.
    const late = await login(running, new Agent({ keepAlive: false }), emails[0]);
    expect([0, 503]).toContain(late.status);
    if (late.status === 503)
      expect(late.body).toEqual({ detail: 'The server is restarting; try again.', code: 'shutting_down' });

    slow.finishBody!();
    const answers = await Promise.all([...logins, slow]);
    const { code, signal } = await running.exited;
    server = null;

    expect(
      answers.map((a) => a.status),
      JSON.stringify(answers),
    ).toEqual(emails.map(() => 200));
    for (const a of answers) expect(a.body).toMatchObject({ access: expect.any(String), refresh: expect.any(String) });
    // Answered while closing: the connection is closed after it instead of kept alive.
    expect((await slow).connection).toBe('close');
    expect({ code, signal }, running.log().slice(-3000)).toEqual({ code: 0, signal: null });
    // Every refresh token handed out was stored before the database closed.
    const stored = await database.db
      .selectFrom('refresh_tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(LOGINS + 1);
    agent.destroy();
  }, 60_000);
});
