// A player who asks for reduced motion gets pages that stand still. The global rule shortens every
// animation to 0.001 ms; the landing's blinking cursor, glitching title and rising coin loop forever,
// and an endless loop that short showed a random step of each on every frame: more flicker, not less.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

test.use({ serviceWorkers: 'block' });

/** Animations still running on the page (CSS animations and transitions included). */
const running = (page: Page) =>
  page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length);

test('with reduced motion no animation keeps running on the landing page; without, its loops run', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => running(page)).toBeGreaterThan(0);

  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect.poll(() => running(page)).toBe(0);
});
