// The landing page is in the HTML (issue 14): it paints before any script runs, in the visitor's
// language, and the app then hydrates it without a hydration error.
import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { holdAppEntry } from './helpers';

const ruLanding = JSON.parse(readFileSync('public/locales/ru/landing.json', 'utf8')) as {
  hero: { title: string; cta: string };
};

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('/ has its headline, lead, sections and call to action in the HTML', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Mine PXT.');
    await expect(page.getByTestId('landing-cta')).toHaveText('Start mining');
    await expect(page.getByRole('heading', { name: 'What is PXT mining?' })).toBeVisible();
    await expect(page.getByRole('contentinfo')).toContainText('Discord');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /PXT/);
  });
});

test.describe("before the app's scripts (only the inline pre-paint scripts run)", () => {
  test.beforeEach(async ({ page }) => {
    // The app's module scripts never arrive: what shows is what the HTML and its inline scripts paint.
    await page.route('**/assets/*.js', (route) => route.abort());
  });

  test('a stored choice `ru` paints the Russian landing', async ({ page }) => {
    await page.addInitScript(() => localStorage.setItem('i18nextLng', 'ru'));
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(ruLanding.hero.title);
    await expect(page.getByTestId('landing-cta')).toHaveText(ruLanding.hero.cta);
    await expect(page.locator('template')).toHaveCount(0);
  });

  test('browser languages `de, ru` paint the Russian landing; `de` keeps the English', async ({ page, browser }) => {
    await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'ru-RU'] }));
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toContainText(ruLanding.hero.title);
    const context = await browser.newContext({ locale: 'de-DE' });
    const german = await context.newPage();
    await german.route('**/assets/*.js', (route) => route.abort());
    await german.goto(page.url());
    await expect(german.getByRole('heading', { level: 1 })).toContainText('Mine PXT.');
    await context.close();
  });
});

test('with JavaScript the landing renders (or hydrates) without errors and works', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Mine PXT.');
  // The CTA opens the sign-in dialog once React owns the page.
  await page.getByTestId('landing-cta').click();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible({ timeout: 15_000 });
  expect(errors).toEqual([]);
});

test('browser languages `de, ru`: the Russian landing is painted, preloaded and hydrated (one detection)', async ({
  page,
}) => {
  await page.addInitScript(() => Object.defineProperty(navigator, 'languages', { get: () => ['de-DE', 'ru-RU'] }));
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  const locales: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/locales/')) locales.push(new URL(r.url()).pathname);
  });
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ru');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(ruLanding.hero.title);
  await page.getByTestId('landing-cta').click();
  await expect(page.getByRole('dialog')).toBeVisible({ timeout: 15_000 });
  // The pre-paint preloads follow the same detection (the old script preloaded English here).
  const preloads = await page
    .locator('link[rel=preload][href^="/locales/"]')
    .evaluateAll((links) => links.map((l) => l.getAttribute('href')));
  expect(preloads).toEqual(['/locales/ru/common.json', '/locales/ru/errors.json', '/locales/ru/landing.json']);
  expect(locales).toContain('/locales/ru/landing.json');
  expect(errors).toEqual([]);
});

test("a tap on Connect before the app's scripts arrive is answered once they do (it used to be lost)", async ({
  page,
}) => {
  const release = await holdAppEntry(page);
  await page.goto('/', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Connect' }).click();
  release();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('dialog')).toHaveCount(1);
});

test('a referral link to / hydrates the prerendered landing without a mismatch, and a tap made meanwhile still counts', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const release = await holdAppEntry(page);
  await page.goto('/?refCode=crew77', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'Connect' }).click();
  release();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible({ timeout: 15_000 });
  await expect(page).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});
