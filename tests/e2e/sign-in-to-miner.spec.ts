// Issue 24: the app remembers that the player came to mine. A sign-up begun with "Start mining"
// (e-mail, through the mailed link opened in another tab) or a wallet sign-up through a friend's
// link ends on /miner with the guide and Start in view; a returning player's sign-in from the
// landing ends on /miner too; the installed app opens on /miner for a signed-in player, and its
// Tasks shortcut says quests pay coins. Phone size, both languages.
import type { Page } from '@playwright/test';
import { expect, mailedLink, test } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';
import { injectSigningWallet } from './injected-wallet';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage, type Lang } from './outcome-shots';

test.use({ viewport: PHONE, serviceWorkers: 'block' });

/** On /miner with the new player's guide over it; closing it leaves Start on the screen. */
async function onMinerWithGuide(page: Page, lang: Lang): Promise<void> {
  await expect(page).toHaveURL(/\/miner$/);
  const guide = page.getByRole('dialog', { name: text(lang, 'mining:guide.title') });
  await expect(guide).toBeVisible();
  await guide.getByRole('button', { name: text(lang, 'common:modal.close') }).click();
  await expect(guide).toBeHidden();
  await startInView(page, lang);
}

async function startInView(page: Page, lang: Lang): Promise<void> {
  const start = page.getByRole('button', { name: text(lang, 'mining:miner.start'), exact: true });
  await expect(start).toBeVisible();
  await expect(start).toBeInViewport();
}

const NAME = (tag: string) => `${tag}${Date.now().toString(36).slice(-6)}`;

for (const lang of LANGUAGES) {
  const t = (key: string) => text(lang, key);

  test(`${lang}: "Start mining", an e-mail sign-up, the mailed link in another tab, a username: the miner with its guide`, async ({
    page,
    context,
    server,
  }, testInfo) => {
    const email = uniqueEmail(`miner${lang}`);
    await useLanguage(page, lang);
    await page.goto('/');
    await page.getByTestId('landing-cta').click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('auth:main.email') })
      .click();
    await page
      .getByRole('dialog', { name: t('auth:login.title') })
      .getByRole('button', { name: t('auth:login.register') })
      .click();
    const register = page.getByRole('dialog', { name: t('auth:register.title') });
    await register.getByLabel(t('auth:fields.email')).fill(email);
    await register.getByLabel(t('auth:fields.password'), { exact: true }).fill('punk1234');
    await register.getByLabel(t('auth:fields.repeatPassword')).fill('punk1234');
    await register.getByText(t('auth:register.agree')).click();
    await register.getByRole('button', { name: t('auth:register.submit') }).click();
    await expect(page.getByRole('dialog', { name: t('auth:confirmRegistration.title') })).toBeVisible();

    // The mail app opens the link in a new tab of the same browser.
    const link = await mailedLink(server.dataDir, server.baseURL, email, 'confirmRegistration');
    const tab = await context.newPage();
    await useLanguage(tab, lang);
    await tab.goto(link);
    const details = tab.getByRole('dialog', { name: t('auth:accountDetails.title') });
    await details.getByLabel(t('auth:fields.username')).fill(NAME(`New${lang}`));
    await details.getByRole('button', { name: t('auth:accountDetails.submit') }).click();
    await expect(details).toBeHidden();
    await onMinerWithGuide(tab, lang);
    await shot(tab, testInfo, `signup-ends-on-miner-${lang}-390`);
  });

  test(`${lang}: a returning player signing in from the landing lands on the miner, Start in view, no guide`, async ({
    page,
    server,
  }) => {
    const player = await createEmailAccount(server, NAME(`Back${lang}`));
    await useLanguage(page, lang);
    await page.goto('/');
    await page.getByRole('button', { name: t('common:header.connect'), exact: true }).click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('auth:main.email') })
      .click();
    const login = page.getByRole('dialog', { name: t('auth:login.title') });
    await login.getByLabel(t('auth:fields.email')).fill(player.email);
    await login.getByLabel(t('auth:fields.password'), { exact: true }).fill(player.password);
    await login.getByRole('button', { name: t('auth:login.submit'), exact: true }).click();
    await expect(login).toBeHidden();
    await expect(page).toHaveURL(/\/miner$/);
    await startInView(page, lang);
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test(`${lang}: a wallet sign-up through a friend's link ends on the miner with the guide, the friend recorded`, async ({
    page,
    server,
    baseURL,
  }, testInfo) => {
    const friend = await createEmailAccount(server, NAME(`Crew${lang}`));
    const me = await fetch(`${server.baseURL}/api/v1/auth/me/`, {
      headers: { authorization: `Bearer ${friend.access}` },
    });
    const referralLink = ((await me.json()) as { referral_link: string }).referral_link;
    const refCode = new URL(referralLink).searchParams.get('refCode')!;

    await injectSigningWallet(page);
    await useLanguage(page, lang);
    await page.goto(`/?refCode=${refCode}`);
    await page.getByTestId('landing-cta').click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('auth:main.wallet') })
      .click();
    const details = page.getByRole('dialog', { name: t('auth:accountDetails.title') });
    await expect(details).toBeVisible({ timeout: 20_000 });
    const completion = page.waitForRequest(
      (r) => r.url().endsWith('/api/v1/auth/complete-registration/') && r.method() === 'PATCH',
    );
    await details.getByLabel(t('auth:fields.username')).fill(NAME(`W${lang}`));
    await details.getByRole('button', { name: t('auth:accountDetails.submit') }).click();
    expect((await completion).postDataJSON()).toMatchObject({ referral_link: `${baseURL}/?refCode=${refCode}` });
    await onMinerWithGuide(page, lang);
    await shot(page, testInfo, `wallet-signup-ends-on-miner-${lang}-390`);
  });

  test(`${lang}: the installed app opens on the miner for a signed-in player, on the landing for a visitor; the Tasks shortcut says coins`, async ({
    page,
    browser,
    server,
    baseURL,
  }) => {
    const file = lang === 'en' ? '/manifest.webmanifest' : '/manifest.ru.webmanifest';
    const manifest = (await (await fetch(`${server.baseURL}${file}`)).json()) as {
      id: string;
      start_url: string;
      shortcuts: { url: string; description: string }[];
    };
    expect(manifest.id).toBe('/');
    const tasks = manifest.shortcuts.find((s) => s.url === '/tasks')!;
    expect(tasks.description).toMatch(lang === 'en' ? /\bcoins\b/ : /монет/);
    expect(tasks.description).not.toMatch(/PXT/);

    const player = await createEmailAccount(server, NAME(`Home${lang}`));
    await useLanguage(page, lang);
    await signInPage(page, player);
    await page.goto(manifest.start_url);
    await expect(page).toHaveURL(`${baseURL}/miner`);
    await startInView(page, lang);

    const visitorContext = await browser.newContext({ viewport: PHONE, serviceWorkers: 'block' });
    const visitor = await visitorContext.newPage();
    await useLanguage(visitor, lang);
    await visitor.goto(manifest.start_url);
    await expect(visitor.getByTestId('landing-cta')).toBeVisible();
    await expect(visitor).toHaveURL(`${baseURL}/`);
    await expect(visitor.getByRole('dialog')).toHaveCount(0);
    await visitorContext.close();
  });
}

test('a sign-in left open on the landing is forgotten by a page opened signed in: /profile stays /profile', async ({
  page,
  server,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: text('en', 'common:header.connect'), exact: true }).click();
  await expect(page.getByRole('dialog', { name: text('en', 'auth:main.title') })).toBeVisible();
  // The tab goes elsewhere with the dialog open, and comes back signed in by another way.
  const player = await createEmailAccount(server, NAME('Left'));
  await signInPage(page, player);
  await page.goto('/profile');
  await expect(page.getByTestId('player-block')).toContainText(player.username);
  await expect(page.getByTestId('security-methods')).toBeVisible();
  // Signed in and drawn: a remembered sign-in start would have moved the page by now.
  await expect(page).toHaveURL(/\/profile$/);
  await page.reload();
  await expect(page.getByTestId('security-methods')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
});
