// Which built page a navigation gets (issue 25): `/` the prerendered landing (index.html), `/blog`
// its prerendered list (blog.html), every other client route the shell without a page (app.html),
// so a signed-in /miner no longer downloads, parses and lays out the landing to throw it away. A
// build without the shell (PRERENDER_LANDING=0) answers every route with index.html, as before.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompressDir } from '../../scripts/vite-plugin-precompress';
import { createTestApp, type TestApp } from '../helpers/test-app';

const page = (mark: string) =>
  `<!doctype html><html lang="en"><head><title>${mark}</title></head><body><div id="root">${`<p>${mark}</p>`.repeat(80)}</div></body></html>`;

function buildDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-pages-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  precompressDir(dir);
  return dir;
}

const titleOf = (body: string) => /<title>([^<]*)<\/title>/.exec(body)?.[1];

describe('the page each navigation gets', () => {
  let full: TestApp;
  let plain: TestApp;
  const dirs: string[] = [];
  beforeAll(async () => {
    dirs.push(buildDir({ 'index.html': page('landing'), 'blog.html': page('blog'), 'app.html': page('shell') }));
    dirs.push(buildDir({ 'index.html': page('landing') }));
    full = await createTestApp('sqlite', { STATIC_DIR: dirs[0] });
    plain = await createTestApp('sqlite', { STATIC_DIR: dirs[1] });
  });
  afterAll(async () => {
    await full?.close();
    await plain?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const get = (t: TestApp, url: string, encoding = '') =>
    t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': encoding } });

  it.each([
    ['/', 'landing'],
    ['/?refCode=ABC123', 'landing'],
    ['/blog', 'blog'],
    ['/blog/', 'blog'],
    ['/miner', 'shell'],
    ['/tasks', 'shell'],
    ['/article?slug=welcome', 'shell'],
    ['/profile/', 'shell'],
  ])('%s gets the %s page, revalidated on every visit', async (url, mark) => {
    const res = await get(full, url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(titleOf(res.body)).toBe(mark);
  });

  it('sends the shell precompressed to a brotli client, as the other pages', async () => {
    const res = await get(full, '/miner', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
  });

  it('answers every client route with index.html in a build without the shell', async () => {
    for (const url of ['/', '/miner', '/blog']) expect(titleOf((await get(plain, url)).body)).toBe('landing');
  });

  it('never answers the API, /metrics or a missing file with a page', async () => {
    for (const url of ['/api/v1/nothing/', '/metrics', '/assets/missing.js', '/app.js']) {
      const res = await get(full, url);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/json/);
    }
  });
});
