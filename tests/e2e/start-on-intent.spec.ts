// Issue 25: a visitor's prerendered page (`/`, `/blog`) runs none of the app until the first sign
// of intent (src/lib/start-on-intent.ts). The first tap is answered at once (the control busy) and
// made once the app has hydrated the page; a key does the same. A visitor who never taps still gets
// the service worker, the same registration the app finds later. Signed-in players and links the
// app must act on start it at once, as before. Times are never asserted here (bench/browser.ts
// prints the first tap's).
import type { Page } from '@playwright/test';
import { expect, mailedLink, test } from './fixtures';
import { createEmailAccount, holdAppEntry, signInPage, uniqueEmail } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, useLanguage } from './outcome-shots';

type Gate = { started: string | false; stop?: unknown };
const started = (page: Page) => page.evaluate(() => (window as unknown as { __pxtStart: Gate }).__pxtStart.started);
const scrollY = (page: Page) => page.evaluate(() => window.scrollY);
/** The app's entry, run as a module script (the start script adds it): absent while the app waits. */
const appScripts = (page: Page) => page.locator('script[type="module"][src^="/assets/index-"]');

/** Load and idle: the start script has prefetched the app (its translations last). */
async function loadedAndIdle(page: Page, lang = 'en') {
  await expect(page.locator(`head link[rel="prefetch"][href="/locales/${lang}/common.json"]`)).toHaveCount(1);
}

/** Every control the start script marked busy, as seen at the moment of marking. */
async function watchBusyMarks(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { busyMarks: string[] };
    w.busyMarks = [];
    new MutationObserver((records) => {
      for (const r of records)
        if (r.attributeName === 'aria-busy' && (r.target as Element).getAttribute('aria-busy') === 'true')
          w.busyMarks.push((r.target as Element).textContent ?? '');
    }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ['aria-busy'] });
  });
}
const busyMarks = (page: Page) => page.evaluate(() => (window as unknown as { busyMarks: string[] }).busyMarks);

/**
 * Counts the Intl.NumberFormat objects the page makes from its first script on: the first one loads
 * ICU's number data, a 50 ms task with the CPU 4× slower, which the first tap must not wait for.
 */
async function countNumberFormats(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { numberFormats: number };
    w.numberFormats = 0;
    const made = () => w.numberFormats++;
    Intl.NumberFormat = new Proxy(Intl.NumberFormat, {
      construct: (target, args) => (made(), Reflect.construct(target, args)),
      apply: (target, self, args) => (made(), Reflect.apply(target, self, args)),
    });
  });
}
const numberFormats = (page: Page) =>
  page.evaluate(() => (window as unknown as { numberFormats: number }).numberFormats);

test.describe('a visitor on a phone', () => {
  test.use({ viewport: PHONE, hasTouch: true });

  for (const lang of LANGUAGES) {
    test(`${lang}: nothing of the app runs before the first tap; a tap on Connect shows it pressed and opens the sign-in`, async ({
      page,
    }) => {
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await useLanguage(page, lang);
      await countNumberFormats(page);
      await page.goto('/');
      await loadedAndIdle(page, lang);
      // Downloaded (prefetched), not run.
      await expect(page.locator('head link[rel="prefetch"][href^="/assets/index-"]')).toHaveCount(1);
      await expect(appScripts(page)).toHaveCount(0);
      expect(await started(page)).toBe(false);

      await watchBusyMarks(page);
      const connect = page.getByRole('banner').getByRole('button', { name: text(lang, 'header.connect') });
      await connect.tap();
      await expect(page.getByRole('dialog', { name: text(lang, 'auth:main.title') })).toBeVisible();
      await expect(page.getByRole('dialog')).toHaveCount(1);
      expect(['pointerdown', 'touchstart']).toContain(await started(page));
      await expect(appScripts(page)).toHaveCount(1);
      // The tap showed at once (busy until the app took it), and the mark is gone.
      expect(await busyMarks(page)).toEqual([text(lang, 'header.connect')]);
      await expect(connect).not.toHaveAttribute('aria-busy', 'true');
      await expect(connect).not.toHaveAttribute('data-early-tap');
      // Hydrating the landing and opening the sign-in wrote its numbers without one (the Auto Miner's price).
      expect(await numberFormats(page)).toBe(0);
      expect(errors).toEqual([]);
    });
  }

  // A CI run lost this tap: the app's first render scrolled the page to the top, under a finger
  // already down on the button, so the release (the click) landed beside it. Any visitor who had
  // scrolled saw the page jump when the app started, their first swipe (touchstart) included.
  test('a visitor who scrolled and presses a button while the app starts: the page stays put, the release opens the sign-in', async ({
    page,
  }) => {
    const release = await holdAppEntry(page);
    await page.goto('/');
    await loadedAndIdle(page);
    const cta = page.getByRole('region', { name: text('en', 'landing:final.title') }).getByRole('button');
    await cta.scrollIntoViewIfNeeded();
    const scrolled = await scrollY(page);
    expect(scrolled).toBeGreaterThan(100);
    const box = (await cta.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    expect(await started(page)).not.toBe(false);
    release();
    // Hydrated: the start script's hold on taps is gone (lib/early-taps.ts), the press not yet released.
    await page.waitForFunction(() => !(window as unknown as { __pxtStart: Gate }).__pxtStart.stop);
    expect(await scrollY(page)).toBe(scrolled);
    await page.mouse.up();
    await expect(page.getByRole('dialog', { name: text('en', 'auth:main.title') })).toBeVisible();
  });

  test('a link of the app at the foot of the page opens the next page at its top', async ({ page, baseURL }) => {
    await page.goto('/');
    await loadedAndIdle(page);
    const blog = page.getByRole('contentinfo').getByRole('link', { name: text('en', 'nav.blog'), exact: true });
    await blog.scrollIntoViewIfNeeded();
    expect(await scrollY(page)).toBeGreaterThan(100);
    await blog.tap();
    await expect(page).toHaveURL(`${baseURL}/blog`);
    await expect(page.locator('.blog-card').first()).toBeVisible();
    expect(await scrollY(page)).toBe(0);
  });

  test('/blog: an article tapped before the app runs opens the sign-in over the list', async ({ page, baseURL }) => {
    await page.goto('/blog');
    await loadedAndIdle(page);
    expect(await started(page)).toBe(false);
    await page.locator('.blog-card a.blog-card__link').first().tap();
    await expect(page.getByRole('dialog', { name: text('en', 'auth:main.title') })).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/blog`);
    await expect(page.locator('.blog-card').first()).toBeVisible();
  });
});

test('keyboard: Tab starts the app, Enter on Connect before it has hydrated the page is held and opens the sign-in', async ({
  page,
}) => {
  // The app's entry is held back: the key presses happen on the prerendered page.
  const release = await holdAppEntry(page);
  await page.goto('/');
  const connect = page.getByRole('banner').getByRole('button', { name: 'Connect' });
  for (let i = 0; i < 12 && !(await connect.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(connect).toBeFocused();
  expect(await started(page)).toBe('keydown');
  await page.keyboard.press('Enter');
  await expect(connect).toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  release();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  await expect(connect).not.toHaveAttribute('aria-busy', 'true');
});

test('a visitor who never taps gets the service worker; the app, started later, finds the same registration', async ({
  page,
}) => {
  await page.goto('/');
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.active?.state ?? null)), {
      timeout: 20_000,
    })
    .toBe('activated');
  expect(await started(page)).toBe(false);
  await expect(appScripts(page)).toHaveCount(0);
  const registration = await page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.getRegistration())!;
    const w = window as unknown as { firstRegistration: ServiceWorkerRegistration; updates: number };
    w.firstRegistration = reg;
    w.updates = 0;
    reg.addEventListener('updatefound', () => w.updates++);
    return { script: new URL(reg.active!.scriptURL).pathname, scope: new URL(reg.scope).pathname };
  });
  expect(registration).toEqual({ script: '/sw.js', scope: '/' });

  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible();
  // The app's own registration (workbox-window, after load) is this one: no second one, no reinstall.
  await page.waitForLoadState('networkidle');
  const after = await page.evaluate(async () => {
    const w = window as unknown as { firstRegistration: ServiceWorkerRegistration; updates: number };
    const regs = await navigator.serviceWorker.getRegistrations();
    return { count: regs.length, same: regs[0] === w.firstRegistration, updates: w.updates };
  });
  expect(after).toEqual({ count: 1, same: true, updates: 0 });
});

test('a link the browser can follow itself (/privacy) is followed natively, the app starting on the new page', async ({
  page,
  baseURL,
}) => {
  await page.goto('/');
  await loadedAndIdle(page);
  await page.evaluate(() => ((window as unknown as { pxtMark: string }).pxtMark = 'landing'));
  await page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Policy' }).click();
  await expect(page).toHaveURL(`${baseURL}/privacy`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // A new document (the mark is gone), where the app started at load.
  expect(await page.evaluate(() => (window as unknown as { pxtMark?: string }).pxtMark ?? null)).toBeNull();
  expect(await started(page)).toBe('load');
});

test('a signed-in player: the app starts at load, without any input', async ({ page, server }) => {
  const player = await createEmailAccount(server, `Early${Date.now().toString(36).slice(-6)}`);
  await signInPage(page, player);
  for (const path of ['/', '/blog']) {
    await page.goto(path);
    await expect(page.getByTestId('player-block')).toContainText(player.username);
    expect(await started(page)).toBe('load');
  }
});

test('an e-mail link (?modal=confirmRegistration&token=…) starts the app at load and it acts on the link', async ({
  page,
  server,
  baseURL,
}) => {
  const email = uniqueEmail('early-link');
  const r = await fetch(`${baseURL}/api/v1/auth/register/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'punk1234', confirm_password: 'punk1234' }),
  });
  expect(r.ok).toBe(true);
  const link = await mailedLink(server.dataDir, baseURL!, email, 'confirmRegistration');
  await page.goto(link);
  // No tap: the app confirmed the address and signed the player in; opened in another browser than
  // the one that registered, it asks for a password first (decisions §13).
  await expect(page.getByRole('dialog', { name: 'Choose a password' })).toBeVisible();
  expect(await started(page)).toBe('load');
  expect(await page.evaluate(() => localStorage.getItem('pxt.refreshToken'))).not.toBeNull();
});
