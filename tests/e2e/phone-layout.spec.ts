// Phone layout (issue 16): no page scrolls sideways at 320–430 px in either language, signed out
// and signed in with the language switcher shown, and the account menu opens inside the screen.
// Screenshots of the main screens at 390 px in both languages are attached to the report (and
// written to PHONE_SCREENS_DIR when set) so the next change can be compared with this one.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin, createEmailAccount, signInPage } from './helpers';

test.use({ serviceWorkers: 'block' });
// Every route at three widths is a long walk on a shared machine.
test.setTimeout(240_000);

const WIDTHS = [320, 390, 430] as const;
const LANGS = ['en', 'ru'] as const;
const PUBLIC_ROUTES = ['/', '/blog', '/profile', '/privacy', '/terms', '/no-such-page'];
const PLAYER_ROUTES = [
  '/',
  '/blog',
  '/article/what-is-pxt',
  '/profile',
  '/tasks',
  '/referrals',
  '/arcade',
  '/miner',
  '/mining',
  '/boost',
  '/ico',
  '/privacy',
  '/terms',
];
/** The screens a player sees most, photographed at 390 px. */
const MAIN_SCREENS = new Set([
  '/',
  '/blog',
  '/profile',
  '/tasks',
  '/referrals',
  '/arcade',
  '/miner',
  '/mining',
  '/boost',
]);

async function openIn(page: Page, lang: string, route: string): Promise<void> {
  await page.goto(route);
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.locator('main .spinner')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready);
}

/** How far the page reaches past the screen's right edge, and what sticks out (for the message). */
async function overflow(page: Page): Promise<{ excess: number; culprits: string[] }> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const excess = document.documentElement.scrollWidth - width;
    const culprits: string[] = [];
    if (excess > 0) {
      for (const el of Array.from(document.querySelectorAll('body *'))) {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.right > width + 0.5)
          culprits.push(
            `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${(el.textContent ?? '').trim().slice(0, 30)}" → ${Math.round(r.right)}`,
          );
        if (culprits.length >= 6) break;
      }
    }
    return { excess, culprits };
  });
}

async function screenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const body = await page.screenshot({ fullPage: true });
  await testInfo.attach(name, { body, contentType: 'image/png' });
  const dir = process.env.PHONE_SCREENS_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), body);
  }
}

const slug = (route: string) => (route === '/' ? 'landing' : route.slice(1).replace(/\//g, '-'));

async function checkRoutes(page: Page, testInfo: TestInfo, lang: string, who: string, routes: string[]): Promise<void> {
  const problems: string[] = [];
  for (const route of routes) {
    await page.setViewportSize({ width: WIDTHS[0], height: 844 });
    await openIn(page, lang, route);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      const { excess, culprits } = await overflow(page);
      if (excess > 0) problems.push(`${lang} ${who} ${route} @${width}: ${excess}px too wide (${culprits.join(', ')})`);
      if (width === 390 && MAIN_SCREENS.has(route))
        await screenshot(page, testInfo, `390-${lang}-${who}-${slug(route)}.png`);
    }
  }
  expect(problems).toEqual([]);
}

for (const lang of LANGS) {
  test.describe(`in ${lang}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    });

    test(`no public page scrolls sideways at 320–430 px (signed out, ${lang})`, async ({ page }, testInfo) => {
      await checkRoutes(page, testInfo, lang, 'visitor', PUBLIC_ROUTES);
    });

    test(`no page scrolls sideways at 320–430 px with the language switcher shown, and the account menu opens on screen (${lang})`, async ({
      page,
      server,
    }, testInfo) => {
      const account = await createEmailAccount(server, `Phone${lang}Player`);
      admin(server, 'flag', account.email, 'language', 'on');
      admin(server, 'flag', account.email, 'ico', 'on');
      await signInPage(page, account);
      await checkRoutes(page, testInfo, lang, 'player', PLAYER_ROUTES);

      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        await openIn(page, lang, '/profile');
        const block = page.getByTestId('player-block');
        await expect(
          page.getByRole('group', { name: lang === 'en' ? 'Interface language' : 'Язык интерфейса' }),
        ).toBeVisible();
        const blockBox = (await block.boundingBox())!;
        expect(blockBox.x + blockBox.width, `player block right edge @${width}`).toBeLessThanOrEqual(width);
        await block.click();
        const menu = page.locator('.player__menu');
        await expect(menu).toBeVisible();
        const box = (await menu.boundingBox())!;
        expect(box.x, `account menu left edge @${width}`).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, `account menu right edge @${width}`).toBeLessThanOrEqual(width);
        if (width === 390) await screenshot(page, testInfo, `390-${lang}-player-account-menu.png`);
      }
    });
  });
}
