// Decisions §15: a known path called with another method answers 405 `method_not_allowed` with
// `Allow` (the methods it takes) in the API's error shape; an unknown path stays a 404, and the
// app's catch-all file route does not make every path known.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const API = '/api/v1';
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

describe.each(testDialects())('another method on a known path on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('answers 405 with Allow for calls the document lists, and the documented methods are exactly Allow', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!path.startsWith(`${API}/`)) continue;
      const url = path.replace(/\{[^}]+\}/g, '7');
      const documented = Object.keys(ops).map((m) => m.toUpperCase());
      const expected = new Set(documented.flatMap((m) => (m === 'GET' ? ['GET', 'HEAD'] : [m])));
      for (const method of METHODS.filter((m) => !expected.has(m))) {
        const res = await t.app.inject({ method: method as InjectOptions['method'], url });
        expect(res.statusCode, `${method} ${url}`).toBe(405);
        expect(new Set(res.headers.allow?.toString().split(', ')), `${method} ${url}`).toEqual(expected);
        if (method !== 'HEAD')
          expect(res.json()).toMatchObject({ code: 'method_not_allowed', detail: expect.stringContaining(method) });
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(200);
  });

  it('finds the path with or without its trailing slash and with a query', async () => {
    for (const url of [`${API}/auth/me`, `${API}/auth/me/`, `${API}/auth/me?x=1`, `${API}/auth/sessions/12/?a=b`]) {
      const res = await t.app.inject({ method: 'PUT', url });
      expect(res.statusCode, url).toBe(405);
    }
    const res = await t.app.inject({ method: 'GET', url: `${API}/auth/login/` });
    expect(res.headers.allow).toBe('POST');
    expect(res.json()).toEqual({
      detail: 'GET is not allowed on /api/v1/auth/login/; it takes POST',
      code: 'method_not_allowed',
    });
  });

  it('keeps 404 for unknown paths', async () => {
    for (const [method, url] of [
      ['GET', `${API}/no/such/`],
      ['POST', `${API}/auth/nothing/`],
      ['DELETE', '/nowhere'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.headers.allow).toBeUndefined();
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
  });
});

describe('with the app served', () => {
  it('the catch-all file route makes no path known: POST to a client route or an unknown API path is a 404', async () => {
    const staticDir = mkdtempSync(join(tmpdir(), 'pxt-static-'));
    writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>app</title>');
    const t = await createTestApp('sqlite', { STATIC_DIR: staticDir });
    try {
      expect((await t.app.inject({ method: 'GET', url: '/miner' })).statusCode).toBe(200);
      for (const url of ['/miner', `${API}/no/such/`]) {
        const res = await t.app.inject({ method: 'POST', url });
        expect(res.statusCode, url).toBe(404);
      }
      expect((await t.app.inject({ method: 'POST', url: `${API}/auth/me` })).statusCode).toBe(405);
    } finally {
      await t.close();
      rmSync(staticDir, { recursive: true, force: true });
    }
  });
});
