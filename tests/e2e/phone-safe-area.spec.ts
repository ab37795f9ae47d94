// A phone with a notch, rounded corners and a home indicator: the page is laid out edge to edge
// (viewport-fit=cover), so nothing the player reads or taps may sit under them. Chromium is given
// an iPhone's safe-area insets (DevTools' Emulation.setSafeAreaInsetsOverride). On the old app the
// header's logo stood under the status bar and the notch, and a tall dialog reached under the
// home indicator.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

test.use({ serviceWorkers: 'block' });

interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

async function phone(page: Page, width: number, height: number, insets: Insets) {
  await page.setViewportSize({ width, height });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets });
}

/** The element's box in the viewport, rounded to whole pixels. */
const box = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return {
        top: Math.round(r.top),
        right: Math.round(r.right),
        bottom: Math.round(r.bottom),
        left: Math.round(r.left),
      };
    });

const PORTRAIT = { width: 390, height: 844, insets: { top: 47, right: 0, bottom: 34, left: 0 } };
// Sideways, with the browser's bars shown: the sign-in dialog is taller than the screen leaves it.
const LANDSCAPE = { width: 844, height: 340, insets: { top: 0, right: 47, bottom: 21, left: 47 } };

for (const { name, width, height, insets } of [
  { name: 'portrait', ...PORTRAIT },
  { name: 'landscape', ...LANDSCAPE },
]) {
  test(`the header, the page and a dialog keep clear of the notch and the home indicator (${name})`, async ({
    page,
  }) => {
    await phone(page, width, height, insets);
    await page.goto('/');
    await expect(page.locator('.site-header .brand')).toBeVisible();

    const brand = await box(page, '.site-header .brand');
    expect(brand.top).toBeGreaterThanOrEqual(insets.top);
    expect(brand.left).toBeGreaterThanOrEqual(insets.left);
    const header = await box(page, '.site-header');
    // The header's glass still reaches the top of the screen, under the status bar.
    expect(header.top).toBe(0);
    const main = await box(page, 'main');
    expect(main.left).toBeGreaterThanOrEqual(insets.left);
    expect(main.right).toBeLessThanOrEqual(width - insets.right);

    // Scrolled to the end of the page, the footer ends above the home indicator.
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    const footer = await page.locator('.site-footer').evaluate((el) => el.getBoundingClientRect().bottom);
    expect(footer).toBeLessThanOrEqual(height - insets.bottom + 1);

    // The main sign-in dialog (a visitor asking for a signed-in page gets it).
    await page.goto('/tasks');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    // Measured where it comes to rest: its opening animation moves it.
    const d = await dialog.evaluate(async (el) => {
      await Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished));
      const r = el.getBoundingClientRect();
      return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    });
    expect(d.top).toBeGreaterThanOrEqual(insets.top);
    expect(d.bottom).toBeLessThanOrEqual(height - insets.bottom);
    expect(d.left).toBeGreaterThanOrEqual(insets.left);
    expect(d.right).toBeLessThanOrEqual(width - insets.right);
  });
}
