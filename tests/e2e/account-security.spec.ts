// Account ownership in the browser (decisions §13), at 390×844 in English and Russian: the profile's
// Security section (methods and sessions, ending another session, signing out everywhere else), the
// reauth prompt a change opens when the server wants proof, the no-password-yet state after a
// registration link opened in another browser, and a device whose session was ended elsewhere:
// signed out with the reason, its queued claim paid once after the same player signs in again.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { expect, test, type RunningServer } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';
import { text } from './locale-text';
import { randomWallet, registerForLink, setWallet } from './players';

const SESSION_SECONDS = 6;
test.use({
  viewport: { width: 390, height: 844 },
  serviceWorkers: 'block',
  serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS), WORKER_INTERVAL_MS: '500' },
});
test.describe.configure({ timeout: 90_000 });

const LANGS = ['en', 'ru'] as const;

async function api<T>(
  server: RunningServer,
  method: string,
  path: string,
  { body, access }: { body?: unknown; access?: string } = {},
): Promise<{ status: number; data: T }> {
  const r = await fetch(`${server.baseURL}/api/v1/${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(access ? { authorization: `Bearer ${access}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, data: (await r.json().catch(() => null)) as T };
}

const loginElsewhere = async (server: RunningServer, email: string, password: string) =>
  (
    await api<{ access: string; refresh: string }>(server, 'POST', 'auth/login-by-email/', {
      body: { email, password },
    })
  ).data;

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

function claimRows(server: RunningServer, username: string): number {
  const db = new Database(join(server.dataDir, 'pxt.sqlite'), { readonly: true });
  try {
    return (
      db
        .prepare(
          "SELECT count(*) AS n FROM ledger l JOIN users u ON u.id = l.user_id WHERE lower(u.username) = lower(?) AND l.reason = 'mining_claim'",
        )
        .get(username) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

for (const lang of LANGS) {
  const t = (key: string, values?: Record<string, string | number>) => text(lang, key, values);

  test.describe(`in ${lang}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    });

    test(`the Security section lists methods and sessions, ends another session and signs out everywhere else (${lang})`, async ({
      page,
      server,
    }) => {
      const account = await createEmailAccount(server, `Sec${lang}Player`);
      const other = await loginElsewhere(server, account.email, account.password);
      await signInPage(page, account);
      await page.goto('/profile');
      const section = page.getByRole('region', { name: t('profile:security.title') });
      await expect(section).toBeVisible();
      const methods = page.getByTestId('security-methods');
      await expect(methods.getByRole('listitem')).toHaveCount(1);
      await expect(methods).toContainText(t('profile:security.kind.password'));
      await expect(methods).toContainText(account.email);
      await expect(section.getByRole('button', { name: t('profile:security.addWallet') })).toBeVisible();

      const sessions = page.getByTestId('security-sessions');
      await expect(sessions.getByRole('listitem')).toHaveCount(2);
      await expect(sessions.locator('[data-current]')).toContainText(t('profile:security.thisDevice'));
      await noSidewaysScroll(page);

      // End the other session: its tokens are refused at once.
      await sessions.getByRole('button', { name: t('profile:security.end') }).click();
      await expect(section.getByRole('status')).toHaveText(t('profile:security.sessionEnded'));
      await expect(sessions.getByRole('listitem')).toHaveCount(1);
      expect((await api(server, 'POST', 'auth/refresh/', { body: { refresh: other.refresh } })).status).toBe(401);
      expect((await api(server, 'GET', 'auth/me/', { access: other.access })).status).toBe(401);

      // Two more devices; "Sign out everywhere else" ends both and keeps this one.
      const a = await loginElsewhere(server, account.email, account.password);
      const b = await loginElsewhere(server, account.email, account.password);
      await page.reload();
      await expect(sessions.getByRole('listitem')).toHaveCount(3);
      await noSidewaysScroll(page);
      await section.getByRole('button', { name: t('profile:security.endOthers') }).click();
      await expect(section.getByRole('status')).toHaveText(t('profile:security.othersEnded'));
      await expect(sessions.getByRole('listitem')).toHaveCount(1);
      for (const s of [a, b]) expect((await api(server, 'GET', 'auth/me/', { access: s.access })).status).toBe(401);
      expect((await api(server, 'GET', 'auth/me/', { access: account.access })).status).toBe(200);
    });

    test(`removing a method opens the reauth prompt; a wrong password is said, the right one removes it, the last one offers no Remove (${lang})`, async ({
      page,
      server,
    }) => {
      const account = await createEmailAccount(server, `Proof${lang}Player`);
      setWallet(server, account.username, randomWallet());
      await signInPage(page, account);
      await page.goto('/profile');
      const methods = page.getByTestId('security-methods');
      await expect(methods.getByRole('listitem')).toHaveCount(2);

      await methods
        .getByRole('button', { name: t('profile:security.removeNamed', { method: t('profile:security.kind.wallet') }) })
        .click();
      const prompt = page.getByRole('dialog', { name: t('auth:reauth.title') });
      await expect(prompt).toBeVisible();
      await expect(prompt.getByRole('button', { name: t('auth:reauth.wallet') })).toBeVisible();
      await noSidewaysScroll(page);
      await prompt.getByLabel(t('auth:fields.currentPassword')).fill('wrong-pass1');
      await prompt.getByRole('button', { name: t('auth:reauth.confirm') }).click();
      await expect(prompt).toContainText(t('auth:reauth.passwordWrong'));
      await prompt.getByLabel(t('auth:fields.currentPassword')).fill(account.password);
      await prompt.getByRole('button', { name: t('auth:reauth.confirm') }).click();
      await expect(prompt).toBeHidden();
      await expect(methods.getByRole('listitem')).toHaveCount(1);
      await expect(methods).not.toContainText(t('profile:security.kind.wallet'));

      // The last way to sign in offers no Remove (the server would refuse it) and says why.
      const last = methods.getByRole('listitem');
      await expect(last.getByTestId('only-method')).toHaveText(t('profile:security.onlyMethod'));
      await expect(last.getByRole('button')).toHaveCount(0);
      await expect(methods.getByRole('listitem')).toHaveCount(1);
    });

    test(`a wallet account adding an e-mail and password is asked for proof by the reauth prompt, and closing it changes nothing (${lang})`, async ({
      page,
      server,
    }) => {
      // An e-mail account that removed its e-mail and password keeps only its wallet.
      const account = await createEmailAccount(server, `Wal${lang}Player`);
      setWallet(server, account.username, randomWallet());
      const reauth = await api<{ reauth: string }>(server, 'POST', 'auth/reauth/', {
        access: account.access,
        body: { password: account.password },
      });
      expect(
        (
          await api(server, 'DELETE', 'auth/methods/password/', {
            access: account.access,
            body: { reauth: reauth.data.reauth },
          })
        ).status,
      ).toBe(200);
      await signInPage(page, account);
      await page.goto('/profile');
      const section = page.getByRole('region', { name: t('profile:security.title') });
      await section.getByRole('button', { name: t('profile:security.addEmailPassword') }).click();
      const dialog = page.getByRole('dialog', { name: t('auth:addEmailPassword.title') });
      await dialog.getByLabel(t('auth:fields.email')).fill(uniqueEmail('added'));
      await dialog.getByLabel(t('auth:fields.password'), { exact: true }).fill('added1234');
      await dialog.getByLabel(t('auth:fields.repeatPassword')).fill('added1234');
      await dialog.getByRole('button', { name: t('auth:addEmailPassword.submit') }).click();
      const prompt = page.getByRole('dialog', { name: t('auth:reauth.title') });
      await expect(prompt).toBeVisible();
      // Only the wallet can prove this account: no password field.
      await expect(prompt.getByRole('button', { name: t('auth:reauth.wallet') })).toBeVisible();
      await expect(prompt.getByLabel(t('auth:fields.currentPassword'))).toHaveCount(0);
      await noSidewaysScroll(page);
      await page.keyboard.press('Escape');
      await expect(prompt).toBeHidden();
      await expect(dialog).toBeVisible();
      expect((await api<{ email: string }>(server, 'GET', 'auth/me/', { access: account.access })).data.email).toBe('');
    });

    test(`a registration link opened in another browser signs in without a password and asks for one at once; the profile shows it too (${lang})`, async ({
      page,
      browser,
      server,
    }) => {
      const email = uniqueEmail(`nopw${lang}`);
      const link = await registerForLink(server, email, 'typed1234');
      await page.goto(link);
      const dialog = page.getByRole('dialog', { name: t('auth:noPassword.title') });
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(t('auth:noPassword.text'));
      await noSidewaysScroll(page);
      // The password typed at registration does not count.
      expect(
        (await api(server, 'POST', 'auth/login-by-email/', { body: { email, password: 'typed1234' } })).status,
      ).not.toBe(200);

      // Closed for now: the username comes first, then the profile still says there is no password.
      await dialog.getByRole('button', { name: text(lang, 'common:modal.close') }).click();
      const details = page.getByRole('dialog', { name: t('auth:accountDetails.title') });
      await details.getByLabel(t('auth:fields.username')).fill(`Np${lang}${Date.now().toString(36).slice(-6)}`);
      await details.getByRole('button', { name: t('auth:accountDetails.submit') }).click();
      await expect(details).toBeHidden();
      await page.goto('/profile');
      await expect(page.getByTestId('profile-no-password')).toContainText(t('profile:actions.noPassword'));
      await expect(page.getByRole('button', { name: t('profile:actions.setPassword') })).toBeVisible();
      await noSidewaysScroll(page);

      // Another registration, its link opened in a fresh browser: the password is chosen right there.
      const email2 = uniqueEmail(`nopw2${lang}`);
      const link2 = await registerForLink(server, email2, 'typed1234');
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, serviceWorkers: 'block' });
      const fresh = await context.newPage();
      await fresh.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
      await fresh.goto(link2);
      const ask = fresh.getByRole('dialog', { name: t('auth:noPassword.title') });
      await ask.getByLabel(t('auth:fields.newPassword')).fill('chosen1234');
      await ask.getByLabel(t('auth:fields.repeatPassword')).fill('chosen1234');
      await ask.getByRole('button', { name: t('auth:noPassword.submit') }).click();
      await expect(ask).toContainText(t('auth:noPassword.done'));
      expect(
        (await api(server, 'POST', 'auth/login-by-email/', { body: { email: email2, password: 'chosen1234' } })).status,
      ).toBe(200);
      await context.close();
    });

    test(`a device whose session was ended elsewhere is signed out with the reason; its queued claim is paid once after signing in again (${lang})`, async ({
      page,
      context,
      server,
    }) => {
      const account = await createEmailAccount(server, `Out${lang}Player`);
      await signInPage(page, account);
      await page.goto('/miner');
      await page.getByRole('button', { name: t('mining:miner.start') }).click();
      await expect(page.getByTestId('miner-status')).toHaveText(t('mining:miner.status.ready'), {
        timeout: (SESSION_SECONDS + 20) * 1000,
      });

      await context.setOffline(true);
      await page.getByRole('button', { name: t('mining:miner.claim'), exact: true }).click();
      await expect(page.getByRole('button', { name: t('mining:miner.pending.claim') })).toBeVisible();

      // Meanwhile the player ends this device's session from another one.
      const elsewhere = await loginElsewhere(server, account.email, account.password);
      const list = await api<{ sessions: { id: number; current: boolean }[] }>(server, 'GET', 'auth/sessions/', {
        access: elsewhere.access,
      });
      for (const s of list.data.sessions.filter((x) => !x.current))
        expect((await api(server, 'DELETE', `auth/sessions/${s.id}/`, { access: elsewhere.access })).status).toBe(200);

      await context.setOffline(false);
      const login = page.getByRole('dialog', { name: t('auth:login.title') });
      await expect(login).toBeVisible({ timeout: 20_000 });
      await expect(login).toContainText(t('auth:login.notice.endedElsewhere'));
      expect(claimRows(server, account.username)).toBe(0);

      await login.getByLabel(t('auth:fields.email')).fill(account.email);
      await login.getByLabel(t('auth:fields.password'), { exact: true }).fill(account.password);
      await login.getByRole('button', { name: t('auth:login.submit') }).click();
      await expect(login).toBeHidden();
      // Back on the miner it was signed out of, before the reload: a reload in the moment between the
      // dialog closing and the return stayed on the landing page (a CI failure of this test).
      await expect(page).toHaveURL(/\/miner$/);
      await expect(page.getByTestId('miner-status')).toBeVisible();
      await expect.poll(() => claimRows(server, account.username), { timeout: 20_000 }).toBe(1);
      await page.reload();
      await expect(page.getByTestId('miner-status')).toHaveText(t('mining:miner.status.idle'));
      await page.waitForTimeout(1000);
      expect(claimRows(server, account.username)).toBe(1);
    });
  });
}
