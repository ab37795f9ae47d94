// Accessibility pass (issue 15), as a signed-in player: axe-core over every page, dialog, detail
// view and moment a test can reach, in English and in Russian (the visitor's: accessibility.spec.ts).
// A serious or critical violation fails the test; the report lists each with the page or dialog it
// was found on.
//
// Covered (each in en and ru):
//   player pages    /, /blog, an article, /privacy, /terms, /profile, /tasks, /referrals, /arcade,
//                   /miner, /mining, /boost, /no-such-page
//   player dialogs  change username, change e-mail (empty and with the link sent), change password
//                   (the password-change notice), link a wallet (connect wallet), beta application,
//                   mining guide, top up, 2x
//                   boosts, Auto Miner, boost longer than the session (notice-boost), use the boost
//                   now? (boostConfirm), top up for the Auto Miner and its paid order state, e-mail
//                   changed (the confirmed link)
//   detail views    referral, completed quest, inventory boost (asset), Auto Miner period
//   moments         the /miner reward moment after a claim
import { annotateScans, click, type Finding, type Lang, report, scan, scanDialog } from './axe-scan';
import { expect, linkFromMail, test } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';
import { text } from './locale-text';
import { addReferredPlayers, setWallet } from './players';

// Long enough that a loaded machine still reaches the boost confirmation within the session.
const SESSION_SECONDS = 20;
test.use({ serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS) } });
test.describe.configure({ mode: 'parallel', timeout: 360_000 });
annotateScans();

for (const lang of ['en', 'ru'] as const satisfies readonly Lang[]) {
  const t = (key: string, values?: Record<string, string | number>) => text(lang, key, values);

  test(`${lang}: signed-in pages, dialogs, detail views and the reward moment have no serious or critical axe violation`, async ({
    page,
    server,
    outbox,
    baseURL,
  }) => {
    const findings: Finding[] = [];
    const account = await createEmailAccount(server, `axe${lang}${Date.now().toString(36).slice(-5)}`);
    const [friend] = addReferredPlayers(server, account.username, 6);
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    await signInPage(page, account);
    for (const path of [
      '/',
      '/blog',
      '/article/what-is-pxt',
      '/privacy',
      '/terms',
      '/profile',
      '/tasks',
      '/referrals',
      '/arcade',
      '/miner',
      '/mining',
      '/boost',
      '/no-such-page',
    ]) {
      await page.goto(path);
      await expect(page.getByRole('main')).toBeVisible();
      await scan(page, path, findings);
    }

    await page.goto('/profile');
    await scanDialog(page, 'dialog change username', findings, () => click(page, t('profile:actions.username')));
    await scanDialog(page, 'dialog change e-mail', findings, () => click(page, t('profile:actions.email')));
    await scanDialog(page, 'dialog change password', findings, () => click(page, t('profile:actions.password')));
    await scanDialog(page, 'dialog link a wallet (connect wallet)', findings, () =>
      click(page, t('profile:actions.linkWallet')),
    );
    setWallet(server, account.username);

    await page.goto('/referrals');
    await click(page, t('referrals:detail.open', { name: friend }));
    await expect(page.getByTestId('referral-detail')).toContainText(friend);
    await scan(page, 'detail referral', findings);

    // Tasks: a completed quest's detail, then the three follow quests that make the player eligible for the beta.
    await page.goto('/tasks');
    const nickname = page.locator('[data-quest="add_nickname"]');
    await expect(nickname.getByText(t('tasks:quest.done'), { exact: true })).toBeVisible();
    await nickname.getByRole('button', { name: t('tasks:detail.open') }).click();
    await expect(nickname.getByTestId('completed-task-detail')).toBeVisible();
    await scan(page, 'detail completed quest', findings);
    for (const [key, name] of [
      ['telegram_ru', 'tasks:quest.telegram_ru.button'],
      ['telegram_eng', 'tasks:quest.telegram_eng.button'],
      ['discord', 'tasks:quest.discord.button'],
    ]) {
      const quest = page.locator(`[data-quest="${key}"]`);
      const [tab] = await Promise.all([
        page.context().waitForEvent('page'),
        quest.getByRole('link', { name: t(name) }).click(),
      ]);
      await tab.close();
      await expect(quest.getByText(t('tasks:quest.done'), { exact: true })).toBeVisible();
    }
    await scanDialog(page, 'dialog beta application', findings, () => click(page, t('tasks:beta.apply')));

    await page.goto('/mining');
    await click(page, t('mining:assetDetail.open', { hours: 1 }));
    await expect(page.getByTestId('asset-detail')).toBeVisible();
    await scan(page, 'detail inventory boost (asset)', findings);

    await page.goto('/miner');
    await scanDialog(page, 'dialog mining guide', findings, () => click(page, t('mining:miner.guide')));
    await scanDialog(page, 'dialog top up', findings, () => click(page, t('mining:wallet.topUp')));
    await scanDialog(page, 'dialog 2x boosts', findings, () => click(page, t('mining:rate.useBoost')));
    // A running session shorter than the welcome boost: the Notice, then the confirmation.
    await click(page, t('mining:miner.start'));
    await expect(page.getByTestId('miner-status')).toHaveText(t('mining:miner.status.running'));
    await click(page, t('mining:rate.useBoost'));
    await click(page, t('mining:boostSelect.useLabel', { hours: 1 }));
    await expect(page.getByRole('dialog').getByRole('button', { name: t('mining:notice.continue') })).toBeVisible();
    await scan(page, 'dialog boost longer than the session (notice-boost)', findings);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('mining:notice.continue') })
      .click();
    await expect(page.getByTestId('boost-message')).toBeVisible();
    await scan(page, 'dialog use the boost now? (boostConfirm)', findings);
    // Cancel asks nothing of the server, so the session's end cannot race it.
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('mining:notice.cancel') })
      .click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    // The reward moment after a claim.
    await expect(page.getByTestId('miner-status')).toHaveText(t('mining:miner.status.ready'), {
      timeout: (SESSION_SECONDS + 20) * 1000,
    });
    await click(page, t('mining:miner.claim'));
    await expect(page.getByTestId('reward-moment')).toBeVisible();
    await scan(page, 'reward moment after a claim', findings);
    // The Auto Miner: its dialog, the top-up it asks for, the paid order, the period's detail.
    await click(page, t('mining:auto.subscribe'));
    await expect(page.getByRole('dialog')).toBeVisible();
    await scan(page, 'dialog Auto Miner', findings);
    await click(page, t('mining:autoMiner.buyMissing', { count: 150, gems: 150 }));
    await expect(page.getByRole('dialog').getByRole('button', { name: t('mining:topUp.pay') })).toBeVisible();
    await scan(page, 'dialog top up for the Auto Miner', findings);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('mining:topUp.pay') })
      .click();
    await expect(page.getByRole('dialog').getByRole('button', { name: t('mining:topUp.close') })).toBeVisible();
    await scan(page, 'dialog top up, paid order', findings);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('mining:topUp.close') })
      .click();
    await page
      .getByRole('button', {
        name: new RegExp(`^${t('mining:subscription.open', { from: 'X', to: 'X' }).split('X')[0]}`),
      })
      .first()
      .click();
    await expect(page.getByTestId('subscription-detail')).toBeVisible();
    await scan(page, 'detail Auto Miner period', findings);

    // The e-mail change: the dialog once the link is sent, then the confirmed link's dialog.
    await page.goto('/profile');
    await click(page, t('profile:actions.email'));
    const next = uniqueEmail(`axe${lang}`);
    await page.getByRole('dialog').getByLabel(t('auth:fields.newEmail')).fill(next);
    await page.getByRole('dialog').getByLabel(t('auth:fields.currentPassword')).fill(account.password);
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('auth:updateEmail.submit') })
      .click();
    await expect.poll(() => outbox().some((m) => m.includes(`To: ${next}`))).toBe(true);
    await expect(page.getByRole('dialog').getByRole('status')).toBeVisible();
    await scan(page, 'dialog change e-mail, link sent', findings);
    await page.goto(
      linkFromMail(
        outbox()
          .filter((m) => m.includes(`To: ${next}`))
          .at(-1)!,
        baseURL!,
      ),
    );
    await expect(page.getByRole('dialog').getByRole('status')).toContainText(next);
    await scan(page, 'dialog e-mail changed', findings);
    expect(findings, report(findings)).toEqual([]);
  });
}
