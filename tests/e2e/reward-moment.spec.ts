// Issue 16, the reward moment at phone size: a claim counts the amount up into the balance while
// the rig art plays a short burst, then shows the new rate and what the next session pays; with
// reduced motion the final figures show at once and nothing moves.
import type { Page, TestInfo } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin, createEmailAccount, selectWelcomeBoost, signInPage } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';

const SESSION_SECONDS = 4;
test.use({ viewport: PHONE, serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS) } });
test.describe.configure({ timeout: 120_000 });

/** Records every text the claimed amount shows, from before the claim on. */
async function watchAmount(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { seenAmounts: string[] }).seenAmounts = seen;
    const read = () => {
      const el = document.querySelector('[data-testid="reward-amount"]');
      if (el && el.textContent !== seen.at(-1)) seen.push(el.textContent ?? '');
    };
    new MutationObserver(read).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
}
const seenAmounts = (page: Page) => page.evaluate(() => (window as unknown as { seenAmounts: string[] }).seenAmounts);

/** `meanwhile` runs once the session is ready and the page has read everything, just before the claim. */
async function mineAndClaim(page: Page, lang: string, testInfo: TestInfo, meanwhile?: () => unknown) {
  await page.goto('/miner');
  await expect(page.getByTestId('miner-status')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await shot(page, testInfo, `miner-page-${lang}-390`);
  await expect(page.getByTestId('rig-art')).toBeVisible();
  await page.getByRole('button', { name: text(lang, 'mining:miner.start') }).click();
  await expect(page.getByTestId('miner-status')).toHaveText(text(lang, 'mining:miner.status.ready'), {
    timeout: (SESSION_SECONDS + 20) * 1000,
  });
  const pays = (await page.getByTestId('session-pays').innerText()).trim();
  if (meanwhile) {
    await page.waitForLoadState('networkidle');
    await meanwhile();
  }
  await watchAmount(page);
  await page.getByRole('button', { name: text(lang, 'mining:miner.claim'), exact: true }).click();
  return pays;
}

for (const lang of LANGUAGES) {
  test(`${lang}: a claim counts up into the balance, plays the rig, and shows the new rate and the next session`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await createEmailAccount(server, `Moment${lang}${Date.now().toString(36).slice(-5)}`);
    await useLanguage(page, lang);
    await signInPage(page, player);
    const pays = await mineAndClaim(page, lang, testInfo);
    const amount = pays.replace(/\s*PXT$/, '');
    await expect(page.getByTestId('miner-status')).toHaveText(text(lang, 'mining:miner.status.idle'));
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `reward-moment-${lang}-390`);

    const moment = page.getByTestId('reward-moment');
    await expect(moment.getByTestId('reward-amount')).toHaveText(text(lang, 'mining:miner.claimed', { amount }));
    // It counted up: smaller figures came before the final one.
    const seen = await seenAmounts(page);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(text(lang, 'mining:miner.claimed', { amount }));
    // The rig celebrates (a CSS animation, switched off for reduced motion).
    await expect(page.locator('.rig-art--celebrate .rig-art__coins')).toHaveCSS('animation-name', 'rig-coins');
    // The balance it counted into, the rate now, and what the next session pays.
    await expect(moment.getByTestId('reward-balance')).toHaveText(`${amount} PXT`);
    await expect(page.getByTestId('balance-pxt')).toHaveText(amount);
    await expect(moment.getByTestId('reward-rate')).toHaveText(await page.getByTestId('current-rate').innerText());
    await expect(moment.getByTestId('reward-next')).not.toBeEmpty();
    await moment.scrollIntoViewIfNeeded();
    await shot(page, testInfo, `reward-moment-end-${lang}-390`);
  });
}

test.describe('reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });
  test('en: the final figures show at once and the rig stays still', async ({ page, server }, testInfo) => {
    const player = await createEmailAccount(server, `Still${Date.now().toString(36).slice(-6)}`);
    await signInPage(page, player);
    const pays = await mineAndClaim(page, 'en', testInfo);
    const amount = pays.replace(/\s*PXT$/, '');
    const moment = page.getByTestId('reward-moment');
    await expect(moment.getByTestId('reward-amount')).toHaveText(`+${amount} PXT claimed`);
    // Never an intermediate figure: the first text the amount showed was the final one.
    expect(await seenAmounts(page)).toEqual([`+${amount} PXT claimed`]);
    await expect(moment.getByTestId('reward-balance')).toHaveText(`${amount} PXT`);
    await expect(page.locator('.rig-art--celebrate .rig-art__coins')).toHaveCSS('animation-name', 'none');
    await shot(page, testInfo, `reward-moment-reduced-en-390`);
  });
});

test.describe('the balance it counts into', () => {
  test.use({ reducedMotion: 'reduce' });
  test('en: is the server’s, with what was paid elsewhere since the page read it', async ({
    page,
    server,
  }, testInfo) => {
    const player = await createEmailAccount(server, `Paid${Date.now().toString(36).slice(-6)}`);
    await signInPage(page, player);
    // The operator pays 2.5 PXT while the page shows the ready session: the page does not know yet.
    const pays = await mineAndClaim(page, 'en', testInfo, () => admin(server, 'grant', player.email, 'pxt', '2.5'));
    const amount = pays.replace(/\s*PXT$/, '');
    const moment = page.getByTestId('reward-moment');
    await expect(moment.getByTestId('reward-amount')).toHaveText(`+${amount} PXT claimed`);
    const header = page.getByTestId('balance-pxt');
    await expect(header).toHaveText(/^2\.5/);
    // The moment's balance is the header's, not the balance the page knew plus the reward.
    await expect(moment.getByTestId('reward-balance')).toHaveText(`${await header.innerText()} PXT`);
    await expect(moment.getByTestId('reward-balance')).not.toHaveText(`${amount} PXT`);
  });
});

test.describe('what the next session pays', () => {
  test.use({ reducedMotion: 'reduce' });
  test('en: counts the boost selected for it, as the session card beside it does', async ({
    page,
    server,
  }, testInfo) => {
    const player = await createEmailAccount(server, `Next${Date.now().toString(36).slice(-6)}`);
    await signInPage(page, player);
    // While the session is ready, the player selects the welcome boost (2x) for the next one.
    await mineAndClaim(page, 'en', testInfo, () => selectWelcomeBoost(server, player));
    const moment = page.getByTestId('reward-moment');
    await expect(moment.getByTestId('reward-amount')).toBeVisible();
    const wouldPay = page.getByTestId('session-would-pay');
    await expect(page.getByTestId('selected-boost-hint')).toBeVisible();
    await expect(moment.getByTestId('reward-next')).toHaveText(await wouldPay.innerText());
  });
});
