// Issue 16: every shipped article has its own generated cover (content/blog/covers, no external
// images), served by the blog routes as an image that cannot run anything.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('blog covers on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { BLOG_DIR: resolve(import.meta.dirname, '../../content/blog') });
  });
  afterAll(() => t.close());

  it('gives each shipped article, in both languages, a cover of its own that the server serves', async () => {
    for (const lang of ['en', 'ru']) {
      const list = (await t.app.inject({ method: 'GET', url: `/api/v1/blog/?lang=${lang}` })).json() as {
        id: string;
        cover: string | null;
      }[];
      expect(list.length).toBeGreaterThan(1);
      const covers = list.map((a) => a.cover);
      expect(new Set(covers).size).toBe(list.length);
      for (const a of list) {
        expect(a.cover).toBe(`/api/v1/blog/covers/${a.id}.svg`);
        const res = await t.app.inject({ method: 'GET', url: a.cover! });
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(res.headers['content-security-policy']).toContain("default-src 'none'");
        expect(res.body).toMatch(/^<svg /);
        expect(res.body).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
        expect(res.body.length).toBeLessThan(4096);
      }
    }
  });

  it('answers 404 for a missing cover and for names that are not slugs', async () => {
    for (const name of ['nope.svg', '..%2Fen%2Fboosts.md', 'boosts.png', 'Bad%20Name.svg']) {
      expect((await t.app.inject({ method: 'GET', url: `/api/v1/blog/covers/${name}` })).statusCode).toBe(404);
    }
  });
});
