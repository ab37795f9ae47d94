// The request-rate limits' settings (RATE_LIMITS, RATE_LIMIT_FACTOR), and their counters on
// PostgreSQL, which every process shares (plugins/rate-limits.ts, decisions §12).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { openDatabase } from '../../server/db/database';
import { RATE_LIMITS_PER_MINUTE as LIMITS } from '../../server/plugins/rate-limits';
import { hitRateLimit } from '../../server/services/rate-limit-store';
import { API, otherIp } from '../helpers/accounts';
import { type Answer, expectRateLimited, RATE_LIMITS_ON as ON, statuses } from '../helpers/rate-limit-answers';
import { createPgDatabase, testDialects } from '../helpers/test-app';

describe('RATE_LIMITS and RATE_LIMIT_FACTOR', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-rate-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const load = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, ...env });

  it('are on, at the documented numbers, unless set; anything but on, off or a positive factor stops the start', () => {
    expect(load({})).toMatchObject({ rateLimits: true, rateLimitFactor: 1 });
    expect(load({ RATE_LIMITS: 'off', RATE_LIMIT_FACTOR: '2.5' })).toMatchObject({
      rateLimits: false,
      rateLimitFactor: 2.5,
    });
    expect(() => load({ RATE_LIMITS: 'false' })).toThrow(/RATE_LIMITS must be "on" or "off"/);
    expect(() => load({ RATE_LIMIT_FACTOR: '0' })).toThrow(/RATE_LIMIT_FACTOR must be a number > 0/);
  });
});

describe.runIf(testDialects().includes('postgres'))('request-rate limits shared by processes on PostgreSQL', () => {
  let pgDb: Awaited<ReturnType<typeof createPgDatabase>>;
  const apps: FastifyInstance[] = [];
  const dirs: string[] = [];

  /** An app as a separate process would run it: its own config, pool and in-memory state. */
  async function instance(): Promise<FastifyInstance> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-test-'));
    dirs.push(dataDir);
    const config = loadConfig({
      NODE_ENV: 'test',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      WORKER_INTERVAL_MS: '0',
      APP_URL: 'http://app.test',
      DATABASE_URL: pgDb.url,
      ...ON,
    });
    const app = await buildApp(config, { logger: false });
    await app.ready();
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    pgDb = await createPgDatabase();
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
    await pgDb?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('two app instances on one database share the counters', async () => {
    const both = [await instance(), await instance()];
    const ip = otherIp();
    const refresh = (app: FastifyInstance, i: number) =>
      app.inject({
        method: 'POST',
        url: `${API}/auth/refresh/`,
        payload: { refresh: `guess-${i}` },
        remoteAddress: ip,
      });
    const answers: Answer[] = [];
    for (let i = 0; i < LIMITS.refresh; i++) answers.push(await refresh(both[i % 2], i));
    expect(statuses(answers)).toEqual(Array(LIMITS.refresh).fill(401));
    // Each one saw half of the calls; together they reached the limit, and both refuse the next.
    expectRateLimited(await refresh(both[0], -1));
    expectRateLimited(await refresh(both[1], -2));
  });

  it('counts parallel hits on one key from two pools exactly once each', async () => {
    const other = openDatabase({ databaseUrl: pgDb.url, dataDir: tmpdir(), poolSize: 5 });
    try {
      const a = await instance();
      const now = Date.now();
      const counts = await Promise.all(
        Array.from({ length: 40 }, (_, i) => hitRateLimit(i % 2 ? a.db : other.db, 'test:parallel', 60_000, now)),
      );
      expect(counts.map((c) => c.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    } finally {
      await other.close();
    }
  });
});
