// The page frame of spec §2 in the browser: the header fades in on the first entry to each of
// /profile, /tasks, /referrals and /arcade (also when moving from one of them straight to another),
// and the footer is not there on /miner, /mining and /boost.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

const header = (page: Page) => page.locator('header.site-header');
/** The header fades that have started so far (recorded by the init script below). */
const fadesStarted = (page: Page) =>
  page.evaluate(() => (window as unknown as { __headerFades: string[] }).__headerFades);

async function recordHeaderFades(page: Page) {
  await page.addInitScript(() => {
    const fades: string[] = [];
    (window as unknown as { __headerFades: string[] }).__headerFades = fades;
    document.addEventListener(
      'animationstart',
      (e) => {
        if ((e.target as Element).matches('header.site-header')) fades.push(`${location.pathname} ${e.animationName}`);
      },
      true,
    );
  });
}

/** On a page where the header does not fade: no animation class, no running animation. */
async function expectNoFade(page: Page) {
  await expect(header(page)).not.toHaveClass(/site-header--fade/);
  expect(await header(page).evaluate((h) => h.getAnimations().length)).toBe(0);
}

test('the header fades in once on the first entry to each fade page, also between two of them', async ({
  page,
  server,
}) => {
  await signInPage(page, await createEmailAccount(server, 'FadeRider'));
  await recordHeaderFades(page);
  await page.goto('/');
  await expect(page.getByTestId('player-block')).toBeVisible();
  await expectNoFade(page);
  const footer = page.getByRole('contentinfo');

  await footer.getByRole('link', { name: 'Tasks' }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  await expect(header(page)).toHaveClass(/site-header--fade/);
  // The spec's timing: 0.4 s from opacity 0 to 1 after 0.2 s.
  const timing = await header(page).evaluate((h) => {
    const s = getComputedStyle(h);
    const [a] = h.getAnimations() as CSSAnimation[];
    const frames = a?.effect instanceof KeyframeEffect ? a.effect.getKeyframes().map((k) => k.opacity) : [];
    return { duration: s.animationDuration, delay: s.animationDelay, frames };
  });
  expect(timing).toEqual({ duration: '0.4s', delay: '0.2s', frames: ['0', '1'] });
  await expect.poll(() => fadesStarted(page)).toHaveLength(1);

  // Straight from one fade page to another: the header stays mounted and still fades again.
  await footer.getByRole('link', { name: 'Referrals' }).click();
  await expect(page).toHaveURL(/\/referrals$/);
  await expect.poll(() => fadesStarted(page)).toHaveLength(2);
  await footer.getByRole('link', { name: 'Arcade season' }).click();
  await expect(page).toHaveURL(/\/arcade$/);
  await expect.poll(() => fadesStarted(page)).toHaveLength(3);

  // Not on other pages, and only once per fade page: a second entry to /tasks does not fade.
  await footer.getByRole('link', { name: 'Blog' }).click();
  await expect(page).toHaveURL(/\/blog$/);
  await expectNoFade(page);
  await footer.getByRole('link', { name: 'Tasks' }).click();
  await expect(page).toHaveURL(/\/tasks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quests' })).toBeVisible();
  await expectNoFade(page);

  // The fourth fade page, from the account menu.
  await page.getByTestId('player-block').click();
  await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect.poll(() => fadesStarted(page)).toHaveLength(4);
  expect((await fadesStarted(page)).map((f) => f.split(' ')[0])).toEqual([
    '/tasks',
    '/referrals',
    '/arcade',
    '/profile',
  ]);
});

test('the footer is not there on /miner, /mining and /boost, and is on the other pages', async ({ page, server }) => {
  await signInPage(page, await createEmailAccount(server, 'FootRider'));
  const footer = page.getByRole('contentinfo');
  for (const path of ['/', '/blog', '/profile', '/tasks', '/referrals', '/arcade']) {
    await page.goto(path);
    await expect(footer).toBeVisible();
  }
  for (const path of ['/miner', '/mining', '/boost', '/miner/']) {
    await page.goto(path);
    // The page itself is there (its heading), only the footer is not.
    await expect(page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator('footer, [role="contentinfo"]')).toHaveCount(0);
  }
  // Client-side navigation brings it back.
  await page.getByRole('link', { name: 'Blog' }).first().click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(footer).toBeVisible();
});
