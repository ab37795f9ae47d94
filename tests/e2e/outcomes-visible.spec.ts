// Issue 24, "every outcome visible", at 390×844 in English and Russian: what the Auto Miner's payment
// bought and where its Gems went (a test payment said as such, USDT without a wallet said before
// Pay now); referral awards and boosts once paid; a claim queued offline paid with the reward
// moment; a selected boost on the idle miner; one PWA card at a time below the session card with
// the rig in view on claim; "Claim all" in the arcade; the wallet quest's coins after linking a
// wallet from the profile.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, test, type RunningServer } from './fixtures';
import { admin, apiAs as call, createEmailAccount, selectWelcomeBoost, signInPage, type Account } from './helpers';
import { injectSigningWallet } from './injected-wallet';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';
import { addReferredPlayers } from './players';

const SESSION_SECONDS = 4;
test.use({ viewport: PHONE, serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS) } });
test.describe.configure({ timeout: 120_000 });

/** A whole-text pattern of `s` with its placeholders standing for the given regular expressions. */
const pattern = (s: string, holes: Record<string, string>) => {
  let re = s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const [hole, sub] of Object.entries(holes)) re = re.replace(hole, sub);
  return new RegExp(`^${re}$`);
};

const newPlayer = (server: RunningServer, tag: string) =>
  createEmailAccount(server, `${tag}${Date.now().toString(36).slice(-5)}`);

/** Starts a session on /miner and waits until it can be claimed. */
async function mineUntilReady(page: Page, lang: string) {
  await page.getByRole('button', { name: text(lang, 'mining:miner.start') }).click();
  await expect(page.getByTestId('miner-status')).toHaveText(text(lang, 'mining:miner.status.ready'), {
    timeout: (SESSION_SECONDS + 20) * 1000,
  });
}

for (const lang of LANGUAGES) {
  test(`${lang}: the Auto Miner's payment shows the order it buys, says it is a test payment, and where the Gems went`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await newPlayer(server, `Auto${lang}`);
    admin(server, 'grant', player.email, 'gems', '85');
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/miner');
    await page.getByRole('button', { name: text(lang, 'mining:auto.subscribe') }).click();
    await page
      .getByRole('button', { name: text(lang, 'mining:autoMiner.buyMissing', { count: 100, gems: 100 }) })
      .click();
    const dialog = page.getByRole('dialog', { name: text(lang, 'mining:topUp.title') });
    // The header is the order's: 2 × 50 Gems for 2 × 4.99 USD.
    await expect(dialog.locator('.mining-offer__price')).toHaveText(text(lang, 'mining:topUp.item', { gems: 100 }));
    await expect(dialog.locator('.mining-offer__period')).toContainText(/9[.,]98/);

    // USDT without a linked wallet: said before Pay now, with the way to link one instead.
    const methods = dialog.getByRole('group', { name: text(lang, 'mining:topUp.method') });
    await methods.getByRole('radio', { name: text(lang, 'mining:topUp.methods.tether') }).check();
    await expect(dialog.getByTestId('top-up-wallet-needed')).toHaveText(text(lang, 'mining:topUp.linkWallet'));
    await expect(dialog.getByRole('button', { name: text(lang, 'mining:topUp.pay') })).toHaveCount(0);
    await expect(dialog.getByRole('button', { name: text(lang, 'mining:topUp.linkWalletButton') })).toBeVisible();

    // The test provider pays at once: the dialog says so before Pay now.
    await methods.getByRole('radio', { name: text(lang, 'mining:topUp.methods.card') }).check();
    await expect(dialog.getByTestId('test-payment')).toHaveText(text(lang, 'mining:topUp.testPayment'));
    await dialog.getByRole('button', { name: text(lang, 'mining:topUp.pay') }).click();

    const took = dialog.getByTestId('order-auto-miner');
    await expect(took).toBeVisible();
    await expect(took).toHaveText(
      pattern(text(lang, 'mining:topUp.order.autoMinerTook', { price: 150, date: 'DATE', balanceCount: 35 }), {
        DATE: '.+',
      }),
    );
    await expect(dialog.getByTestId('order-status')).toHaveText(
      pattern(text(lang, 'mining:topUp.order.paidGems', { id: 'ID', gems: 100 }), { ID: '\\d+' }),
    );
    await expect(dialog.getByTestId('order-test')).toHaveText(text(lang, 'mining:topUp.order.test'));
    await shot(page, testInfo, `auto-miner-paid-${lang}-390`);
  });

  test(`${lang}: paid referral awards are not offered again and say so; the referral boost card says all is claimed`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await newPlayer(server, `Award${lang}`);
    addReferredPlayers(server, player.username, 2);
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/referrals');
    const claim = page.getByRole('button', { name: text(lang, 'referrals:awards.claim') });
    await expect(claim).toBeEnabled();
    await claim.click();
    await expect(page.locator('.awards__line--ok')).toBeVisible();
    // Once paid, nothing more to claim: the button goes off (it stayed on before), and the row says so.
    await expect(claim).toBeDisabled();
    await expect(page.getByTestId('award-status-2')).toHaveText(text(lang, 'referrals:awards.paidStatus'));
    await expect(page.getByTestId('award-status-4')).toHaveText(
      text(lang, 'referrals:awards.progress', { count: 2, target: 4 }),
    );
    await shot(page, testInfo, `awards-paid-${lang}-390`);
    // The server's word after a reload too.
    await page.reload();
    await expect(page.getByTestId('award-status-2')).toHaveText(text(lang, 'referrals:awards.paidStatus'));
    await expect(claim).toBeDisabled();

    await page.goto('/boost');
    const boostClaim = page.getByRole('button', { name: text(lang, 'mining:boosts.referrals.claim') });
    await boostClaim.click();
    await expect(page.getByTestId('referral-boost-total')).toHaveText('+20%');
    await expect(page.getByTestId('referral-boost-waiting')).toHaveText(
      text(lang, 'mining:boosts.referrals.allClaimed'),
    );
    await shot(page, testInfo, `boost-all-claimed-${lang}-390`);
  });

  test(`${lang}: a claim queued offline is paid on reconnect with the reward moment, sent while offline`, async ({
    page,
    context,
    server,
  }, testInfo) => {
    const player = await newPlayer(server, `Queue${lang}`);
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/miner');
    await mineUntilReady(page, lang);
    await context.setOffline(true);
    await page.getByRole('button', { name: text(lang, 'mining:miner.claim'), exact: true }).click();
    await expect(page.getByTestId('claim-pending-hint')).toBeVisible();
    await context.setOffline(false);
    const moment = page.getByTestId('reward-moment');
    await expect(moment).toBeVisible();
    await expect(moment.getByTestId('reward-offline')).toHaveText(text(lang, 'mining:reward.sentOffline'));
    await expect(moment.getByTestId('reward-amount')).toHaveText(
      pattern(text(lang, 'mining:miner.claimed', { amount: 'AMOUNT' }), { AMOUNT: '[\\d.,]+' }),
    );
    await expect(page.getByTestId('rig-art')).toBeInViewport();
    await shot(page, testInfo, `offline-claim-moment-${lang}-390`);
  });

  test(`${lang}: a boost selected for the next session shows on the idle miner and in what it would pay`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await newPlayer(server, `Pick${lang}`);
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/miner');
    const wouldPay = page
      .locator('.mining-figures > div', { hasText: text(lang, 'mining:miner.wouldPay') })
      .locator('dd');
    await expect(wouldPay).toBeVisible();
    const plain = amountOf(await wouldPay.innerText());
    expect(plain).toBeGreaterThan(0);

    const hours = await selectWelcomeBoost(server, player);

    await page.reload();
    await expect(page.getByTestId('temporary-boost-state')).toHaveText(
      text(lang, 'mining:rate.temporarySelected', { hours: text(lang, 'mining:boostSelect.hours', { hours }) }),
    );
    // The session card says it too, in view above Start.
    const hint = page.getByTestId('selected-boost-hint');
    await expect(hint).toHaveText(
      text(lang, 'mining:miner.withSelected', { hours: text(lang, 'mining:boostSelect.hours', { hours }) }),
    );
    await expect(hint).toBeInViewport();
    // A 4-second session inside a 2x boost of an hour or more pays twice as much.
    await expect.poll(async () => amountOf(await wouldPay.innerText())).toBeCloseTo(plain * 2, 5);
    await shot(page, testInfo, `selected-boost-${lang}-390`);
  });
}

const amountOf = (s: string) =>
  Number(
    s
      .replace(/\s/g, '')
      .replace(',', '.')
      .replace(/[^\d.]/g, ''),
  );

test.describe('on an iPhone', () => {
  test.use({
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  });
  for (const lang of LANGUAGES) {
    test(`${lang}: one card at a time, below the session card, Claim in view, and the rig in view on claim`, async ({
      page,
      server,
    }, testInfo) => {
      const player = await newPlayer(server, `Cards${lang}`);
      await useLanguage(page, lang);
      await signInPage(page, player);
      await page.goto('/miner');
      await mineUntilReady(page, lang);
      // The install how-to and the claim reminders are both due from the player's next page on.
      await page.getByRole('link', { name: text(lang, 'mining:rate.manage') }).click();
      await expect(page).toHaveURL(/\/boost$/);
      await expect(page.locator('.pwa-card').first()).toBeVisible();
      await page.getByRole('link', { name: text(lang, 'mining:shop.toMiner') }).click();
      await expect(page).toHaveURL(/\/miner$/);
      const claim = page.getByRole('button', { name: text(lang, 'mining:miner.claim'), exact: true });
      await expect(claim).toBeEnabled();
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => window.scrollTo(0, 0));
      await shot(page, testInfo, `miner-cards-${lang}-390`);
      // One card at a time, below the session card, and Claim in view on the page as it opens. The
      // worker's one-time "ready to work offline" comes first; once read, the claim reminders.
      const cards = page.locator('.pwa-card:visible');
      const belowTheRig = async () => {
        await expect(cards).toHaveCount(1);
        const rig = (await page.locator('.mining-rig').boundingBox())!;
        expect((await cards.boundingBox())!.y).toBeGreaterThanOrEqual(rig.y + rig.height);
      };
      await belowTheRig();
      await expect(claim).toBeInViewport();
      const offlineReady = page.getByTestId('offline-ready');
      if (await offlineReady.isVisible()) {
        await offlineReady.getByRole('button', { name: text(lang, 'pwa:offlineReady.ok') }).click();
      }
      await expect(page.locator('.pwa-card--push')).toBeVisible();
      await belowTheRig();
      await expect(claim).toBeInViewport();

      // Scrolled down to the bottom, Claim brings the rig back into view for its burst.
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await claim.click();
      await expect(page.getByTestId('reward-moment')).toBeVisible();
      await expect(page.getByTestId('rig-art')).toBeInViewport();
      await shot(page, testInfo, `miner-claim-rig-${lang}-390`);
    });
  }
});

/** Season XP as quest coins: one `category_reward` ledger row plus the cached balance (as content.spec does). */
function creditQuestCoins(server: RunningServer, account: Account, coins: number): void {
  const sqlite = new Database(join(server.dataDir, 'pxt.sqlite'));
  try {
    sqlite.transaction(() => {
      const { id } = sqlite.prepare('SELECT id FROM users WHERE username = ?').get(account.username) as { id: number };
      sqlite
        .prepare(
          "INSERT INTO ledger (user_id, currency, amount, reason, ref, unique_key, created_at) VALUES (?, 'balance', ?, 'category_reward', 'social', ?, ?)",
        )
        .run(id, coins, `e2e-category-${id}`, Date.now());
      sqlite.prepare('UPDATE users SET balance = balance + ? WHERE id = ?').run(coins, id);
    })();
  } finally {
    sqlite.close();
  }
}

for (const lang of LANGUAGES) {
  test(`${lang}: "Claim all" claims every reached season tier at once`, async ({ page, server }, testInfo) => {
    const player = await newPlayer(server, `Tiers${lang}`);
    creditQuestCoins(server, player, 300);
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/arcade');
    const claimable = page.locator('.tier[data-state="claimable"]');
    await expect(claimable.first()).toBeVisible();
    const count = await claimable.count();
    expect(count).toBeGreaterThan(1);
    const all = page.getByRole('button', { name: text(lang, 'arcade:claim.all', { count }) });
    await expect(all).toBeVisible();
    await all.click();
    await expect(claimable).toHaveCount(0);
    const tiers = Array.from({ length: count }, (_, i) => i + 1).join(', ');
    await expect(page.locator('.arcade__notice')).toHaveText(text(lang, 'arcade:claim.allDone', { tiers }));
    await expect(all).toHaveCount(0);
    await shot(page, testInfo, `arcade-claim-all-${lang}-390`);
  });

  test(`${lang}: linking a wallet from the profile says the wallet quest's coins were paid`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await newPlayer(server, `Link${lang}`);
    const walletAddress = await injectSigningWallet(page);
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/profile');
    // The account's own "Link a wallet" (the security section below has one too).
    await page
      .getByRole('button', { name: text(lang, 'profile:actions.linkWallet') })
      .first()
      .click();
    await page.getByRole('button', { name: text(lang, 'auth:connectWallet.connect') }).click();
    const prompt = page.getByRole('dialog', { name: text(lang, 'auth:reauth.title') });
    await prompt.getByLabel(text(lang, 'auth:fields.currentPassword')).fill(player.password);
    await prompt.getByRole('button', { name: text(lang, 'auth:reauth.confirm') }).click();
    const paid = page.getByTestId('wallet-quest-paid');
    await expect(paid).toHaveText(text(lang, 'profile:actions.walletQuestPaid', { coins: 10 }));
    await expect(paid).toBeInViewport();
    const me = await call<{ balance: number; wallet_address: string }>(server, player, 'GET', 'auth/me');
    expect(me.balance).toBe(10);
    expect(me.wallet_address.toLowerCase()).toBe(walletAddress.toLowerCase());
    await shot(page, testInfo, `profile-wallet-quest-${lang}-390`);
  });
}
