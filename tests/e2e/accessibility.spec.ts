// Accessibility pass (issue 15), as a visitor: axe-core over every page and every dialog a test can
// reach, in English and in Russian (the signed-in player's: accessibility-player.spec.ts). A serious
// or critical violation fails the test; the report lists each with the page or dialog it was found
// on. One browser context per language; the pages and dialogs are visited in turn.
//
// Covered (each in en and ru):
//   visitor pages   /, /blog, /privacy, /terms, /profile (sent to /), /no-such-page
//   visitor dialogs main login, login (e-mail), register (empty and with field errors), confirm
//                   registration (link sent), forgot password, its "check your inbox", new password
//                   (mailed link), confirm wallet with the EIP-6963 picker of two injected wallets,
//                   the first-time username dialog (account details) after signing with one of
//                   them, then that wallet player's add e-mail and password and its "check your
//                   inbox" (confirmEmail) once sent and proved with the wallet (issue 24)
//   notices         ready to work offline (first install of the worker), the update prompt (a new
//                   worker waiting), the offline line
//   the rest        (issue 24) the not-authorised miner (a visitor's Miner), the error modal (a
//                   sign-in's 5xx, made up in the browser: the server answers none), the install card
//                   (a beforeinstallprompt dispatched by the test: Chromium here fires none), the
//                   undo-e-mail-change link (a spent token's answer), the password-change notice
//                   and its mailed link's dialog
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { annotateScans, click, type Finding, type Lang, report, scan, scanDialog } from './axe-scan';
import { expect, mailedLink, STATIC_DIR, test } from './fixtures';
import { createEmailAccount, deployNewWorker, signInPage, uniqueEmail } from './helpers';
import { injectTwoWallets } from './injected-wallet';
import { text } from './locale-text';

// Its tests are among the longest of the browser suite and independent (each makes its own players;
// the one that restarts the server on a build copy restarts it back), so two workers share them,
// each on a server of its own.
test.describe.configure({ mode: 'parallel', timeout: 360_000 });
annotateScans();

const controlled = (page: Page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

for (const lang of ['en', 'ru'] as const satisfies readonly Lang[]) {
  const t = (key: string, values?: Record<string, string | number>) => text(lang, key, values);

  test(`${lang}: visitor pages, sign-in and wallet dialogs, notices have no serious or critical axe violation`, async ({
    page,
    context,
    server,
  }) => {
    const findings: Finding[] = [];
    // A copy of the build, so the test can change the worker's bytes like a deploy would (update prompt).
    const copy = mkdtempSync(join(tmpdir(), 'pxt-axe-'));
    try {
      cpSync(STATIC_DIR, copy, { recursive: true });
      await server.restart({ STATIC_DIR: copy });
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
      await injectTwoWallets(page);

      await page.goto('/');
      const ready = page
        .getByRole('status')
        .filter({ has: page.getByRole('button', { name: t('pwa:offlineReady.ok') }) });
      // The notice waits for the next page once the worker is installed (it would shift this one).
      await expect
        .poll(() => page.evaluate(() => localStorage.getItem('pxt.offlineReadyShown')), { timeout: 20_000 })
        .toBe('1');
      await page
        .getByRole('contentinfo')
        .getByRole('link', { name: t('common:legal.privacy') })
        .click();
      await expect(ready).toBeVisible({ timeout: 20_000 });
      await scan(page, 'notice ready to work offline', findings);
      await ready.getByRole('button').click();
      // The update prompt: a new worker is waiting (it stays waiting, so later pages show the prompt too).
      await page.reload();
      await expect.poll(() => controlled(page)).toBe(true);
      deployNewWorker(copy);
      await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
      await expect(page.getByRole('status').filter({ hasText: t('pwa:update.text') })).toBeVisible({ timeout: 20_000 });
      await scan(page, 'notice update prompt', findings);

      for (const path of ['/', '/blog', '/privacy', '/terms', '/profile', '/no-such-page']) {
        await page.goto(path);
        await expect(page.getByRole('main')).toBeVisible();
        await scan(page, path, findings);
      }
      await page.goto('/');
      const connect = () => click(page, t('common:header.connect'));
      await scanDialog(page, 'dialog main', findings, connect);
      await scanDialog(page, 'dialog login', findings, async () => {
        await connect();
        await click(page, t('auth:main.email'));
      });
      await scanDialog(page, 'dialog register', findings, async () => {
        await connect();
        await click(page, t('auth:main.email'));
        await click(page, t('auth:login.register'));
      });
      await scanDialog(page, 'dialog forgot password', findings, async () => {
        await connect();
        await click(page, t('auth:main.email'));
        await page
          .getByRole('dialog')
          .getByRole('button', { name: t('auth:login.forgot') })
          .or(page.getByRole('dialog').getByRole('link', { name: t('auth:login.forgot') }))
          .first()
          .click();
      });
      await scanDialog(page, 'dialog new password (mailed link)', findings, () =>
        page.goto('/?modal=restorePassword&token=abc').then(() => undefined),
      );
      // Register with field errors, then sent: the "confirm your e-mail" dialog; forgot password, then sent.
      const email = uniqueEmail(`axevisitor${lang}`);
      await connect();
      await click(page, t('auth:main.email'));
      await click(page, t('auth:login.register'));
      const form = page.getByRole('dialog');
      await form.getByLabel(t('auth:fields.email')).fill(email);
      await form.getByLabel(t('auth:fields.password'), { exact: true }).fill('short');
      await form.getByLabel(t('auth:fields.repeatPassword')).fill('punk1235');
      await expect(form.getByRole('button', { name: t('auth:register.submit') })).toBeDisabled();
      await scan(page, 'dialog register with field errors', findings);
      await form.getByLabel(t('auth:fields.password'), { exact: true }).fill('punk1234');
      await form.getByLabel(t('auth:fields.repeatPassword')).fill('punk1234');
      await form.getByLabel(t('auth:register.agree')).check();
      await form.getByRole('button', { name: t('auth:register.submit') }).click();
      await expect(page.getByTestId('registration-email')).toHaveText(email);
      await scan(page, 'dialog confirm registration (link sent)', findings);
      await page.keyboard.press('Escape');
      if (await page.getByRole('dialog').count()) await page.reload();
      await connect();
      await click(page, t('auth:main.email'));
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('auth:login.forgot') })
        .or(page.getByRole('dialog').getByRole('link', { name: t('auth:login.forgot') }))
        .first()
        .click();
      await page.getByRole('dialog').getByLabel(t('auth:fields.email')).fill(email);
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('auth:forgot.submit') })
        .click();
      await expect(page.getByRole('dialog')).toContainText(email);
      await scan(page, 'dialog confirm forgot password (link sent)', findings);
      await page.keyboard.press('Escape');
      if (await page.getByRole('dialog').count()) await page.reload();

      // The offline line.
      await context.setOffline(true);
      await expect(page.getByTestId('offline-banner')).toBeVisible();
      await scan(page, 'notice offline line', findings);
      await context.setOffline(false);
      await expect(page.getByTestId('offline-banner')).toBeHidden();

      // Wallets: the picker of two announced wallets, then the first-time username dialog.
      await connect();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('auth:main.wallet') })
        .click();
      const list = page.getByRole('dialog').getByRole('list');
      await expect(list.getByRole('button')).toHaveText(['Alpha Wallet', 'Beta Wallet']);
      await scan(page, 'dialog confirm wallet (EIP-6963 picker)', findings);
      await list.getByRole('button', { name: 'Beta Wallet' }).click();
      await expect(page.getByRole('dialog').getByLabel(t('auth:fields.username'))).toBeVisible({ timeout: 20_000 });
      await scan(page, 'dialog account details (first-time username)', findings);
      // The wallet player, now with a username, adds an e-mail and a password.
      await page
        .getByRole('dialog')
        .getByLabel(t('auth:fields.username'))
        .fill(`Axe${lang}${Date.now().toString(36).slice(-6)}`);
      await page
        .getByRole('dialog')
        .getByRole('button', { name: t('auth:accountDetails.submit') })
        .click();
      // A new player lands on the miner with its guide (issue 24).
      await page
        .getByRole('dialog', { name: t('mining:guide.title') })
        .getByRole('button', { name: t('common:modal.close') })
        .click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await page.goto('/profile');
      await scanDialog(page, 'dialog add e-mail and password', findings, () =>
        click(page, t('profile:actions.addEmailPassword')),
      );
      // Sent, proved with the wallet (decisions §13): the "check your inbox" dialog (confirmEmail).
      await click(page, t('profile:actions.addEmailPassword'));
      const add = page.getByRole('dialog', { name: t('auth:addEmailPassword.title') });
      await add.getByLabel(t('auth:fields.email')).fill(uniqueEmail(`axeadded${lang}`));
      await add.getByLabel(t('auth:fields.password'), { exact: true }).fill('added1234');
      await add.getByLabel(t('auth:fields.repeatPassword')).fill('added1234');
      await add.getByRole('button', { name: t('auth:addEmailPassword.submit') }).click();
      await page
        .getByRole('dialog', { name: t('auth:reauth.title') })
        .getByRole('button', { name: t('auth:reauth.wallet') })
        .click();
      await expect(page.getByRole('dialog', { name: t('auth:confirmEmail.title') })).toBeVisible({ timeout: 20_000 });
      await scan(page, 'dialog confirm e-mail (link sent)', findings);
    } finally {
      await server.restart();
      rmSync(copy, { recursive: true, force: true });
    }
    expect(findings, report(findings)).toEqual([]);
  });

  test(`${lang}: the not-authorised miner, the error modal, the install card and the mail links' dialogs have no serious or critical axe violation`, async ({
    page,
    context,
    server,
  }) => {
    const findings: Finding[] = [];
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    await page.goto('/');
    await expect(page.getByRole('main')).toBeVisible();
    // A link pressed before the app runs is followed by the browser: wait for the app.
    await page.waitForLoadState('networkidle');
    await scanDialog(page, 'dialog not-authorised miner', findings, () =>
      page
        .getByRole('navigation', { name: t('common:nav.main') })
        .getByRole('link', { name: t('common:nav.miner') })
        .click(),
    );

    // The error modal: the server fails a sign-in. It never does on its own, so this one answer is
    // made up in the browser.
    await page.route(/\/api\/v1\/auth\/login[^/]*\/$/, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"Internal Server Error"}' }),
    );
    await scanDialog(page, 'dialog error (a sign-in failed by the server)', findings, async () => {
      await click(page, t('common:header.connect'));
      await click(page, t('auth:main.email'));
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(t('auth:fields.email'), { exact: true }).fill(uniqueEmail(`axeerror${lang}`));
      await dialog.getByLabel(t('auth:fields.password'), { exact: true }).fill('punk1234');
      await dialog.getByRole('button', { name: t('auth:login.submit'), exact: true }).click();
      await expect(page.getByRole('dialog', { name: t('errors:generic.title') })).toBeVisible();
    });
    await page.unrouteAll();

    // The install card: Chromium fires no beforeinstallprompt here, so the test dispatches one the
    // way the browser would, until the app keeps it (cancels it); the card waits for the next page.
    // Again if the app was not running yet and the browser followed the link (a new page forgets it).
    await page.goto('/');
    const offered = () =>
      page.evaluate(() => {
        const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
          prompt: () => Promise.resolve(),
          userChoice: Promise.resolve({ outcome: 'dismissed', platform: 'web' }),
        });
        return !window.dispatchEvent(offer);
      });
    await expect(async () => {
      await expect.poll(offered, { timeout: 20_000 }).toBe(true);
      await page
        .getByRole('contentinfo')
        .getByRole('link', { name: t('common:legal.privacy') })
        .click();
      await expect(page.getByRole('region', { name: t('pwa:install.title') })).toBeVisible();
    }).toPass({ timeout: 60_000 });
    await scan(page, 'install card', findings);

    // The undo link of an e-mail change, already spent (a made-up token): the dialog says so.
    await scanDialog(page, 'dialog undo e-mail change (spent link)', findings, () =>
      page.goto('/?modal=undoEmailChange&token=abc').then(() => undefined),
    );

    // An e-mail player asks to change the password: the notice, then the mailed link's dialog.
    const account = await createEmailAccount(server, `axepw${lang}${Date.now().toString(36).slice(-5)}`);
    const playerPage = await context.newPage();
    await playerPage.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    await signInPage(playerPage, account);
    await playerPage.goto('/profile');
    await scanDialog(playerPage, 'dialog password-change notice', findings, () =>
      click(playerPage, t('profile:actions.password')),
    );
    const link = await mailedLink(server.dataDir, server.baseURL, account.email, 'confirmPasswordChange');
    await scanDialog(playerPage, 'dialog change password (mailed link)', findings, () =>
      playerPage.goto(link).then(() => undefined),
    );
    expect(findings, report(findings)).toEqual([]);
  });
}
