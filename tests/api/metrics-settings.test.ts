// Where the Prometheus metrics are served (decisions §12): METRICS_PORT and METRICS_HOST, never the
// public port, and no listener at all without METRICS_PORT. The counters: metrics.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { createTestApp } from '../helpers/test-app';

describe('metrics settings', () => {
  it('are off without METRICS_PORT, and refused on the public port', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-metrics-'));
    try {
      expect(loadConfig({ DATA_DIR: dataDir }).metrics).toBeNull();
      expect(loadConfig({ DATA_DIR: dataDir, METRICS_PORT: '9464' }).metrics).toEqual({
        port: 9464,
        host: '127.0.0.1',
      });
      expect(
        loadConfig({ DATA_DIR: dataDir, METRICS_PORT: '9464', HOST: '0.0.0.0', METRICS_HOST: '10.0.0.5' }).metrics,
      ).toEqual({ port: 9464, host: '10.0.0.5' });
      expect(loadConfig({ DATA_DIR: dataDir, METRICS_PORT: '9464', HOST: '0.0.0.0' }).metrics).toEqual({
        port: 9464,
        host: '0.0.0.0',
      });
      expect(() => loadConfig({ DATA_DIR: dataDir, PORT: '8080', METRICS_PORT: '8080' })).toThrow(/METRICS_PORT/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('an app without METRICS_PORT opens no listener', async () => {
    const t = await createTestApp('sqlite');
    try {
      expect(t.app.metrics.address()).toBeNull();
    } finally {
      await t.close();
    }
  });
});

describe('the public port serving the app', () => {
  it('answers /metrics with a plain 404, not the app page every client route gets', async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'pxt-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    const t = await createTestApp('sqlite', { STATIC_DIR: staticDir, METRICS_PORT: '0' });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/miner' })).headers['content-type']).toMatch(/text\/html/);
      for (const url of ['/metrics', '/metrics/', '/metrics?x=1']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ code: 'not_found' });
      }
    } finally {
      await t.close();
      rmSync(staticDir, { recursive: true, force: true });
    }
  });
});
