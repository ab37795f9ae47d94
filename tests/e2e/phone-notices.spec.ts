// Notices on a phone (issue 16): the claim-reminder card, the update/install offers and the offline
// line take their own space instead of floating over the miner's rows and buttons; offline is said
// once; the pending claim stays a one-line button. At 390×844, in English and Russian.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

const SESSION_SECONDS = 5;
test.use({
  viewport: { width: 390, height: 844 },
  serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS), WORKER_INTERVAL_MS: '500' },
});
test.describe.configure({ timeout: 120_000 });

const NOTICES = '.pwa-dock > *, [data-testid="offline-banner"], .mining-notice';
const CONTENT = '.mining-figures > div, .mining-breakdown > div, [data-testid^="balance-"], main button, main a.btn';

/**
 * Scrolls every content row and button to the bottom, the middle and the top of the screen below
 * the header, and lists each place where a visible notice overlaps it.
 */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(
    ({ notices, content }) => {
      const found: string[] = [];
      const visible = (r: DOMRect) => r.width > 0 && r.height > 0;
      const hit = (a: DOMRect, b: DOMRect) =>
        a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
      const targets = Array.from(document.querySelectorAll<HTMLElement>(content)).filter(
        (el) => !el.closest('.pwa-dock'),
      );
      for (const el of targets) {
        for (const block of ['end', 'center', 'start'] as const) {
          el.scrollIntoView({ block });
          if (block === 'start') window.scrollBy(0, -header);
          const r = el.getBoundingClientRect();
          if (!visible(r)) continue;
          for (const n of Array.from(document.querySelectorAll<HTMLElement>(notices))) {
            if (n === el || n.contains(el) || el.contains(n)) continue;
            const nr = n.getBoundingClientRect();
            if (visible(nr) && hit(r, nr))
              found.push(`${n.className} covers "${(el.textContent ?? '').trim().slice(0, 30)}" (${block})`);
          }
        }
      }
      return [...new Set(found)];
    },
    { notices: NOTICES, content: CONTENT },
  );
}

for (const lang of ['en', 'ru'] as const) {
  test(`the reminder card and the offline line cover nothing, offline is said once, the pending claim stays one line (${lang})`, async ({
    page,
    context,
    server,
  }) => {
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    const account = await createEmailAccount(server, `Notices${lang}`);
    await signInPage(page, account);
    await page.goto('/miner');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    const action = page.locator('.mining-rig__actions button');
    await expect(page.getByTestId('miner-status')).toHaveClass(/mining-badge--idle/);
    await action.click();
    await expect(page.getByTestId('miner-status')).toHaveClass(/mining-badge--ready/, {
      timeout: (SESSION_SECONDS + 20) * 1000,
    });
    await expect(action).toBeEnabled();
    const oneLine = (await action.boundingBox())!.height;

    // Once the player has mined, the claim-reminder card is offered.
    await expect(page.locator('.pwa-card--push')).toBeVisible();
    expect(await overlaps(page)).toEqual([]);

    await context.setOffline(true);
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await action.click();
    await expect(page.getByTestId('pending-calls')).toBeVisible();
    await expect(action).toBeDisabled();
    // One offline indicator: no second line on the page saying the same.
    await expect(page.locator('.mining-notice--offline')).toHaveCount(0);
    await expect(page.getByText(lang === 'en' ? /you are offline/i : /нет (подключения|сети)/i)).toHaveCount(1);
    // The pending claim is still a one-line button.
    expect((await action.boundingBox())!.height).toBeLessThanOrEqual(oneLine);
    await expect(page.getByTestId('claim-pending-hint')).toBeVisible();
    expect(await overlaps(page)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`390-${lang}-miner-offline-pending.png`), fullPage: true });
    await test.info().attach(`390-${lang}-miner-offline-pending.png`, {
      path: test.info().outputPath(`390-${lang}-miner-offline-pending.png`),
      contentType: 'image/png',
    });

    await context.setOffline(false);
    await expect(page.getByTestId('miner-status')).toHaveClass(/mining-badge--idle/);
  });
}
