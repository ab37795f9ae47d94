// GET /healthz and /readyz (decisions §12): cheap JSON probes outside /api/v1/, 503 from /readyz
// when the database is closed or a migration is missing, and no request log lines at info level.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { loadConfig } from '../../server/config';
import { type Database, openDatabase } from '../../server/db/database';
import type { Dialect } from '../../server/db/schema';
import { createPgDatabase, testDialects } from '../helpers/test-app';

interface ProbeApp {
  app: FastifyInstance;
  database: Database;
  logLines: string[];
}

describe.each(testDialects())('probes on %s', (dialect: Dialect) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  /** The real app on a database this test owns (so it can close it under the app), logging at info. */
  async function probeApp(): Promise<ProbeApp> {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-probes-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
    if (pgDb) cleanups.push(pgDb.drop);
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      WORKER_INTERVAL_MS: '0',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    });
    const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir, poolSize: 2 });
    let closed = false;
    const close = async () => {
      if (!closed) await database.close();
      closed = true;
    };
    const logLines: string[] = [];
    const app = await buildApp(config, { database, logStream: { write: (line) => logLines.push(line) } });
    await app.ready();
    cleanups.push(close, () => app.close());
    return { app, database: { ...database, close }, logLines };
  }

  it('answers /healthz and /readyz with 200 JSON while the database is up', async () => {
    const { app } = await probeApp();
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
    expect(ready.headers['cache-control']).toBe('no-store');
  });

  it('answers /readyz 503 once the database is closed, while /healthz stays 200', async () => {
    const { app, database } = await probeApp();
    await database.close();
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({
      status: 'unavailable',
      detail: 'The database does not answer',
      code: 'database_unavailable',
    });
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
  });

  it('answers /readyz 503 while a migration the code needs is not recorded', async () => {
    const { app, database } = await probeApp();
    await sql`delete from kysely_migration where name = ${'008-username-key'}`.execute(database.db);
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({
      status: 'unavailable',
      code: 'migrations_pending',
      detail: 'Migrations pending: 008-username-key',
    });
  });

  it('keeps probe calls out of the request log at info level, unlike API calls', async () => {
    const { app, logLines } = await probeApp();
    for (const url of ['/healthz', '/readyz', '/api/v1/config/'])
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const urls = logLines
      .map((l) => JSON.parse(l))
      .filter((l) => l.req?.url)
      .map((l) => l.req.url);
    expect(urls).toContain('/api/v1/config/');
    expect(urls).not.toContain('/healthz');
    expect(urls).not.toContain('/readyz');
  });

  it('keeps the probes outside the API and its documentation', async () => {
    const { app } = await probeApp();
    expect((await app.inject({ method: 'GET', url: '/api/v1/healthz' })).statusCode).toBe(404);
    const docs = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(Object.keys(docs.json().paths)).not.toContain('/healthz');
  });
});
