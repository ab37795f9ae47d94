// The built app is served precompressed (issue 14): the .br (quality 11) and .gz (level 9) the build
// writes beside each file are sent as they are for clients that accept them, with the plain file for
// the others; hashed assets are cached for a year, index.html, the service worker and the manifest
// are revalidated on every visit, whichever copy is sent.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/vite-plugin-precompress';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Big and varied enough that every encoder's output differs (an on-the-fly brotli 4 is not quality 11's). */
const script = Array.from(
  { length: 400 },
  (_, i) => `export const value${i} = ${JSON.stringify({ i, text: `line ${(i * 7919) % 1000}` })};`,
).join('\n');
const html = `<!doctype html><html lang="en"><head><title>app</title></head><body><div id="root">${'<p>landing</p>'.repeat(200)}</div></body></html>`;

describe.each(testDialects())('the built app, precompressed, on %s', (dialect) => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pxt-static-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), html);
    writeFileSync(join(dir, 'assets', 'index-AbC123xy.js'), script);
    writeFileSync(
      join(dir, 'sw.js'),
      `self.__WB_MANIFEST = ${JSON.stringify(Array.from({ length: 60 }, (_, i) => ({ url: `/assets/c${i}.js`, revision: null })))};`,
    );
    writeFileSync(
      join(dir, 'manifest.webmanifest'),
      JSON.stringify({ name: 'PXT Companion', description: 'x'.repeat(600) }),
    );
    precompressDir(dir);
    t = await createTestApp(dialect, { STATIC_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, encoding?: string) =>
    t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });
  const file = (rel: string) => readFileSync(join(dir, rel));

  it('sends the brotli 11 copy of a hashed asset to a brotli client, immutable', async () => {
    const res = await get('/assets/index-AbC123xy.js', 'gzip, deflate, br, zstd');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.rawPayload.equals(file('assets/index-AbC123xy.js.br'))).toBe(true);
  });

  it('sends the gzip 9 copy to a gzip-only client and the plain file to the rest', async () => {
    const gz = await get('/assets/index-AbC123xy.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(gz.rawPayload.equals(file('assets/index-AbC123xy.js.gz'))).toBe(true);
    const plain = await get('/assets/index-AbC123xy.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('revalidates index.html (at / and on client routes), the service worker and the manifest every time', async () => {
    for (const url of ['/', '/index.html', '/miner']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.rawPayload.equals(file('index.html.br')), url).toBe(true);
    }
    for (const url of ['/sw.js', '/manifest.webmanifest']) {
      const res = await get(url, 'br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.rawPayload.equals(file(`${url.slice(1)}.br`)), url).toBe(true);
    }
  });
});
