// Issue 16, fewer taps on /tasks at phone size in both languages: quests already met are checked on
// page open (no CHECK press), one press takes every boost earned, and the nine "Invite N friends"
// cards are one progress card that links to /referrals.
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';
import { addReferredPlayers, setWallet } from './players';

test.use({ viewport: PHONE });

for (const lang of LANGUAGES) {
  test(`${lang}: met quests are checked on open, one press takes every boost, the invite quests are one card`, async ({
    page,
    server,
  }, testInfo) => {
    const player = await createEmailAccount(server, `Tap${lang}${Date.now().toString(36).slice(-6)}`);
    setWallet(server, player.username);
    addReferredPlayers(server, player.username, 1);
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto('/tasks');
    await expect(page.locator('[data-quest="add_nickname"]')).toBeVisible();
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `quests-open-${lang}-390`);

    const quest = (key: string) => page.locator(`[data-quest="${key}"]`);
    const done = text(lang, 'tasks:quest.done');
    for (const key of ['add_nickname', 'connect_wallet', 'add_email_password'])
      await expect(quest(key).getByText(done, { exact: true })).toBeVisible();
    await expect(page.getByTestId('quests-auto')).toHaveText(text(lang, 'tasks:autoChecked', { coins: 25 }));
    await expect(page.getByTestId('coin-balance')).toHaveText('25');

    // One press for the three boosts earned.
    const all = page.getByTestId('boost-all');
    await all.getByRole('button', { name: text(lang, 'tasks:boostAll.button', { percent: 15 }) }).click();
    await expect(all.getByRole('status')).toHaveText(text(lang, 'tasks:boostAll.received', { percent: 15, total: 15 }));
    for (const key of ['add_nickname', 'connect_wallet', 'add_email_password'])
      await expect(quest(key).getByText(text(lang, 'tasks:boost.active'))).toBeVisible();
    await expect(all.getByRole('button')).toHaveCount(0);

    // The invite quests: one card with the progress to the next one, linking to the referrals.
    await expect(page.locator('[data-quest^="invite_"]')).toHaveCount(0);
    const invites = quest('invites');
    await invites.scrollIntoViewIfNeeded();
    await shot(page, testInfo, `quests-invites-${lang}-390`);
    await expect(invites).toContainText(text(lang, 'tasks:quest.invite.progress', { count: 1, target: 2 }));
    await expect(invites.getByTestId('invites-done')).toHaveText(
      text(lang, 'tasks:invites.done', { done: 0, total: 9 }),
    );
    await invites.getByRole('link', { name: text(lang, 'tasks:quest.invite.button') }).click();
    await expect(page).toHaveURL(/\/referrals$/);
  });
}
