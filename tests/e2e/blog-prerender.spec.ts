// The blog's list is in the HTML (issue 25): /blog paints its articles' titles, covers and summaries
// before any script runs, in the visitor's language, and the app then hydrates it without an error
// and without moving it.
import { expect, test } from './fixtures';
import { holdAppEntry } from './helpers';
import { text } from './locale-text';

type Summary = { id: string; title: string; summary: string; cover: string | null };

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test("/blog's HTML has every article's title, summary and cover, as the API lists them", async ({
    page,
    request,
  }) => {
    const list = (await (await request.get('/api/v1/blog/?lang=en')).json()) as Summary[];
    expect(list.length).toBeGreaterThan(0);
    await page.goto('/blog');
    const cards = page.locator('.blog-card');
    await expect(cards).toHaveCount(list.length);
    for (const [i, article] of list.entries()) {
      await expect(cards.nth(i).getByRole('heading', { level: 2 })).toHaveText(article.title);
      await expect(cards.nth(i).locator('.blog-card__summary')).toHaveText(article.summary);
      if (article.cover) await expect(cards.nth(i).locator('img')).toHaveAttribute('src', article.cover);
    }
  });
});

test.describe("before the app's scripts (only the inline pre-paint scripts run)", () => {
  test.beforeEach(async ({ page }) => {
    await page.route('**/assets/*.js', (route) => route.abort());
  });

  test('a stored choice `ru` paints the Russian list', async ({ page, request }) => {
    const list = (await (await request.get('/api/v1/blog/?lang=ru')).json()) as Summary[];
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'ru'));
    await page.goto('/blog');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.locator('.blog-card__title')).toHaveText(list.map((a) => a.title));
    await expect(page.locator('template')).toHaveCount(0);
  });

  test('a signed-in player gets no prerendered page (the app renders theirs)', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('pxt.accessToken', 'x'));
    await page.goto('/blog');
    await expect(page.locator('#root')).toBeEmpty();
    await expect(page.locator('script[data-prerendered-data]')).toHaveCount(0);
  });
});

for (const lang of ['en', 'ru'] as const) {
  test(`with JavaScript (${lang}) the list hydrates without errors or layout shift, and works`, async ({
    page,
    request,
  }) => {
    const list = (await (await request.get(`/api/v1/blog/?lang=${lang}`)).json()) as Summary[];
    await page.addInitScript((l) => {
      localStorage.setItem('i18nextLng', l);
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((entries) => {
        // As CLS counts them: not the shifts right after an input (the dialog a click opens).
        for (const e of entries.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
          if (!e.hadRecentInput) (window as unknown as { shifts: number }).shifts += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    }, lang);
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const listCalls: string[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/v1/blog/?')) listCalls.push(r.url());
    });
    await page.goto('/blog');
    const first = page.locator('.blog-card__title').first();
    await expect(first).toHaveText(list[0].title);
    // The painted heading element is the one React owns after hydrating (not a re-render).
    await first.evaluate((el) => ((el as HTMLElement & { painted?: boolean }).painted = true));
    await expect.poll(() => listCalls.length, { timeout: 15_000 }).toBeGreaterThan(0);
    // A visitor's click on a card asks them to sign in: React handles it.
    await page.locator('.blog-card__link').first().click();
    await expect(page.getByRole('dialog')).toBeVisible({ timeout: 15_000 });
    expect(await first.evaluate((el) => (el as HTMLElement & { painted?: boolean }).painted)).toBe(true);
    await expect(page.locator('.blog-card__title')).toHaveText(list.map((a) => a.title));
    expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
    expect(errors).toEqual([]);
  });
}

test('an article tapped before the app has started opens the sign-in over the list once it has, not the landing', async ({
  page,
  baseURL,
}) => {
  // The app's entry is held back until the tap is made: the list is on screen, nothing hydrated yet.
  const release = await holdAppEntry(page);
  await page.goto('/blog', { waitUntil: 'commit' });
  const first = page.locator('.blog-card a.blog-card__link').first();
  await expect(first).toBeVisible();
  await first.click({ noWaitAfter: true });
  // Held, not loaded natively (a guarded article sent a visitor to /).
  await expect(page).toHaveURL(`${baseURL}/blog`);
  release();
  await expect(page.getByRole('dialog', { name: text('en', 'auth:main.title') })).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/blog`);
});

test('after one online visit, the service worker answers /blog offline with the prerendered list', async ({
  page,
  context,
  server,
}) => {
  await page.goto('/blog');
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const titles = await page.locator('.blog-card__title').allTextContents();
  expect(titles.length).toBeGreaterThan(0);
  await page.close();

  await context.setOffline(true);
  await server.halt();
  const cold = await context.newPage();
  await cold.goto('/blog');
  // blog.html from the precache (index.html would carry the landing's mark).
  await expect(cold.locator('#root')).toHaveAttribute('data-prerendered', '/blog');
  await expect(cold.locator('.blog-card__title')).toHaveText(titles);
  await server.restart();
  await context.setOffline(false);
});
