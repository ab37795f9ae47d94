// Issue 24: a number next to a noun takes the noun's plural form on the pages that show counts
// («2 активных друзей (+4 монет)», «+1 бустов», "+1 referral boosts" before). A player at 390×844
// sees 0, 1, 4 and 5 active friends and referral boosts on /tasks, /referrals, /boost and /miner,
// in both languages. The expected words are written out here, not read from the locale files,
// so the test fails on texts that have no plural forms.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage, type Lang } from './outcome-shots';
import { addReferredPlayers } from './players';

test.use({ viewport: PHONE });

const SEEN: Record<Lang, Record<string, string>> = {
  en: {
    invitesNext: 'Next: 2 active friends (+4 coins).',
    invitesProgress: '0 of 2 friends',
    hintOne: '+10% for 1 active friend.',
    awardsNext: 'Next award: 1 of 2 active friends (+4 coins).',
    awardRow: 'Invite 2 friends',
    waitingOne: 'Waiting: +10% from 1 active friend.',
    claimedOne: '+1 referral boost.',
    countOne: '1 boost',
    waitingFour: 'Waiting: +40% from 4 active friends.',
    claimedFour: '+4 referral boosts.',
    countFive: '5 boosts',
    minerFive: '+50% (5 boosts)',
    minerNone: '+0% (0 boosts)',
  },
  ru: {
    invitesNext: 'Следующее: 2 активных друга (+4 монеты).',
    invitesProgress: '0 из 2 друзей',
    hintOne: '+10% за 1 активного друга.',
    awardsNext: 'Следующая награда: 1 из 2 активных друзей (+4 монеты).',
    awardRow: 'Пригласить 2 друзей',
    waitingOne: 'Ждут получения: +10% за 1 активного друга.',
    claimedOne: '+1 буст за рефералов.',
    countOne: '1 буст',
    waitingFour: 'Ждут получения: +40% за 4 активных друзей.',
    claimedFour: '+4 буста за рефералов.',
    countFive: '5 бустов',
    minerFive: '+50% (5 бустов)',
    minerNone: '+0% (0 бустов)',
  },
};

const region = (page: Page, lang: Lang, key: string) =>
  page.getByRole('region', { name: text(lang, key), exact: true });

for (const lang of LANGUAGES) {
  test(`${lang}: counted words agree with their numbers on /tasks, /referrals, /boost and /miner`, async ({
    page,
    server,
  }, testInfo) => {
    const seen = SEEN[lang];
    const player = await createEmailAccount(server, `Plural${lang}${Date.now().toString(36).slice(-5)}`);
    await useLanguage(page, lang);
    await signInPage(page, player);

    // No friend yet: the invite quests name the next step.
    await page.goto('/tasks');
    const invites = page.locator('[data-quest="invites"]');
    await expect(invites).toContainText(seen.invitesNext);
    await expect(invites).toContainText(seen.invitesProgress);
    await invites.scrollIntoViewIfNeeded();
    await shot(page, testInfo, `plurals-tasks-${lang}-390`);

    // One active friend: the referrals page and /boost say «1 активного друга».
    addReferredPlayers(server, player.username, 1);
    await page.goto('/referrals');
    await expect(page.getByTestId('awards-next')).toHaveText(seen.awardsNext);
    await expect(page.getByTestId('referral-boost-hint')).toContainText(seen.hintOne);
    await expect(page.getByRole('rowheader', { name: seen.awardRow, exact: true })).toBeVisible();
    await shot(page, testInfo, `plurals-referrals-${lang}-390`);

    await page.goto('/boost');
    const referrals = region(page, lang, 'mining:boosts.referrals.title');
    const claim = referrals.getByRole('button', { name: text(lang, 'mining:boosts.referrals.claim') });
    await expect(page.getByTestId('referral-boost-waiting')).toHaveText(seen.waitingOne);
    await claim.click();
    await expect(referrals).toContainText(seen.claimedOne);
    await expect(referrals.getByText(seen.countOne, { exact: true })).toBeVisible();

    // Four more: «4 активных друзей», «+4 буста», «5 бустов».
    addReferredPlayers(server, player.username, 4);
    await page.goto('/boost');
    await expect(page.getByTestId('referral-boost-waiting')).toHaveText(seen.waitingFour);
    await claim.click();
    await expect(referrals).toContainText(seen.claimedFour);
    await expect(referrals.getByText(seen.countFive, { exact: true })).toBeVisible();
    await shot(page, testInfo, `plurals-boost-${lang}-390`);

    await page.goto('/miner');
    const rate = region(page, lang, 'mining:rate.title');
    await expect(rate.getByText(seen.minerFive, { exact: true })).toBeVisible();
    await expect(rate.getByText(seen.minerNone, { exact: true })).toBeVisible();
    await rate.scrollIntoViewIfNeeded();
    await shot(page, testInfo, `plurals-miner-${lang}-390`);
  });
}
