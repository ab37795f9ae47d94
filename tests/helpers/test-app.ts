// Builds the real app on a throw-away database for API tests: SQLite in a temp folder, or a fresh
// PostgreSQL database on the cluster scripts/test.sh started (PG_TEST_URL). Requests go through
// `app.inject`, so tests exercise routing, validation, hooks and the error handler for real.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import type { Dialect } from '../../server/db/schema';

/** The databases API tests run on: SQLite always, PostgreSQL when the test script started one. */
export function testDialects(): Dialect[] {
  if (process.env.PG_TEST_URL) return ['sqlite', 'postgres'];
  if (process.env.CI)
    throw new Error('PG_TEST_URL is not set: run the tests through `npm test`, which starts PostgreSQL');
  return ['sqlite'];
}

export interface TestApp {
  app: FastifyInstance;
  dataDir: string;
  dialect: Dialect;
  /**
   * `app.inject` as the server has it: resolves with the answer, while mails and other work the route
   * left for after the reply (server/plugins/after-reply.ts) may still run. `app.inject` itself is
   * wrapped to wait for that work too, so a test can read the outbox right after a call.
   */
  injectNow(opts: InjectOptions): Promise<LightMyRequestResponse>;
  /** Mails written to the outbox so far, oldest first, as raw .eml text. */
  outbox(): string[];
  close(): Promise<void>;
}

export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = new pg.Client({ connectionString: process.env.PG_TEST_URL });
  await admin.connect();
  const name = `t_${randomBytes(6).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.PG_TEST_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: process.env.PG_TEST_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/**
 * `beforeReady` may add hooks to the app before it boots (fault tests use it to fail a request at a
 * chosen point, as a crash would); `build` passes build options (a log stream to read the logs).
 */
export async function createTestApp(
  dialect: Dialect,
  env: Record<string, string> = {},
  beforeReady?: (app: FastifyInstance) => void,
  build: BuildOptions = { logger: false },
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-test-'));
  const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    STATIC_DIR: '',
    WORKER_INTERVAL_MS: '0',
    APP_URL: 'http://app.test',
    SCRYPT_LOG_N: '14',
    // Tests sign up many players from one address; tests of the sign-up limit set it.
    SIGNUP_LIMIT_PER_HOUR: '0',
    // Every request comes from 127.0.0.1, hundreds a minute; tests of the request-rate limits turn them on.
    RATE_LIMITS: 'off',
    ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    ...env,
  });
  const app = await buildApp(config, build);
  beforeReady?.(app);
  await app.ready();
  const inject = app.inject.bind(app) as (opts: InjectOptions) => Promise<LightMyRequestResponse>;
  const waiting = async (opts: InjectOptions) => {
    const res = await inject(opts);
    await app.afterReplySettled();
    return res;
  };
  Object.defineProperty(app, 'inject', { value: waiting, configurable: true, writable: true });
  const outboxDir = join(dataDir, 'outbox');
  return {
    app,
    dataDir,
    dialect,
    injectNow: inject,
    outbox() {
      let files: string[] = [];
      try {
        files = readdirSync(outboxDir)
          .filter((f) => f.endsWith('.eml'))
          .sort();
      } catch {
        return [];
      }
      return files.map((f) => readFileSync(join(outboxDir, f), 'utf8'));
    },
    async close() {
      await app.close();
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
