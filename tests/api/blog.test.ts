import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

function article(title: string, date: string, body: string, extra = ''): string {
  return `---\ntitle: ${title}\ndate: ${date}\nsummary: About ${title}\n${extra}---\n\n${body}\n`;
}

function writeBlog(dir: string) {
  mkdirSync(join(dir, 'en'), { recursive: true });
  mkdirSync(join(dir, 'ru'), { recursive: true });
  writeFileSync(join(dir, 'en', 'alpha.md'), article('Alpha', '2026-01-01', '# Alpha\n\nFirst *post*.'));
  writeFileSync(join(dir, 'ru', 'alpha.md'), article('Альфа', '2026-01-01', '# Альфа\n\nПервый *пост*.'));
  writeFileSync(
    join(dir, 'en', 'beta.md'),
    article('Beta', '2026-02-01', 'Only in English.', 'cover: /covers/beta.png\n'),
  );
  writeFileSync(
    join(dir, 'en', 'evil.md'),
    article(
      'Evil',
      '2025-12-01',
      [
        'Hello <script>alert("s")</script> world.',
        '',
        '<img src="x.png" onerror="alert(\'i\')">',
        '',
        '[click](javascript:alert(1)) and <a href="JAVASCRIPT:alert(2)">upper</a> and [ok](https://example.com/page)',
        '',
        '<iframe src="https://evil.example"></iframe><div onclick="alert(3)">div text</div>',
        '',
        '![pic](data:image/png;base64,AAAA)',
      ].join('\n'),
    ),
  );
  // Skipped, never served: no front matter, and a name that is not a slug.
  writeFileSync(join(dir, 'en', 'broken.md'), 'just text, no front matter');
  writeFileSync(join(dir, 'en', 'Bad Name.md'), article('Bad', '2026-01-01', 'text'));
  writeFileSync(join(dir, 'en', 'notes.txt'), 'not an article');
}

describe.each(testDialects())('blog on %s', (dialect) => {
  let t: TestApp;
  let blogDir: string;
  beforeAll(async () => {
    blogDir = mkdtempSync(join(tmpdir(), 'pxt-blog-'));
    writeBlog(blogDir);
    t = await createTestApp(dialect, { BLOG_DIR: blogDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(blogDir, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  it('lists English articles newest first without a token, skipping broken files', async () => {
    const res = await get('/api/v1/blog/');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: 'beta',
        lang: 'en',
        title: 'Beta',
        summary: 'About Beta',
        date: '2026-02-01T00:00:00.000Z',
        cover: '/covers/beta.png',
      },
      {
        id: 'alpha',
        lang: 'en',
        title: 'Alpha',
        summary: 'About Alpha',
        date: '2026-01-01T00:00:00.000Z',
        cover: null,
      },
      { id: 'evil', lang: 'en', title: 'Evil', summary: 'About Evil', date: '2025-12-01T00:00:00.000Z', cover: null },
    ]);
    expect(res.json()[0]).not.toHaveProperty('html');
  });

  it('lists Russian versions where they exist and falls back to English', async () => {
    const res = await get('/api/v1/blog/?lang=ru');
    expect(res.statusCode).toBe(200);
    expect(res.json().map((a: { id: string; lang: string; title: string }) => [a.id, a.lang, a.title])).toEqual([
      ['beta', 'en', 'Beta'],
      ['alpha', 'ru', 'Альфа'],
      ['evil', 'en', 'Evil'],
    ]);
  });

  it('refuses an unknown language with 400', async () => {
    const res = await get('/api/v1/blog/?lang=de');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid');
  });

  it('serves an article as HTML in the asked language', async () => {
    const ru = await get('/api/v1/blog/alpha/?lang=ru');
    expect(ru.statusCode).toBe(200);
    expect(ru.json()).toEqual({
      id: 'alpha',
      lang: 'ru',
      title: 'Альфа',
      summary: 'About Альфа',
      date: '2026-01-01T00:00:00.000Z',
      cover: null,
      html: '<h1>Альфа</h1>\n<p>Первый <em>пост</em>.</p>',
    });
    const en = await get('/api/v1/blog/alpha/');
    expect(en.json()).toMatchObject({
      lang: 'en',
      title: 'Alpha',
      html: '<h1>Alpha</h1>\n<p>First <em>post</em>.</p>',
    });
    const fallback = await get('/api/v1/blog/beta/?lang=ru');
    expect(fallback.json()).toMatchObject({ id: 'beta', lang: 'en', html: '<p>Only in English.</p>' });
  });

  it('answers 404 for unknown and skipped articles', async () => {
    for (const id of ['nope', 'broken', 'Bad%20Name', 'notes', '..%2F..%2Fpackage']) {
      const res = await get(`/api/v1/blog/${id}/`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().code).toBe('not_found');
    }
  });

  it('strips scripts, event handlers and javascript: links from the HTML', async () => {
    const res = await get('/api/v1/blog/evil/');
    expect(res.statusCode).toBe(200);
    const html: string = res.json().html;
    expect(html).not.toMatch(/<script|alert\("s"\)|onerror|onclick|javascript:|<iframe|data:image/i);
    expect(html).toContain('Hello  world.');
    expect(html).toContain('<img src="x.png" />');
    expect(html).toContain('<a>click</a>');
    expect(html).toContain('<a>upper</a>');
    expect(html).toContain('<a href="https://example.com/page" rel="noopener noreferrer" target="_blank">ok</a>');
    expect(html).toContain('div text');
  });

  it('picks up new files on SIGHUP', async () => {
    writeFileSync(join(blogDir, 'en', 'gamma.md'), article('Gamma', '2026-03-01', 'New.'));
    expect((await get('/api/v1/blog/gamma/')).statusCode).toBe(404);
    process.emit('SIGHUP', 'SIGHUP');
    const res = await get('/api/v1/blog/gamma/');
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Gamma');
    expect((await get('/api/v1/blog/')).json()[0].id).toBe('gamma');
  });
});

describe.each(testDialects())('the articles that ship with the app on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('has at least four articles, each in English and Russian', async () => {
    const en = (await t.app.inject({ method: 'GET', url: '/api/v1/blog/?lang=en' })).json();
    const ru = (await t.app.inject({ method: 'GET', url: '/api/v1/blog/?lang=ru' })).json();
    expect(en.length).toBeGreaterThanOrEqual(4);
    expect(ru.map((a: { id: string }) => a.id).sort()).toEqual(en.map((a: { id: string }) => a.id).sort());
    expect(en.every((a: { lang: string }) => a.lang === 'en')).toBe(true);
    expect(ru.every((a: { lang: string }) => a.lang === 'ru')).toBe(true);
    for (const { id } of ru) {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1/blog/${id}/?lang=ru` });
      expect(res.statusCode).toBe(200);
      expect(res.json().html).toMatch(/[а-яё]{4,}/i);
      expect(res.json().html.length).toBeGreaterThan(1500);
    }
  });
});
