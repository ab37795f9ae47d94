// Issue 16: no button is offered for what cannot happen. With no friend the referral-boost claim
// and the awards claim are disabled and say what is missing; the Auto Miner shows the Gems still
// missing instead of a red refusal; once a friend's +10 % waits, /referrals and /miner point to
// /boost, where the claim works; at 2 of 2 friends the awards claim is offered.
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';
import { addReferredPlayers } from './players';

test.use({ viewport: PHONE });

for (const lang of LANGUAGES) {
  test(`${lang}: claims are offered only when they can succeed, and a waiting friend boost is pointed to`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await createEmailAccount(server, `Crew${lang}${Date.now().toString(36).slice(-5)}`);
    await useLanguage(page, lang);
    await signInPage(page, player);

    // No friends: nothing to claim, and each place says what is missing.
    await page.goto('/boost');
    const boostClaim = page.getByRole('button', { name: text(lang, 'mining:boosts.referrals.claim') });
    await expect(boostClaim).toBeVisible();
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `boost-no-friends-${lang}-390`);
    await expect(page.getByTestId('referral-boost-waiting')).toHaveText(
      text(lang, 'mining:boosts.referrals.noneWaiting'),
    );
    await expect(boostClaim).toBeDisabled();

    await page.goto('/referrals');
    const awardsClaim = page.getByRole('button', { name: text(lang, 'referrals:awards.claim') });
    await expect(page.getByTestId('awards-next')).toHaveText(
      text(lang, 'referrals:awards.next', { count: 0, target: 2, coins: 4 }),
    );
    await expect(awardsClaim).toBeDisabled();
    await expect(page.getByTestId('referral-boost-hint')).toHaveCount(0);

    await page.goto('/miner');
    await page.getByRole('button', { name: text(lang, 'mining:auto.subscribe') }).click();
    const autoMiner = page.getByRole('dialog');
    await expect(autoMiner).toBeVisible();
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `auto-miner-short-${lang}-390`);
    await expect(autoMiner.getByTestId('auto-miner-progress')).toBeVisible();
    await expect(autoMiner.getByRole('alert')).toHaveCount(0);
    await page.keyboard.press('Escape');

    // One active friend: 1 of 2 for the award, and the +10 % is pointed to from /referrals and /miner.
    addReferredPlayers(server, player.username, 1);
    await page.goto('/referrals');
    await expect(awardsClaim).toBeVisible();
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `referrals-one-friend-${lang}-390`);
    await expect(page.getByTestId('awards-next')).toHaveText(
      text(lang, 'referrals:awards.next', { count: 1, target: 2, coins: 4 }),
    );
    await expect(awardsClaim).toBeDisabled();
    const hint = page.getByTestId('referral-boost-hint');
    await expect(hint).toBeVisible();
    await page.goto('/miner');
    await expect(hint).toBeVisible();
    await hint.getByRole('link').click();
    await expect(page).toHaveURL(/\/boost$/);
    await expect(boostClaim).toBeEnabled();
    await boostClaim.click();
    await expect(page.getByTestId('referral-boost-total')).toHaveText('+10%');
    await expect(boostClaim).toBeDisabled();
    await page.goto('/miner');
    await expect(page.getByTestId('auto-miner-state')).toBeVisible();
    await expect(hint).toHaveCount(0);

    // Two: the first award is reached and its claim is offered.
    addReferredPlayers(server, player.username, 1);
    await page.goto('/referrals');
    await expect(awardsClaim).toBeEnabled();
  });
}
