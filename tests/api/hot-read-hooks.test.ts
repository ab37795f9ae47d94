// What every call pays before and after its handler (issue 14: /auth/me at 0.8 of its limit route):
// the hooks a read runs are the ones it needs, and each does its work once. The checks themselves
// (401 without a token, security headers, compression) have their own tests; these hold the shape
// of the pipeline, which `npm run bench` measures.
import { brotliDecompressSync } from 'node:zlib';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** The hooks `printRoutes` lists for one route and method, by hook name. */
function hooksOf(app: TestApp['app'], path: string, method: string): Record<string, string[]> {
  const lines = app.printRoutes({ includeHooks: true, commonPrefix: false }).split('\n');
  const at = lines.findIndex((l) => l.includes(` ${path} (${method})`));
  expect(at, `${method} ${path} in printRoutes`).toBeGreaterThan(-1);
  const hooks: Record<string, string[]> = {};
  for (const line of lines.slice(at + 1)) {
    const m = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (!m) break;
    hooks[m[1]] = JSON.parse(m[2]) as string[];
  }
  return hooks;
}

describe.each(testDialects())('the hooks of a read on %s', (dialect) => {
  let t: TestApp;
  let headersAtSend: { onReply: unknown; onRaw: boolean } | null = null;
  beforeAll(async () => {
    t = await createTestApp(dialect, { BLOG_DIR: resolve(import.meta.dirname, '../../content/blog') }, (app) => {
      app.addHook('onSend', (request, reply, payload, done) => {
        if (request.url === '/api/v1/auth/me')
          headersAtSend = {
            onReply: reply.getHeader('x-content-type-options'),
            onRaw: reply.raw.hasHeader('x-content-type-options'),
          };
        done(null, payload);
      });
    });
  });
  afterAll(() => t.close());

  it('GET /auth/me runs one compression hook and no request decompression; a POST keeps its decompression', () => {
    const me = hooksOf(t.app, '/api/v1/auth/me', 'GET');
    // One onSend hook decides for both the JSON compression and @fastify/compress.
    expect(me.onSend.filter((h) => h === 'compressAnswer()')).toHaveLength(1);
    expect(me.onSend).not.toContain('onSend()');
    // A GET body is never read: no decompression hook.
    expect(me.preParsing ?? []).toEqual([]);
    expect(hooksOf(t.app, '/api/v1/auth/complete-registration', 'PATCH').preParsing).toContain('preParsing()');
  });

  it('checks the sign-in with a callback hook, not an async one', async () => {
    expect(t.app.requireUser.constructor.name).not.toBe('AsyncFunction');
    expect(t.app.requireUser.length).toBe(3);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/auth/me' })).statusCode).toBe(401);
    const p = await createPlayer(t);
    expect((await apiCall(t, p, 'GET', '/auth/me')).statusCode).toBe(200);
  });

  it('hands the security headers to Fastify’s reply, which writes them with its own', async () => {
    const p = await createPlayer(t);
    headersAtSend = null;
    const res = await apiCall(t, p, 'GET', '/auth/me');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(headersAtSend).toEqual({ onReply: 'nosniff', onRaw: false });
  });

  it('still compresses what only @fastify/compress handles (a blog cover, sent as a buffer)', async () => {
    const url = '/api/v1/blog/covers/boosts.svg';
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
  });
});
