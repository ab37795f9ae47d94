// JSON answers over 1 KB are compressed for clients that accept it (brotli preferred, gzip, or
// nothing), decode to the same JSON, and say so in Content-Encoding and Vary; small answers and
// clients without Accept-Encoding get plain JSON. Security headers are on every answer.
import { accessFor } from '../helpers/accounts';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateEncoding } from '../../server/plugins/compress-json';
import { seedBusyPlayer } from '../helpers/bulk-players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe('Accept-Encoding negotiation', () => {
  it('prefers brotli, honours q-values and wildcards', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip, deflate, br;q=0')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=1, br;q=0.5')).toBe('gzip');
    expect(negotiateEncoding('x-gzip')).toBe('gzip');
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBeNull();
    expect(negotiateEncoding('deflate')).toBeNull();
    expect(negotiateEncoding('br;q=abc')).toBeNull();
    expect(negotiateEncoding(undefined)).toBeNull();
  });
});

describe.each(testDialects())('compressed JSON answers on %s', (dialect) => {
  let t: TestApp;
  let auth: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const id = await seedBusyPlayer(t.app.db, dialect);
    auth = { authorization: `Bearer ${await accessFor(t, id)}` };
  });
  afterAll(() => t.close());

  const sessions = (headers: Record<string, string>) =>
    t.app.inject({ method: 'GET', url: '/api/v1/mining/sessions/?page_size=25', headers: { ...auth, ...headers } });

  it('sends big answers as brotli or gzip, decoding to the plain answer', async () => {
    const plain = await sessions({});
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(plain.json().results).toHaveLength(25);

    const br = await sessions({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.body.length / 3);
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);

    const gz = await sessions({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString('utf8')).toBe(plain.body);

    const none = await sessions({ 'accept-encoding': 'identity' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(none.body).toBe(plain.body);
  });

  it('leaves small answers plain and puts the security headers on every answer', async () => {
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/v1/auth/me',
      headers: { ...auth, 'accept-encoding': 'br' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.headers['content-encoding']).toBeUndefined();
    for (const res of [me, await t.app.inject({ method: 'GET', url: '/api/v1/nope' })]) {
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });
});
