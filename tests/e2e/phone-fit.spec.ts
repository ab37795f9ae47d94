// Nothing cut or hidden on a phone (issue 24), in English and Russian: the referral awards table's
// rows fit the screen (390 and 320 px), the referral link shows whole, no footer word is broken
// mid-word, the beta form says every field is required and Send shows what is missing, the wallet
// quest offers a wallet instead of a check the server would refuse, and the phone menu closes on
// Escape and on a tap outside and never stands under the account menu.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';
import { addReferredPlayers, setWallet } from './players';

test.use({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });

test.beforeEach(async ({ context }) => {
  // The social channels are outside the test machine's reach: answer their tabs locally.
  await context.route(/^https:\/\/(t\.me|discord\.gg)\//, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>channel</title>' }),
  );
});

const quest = (page: Page, key: string) => page.locator(`[data-quest="${key}"]`);

for (const lang of ['en', 'ru'] as const) {
  const t = (key: string, values?: Record<string, string | number>) => text(lang, key, values);

  test.describe(`in ${lang}`, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    });

    test(`the awards table's rows and the whole referral link fit 390 and 320 px (${lang})`, async ({
      page,
      server,
    }) => {
      const player = await createEmailAccount(server, `Fit${lang}${Date.now().toString(36).slice(-5)}`);
      // Some awards reached ("Ready to claim"), the others in progress: both kinds of status.
      addReferredPlayers(server, player.username, 6);
      await signInPage(page, player);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        await page.goto('/referrals');
        const table = page.getByRole('table');
        await expect(table.getByRole('cell', { name: t('referrals:awards.ready') }).first()).toBeVisible();
        await page.evaluate(() => document.fonts.ready);

        // The table fits its box: nothing to scroll inside it, and every status on screen.
        const fit = await table.evaluate((el) => {
          const box = el.parentElement!.getBoundingClientRect();
          const statuses = Array.from(el.querySelectorAll('tr > :last-child')).map((c) => c.getBoundingClientRect());
          return {
            wider: el.getBoundingClientRect().width > box.width + 0.5,
            scrolls: el.parentElement!.scrollWidth > el.parentElement!.clientWidth,
            cut: statuses.filter((r) => r.right > box.right + 0.5 || r.right > window.innerWidth).length,
          };
        });
        expect(fit, `awards table @${width}`).toEqual({ wider: false, scrolls: false, cut: 0 });

        // The referral link: every character of it shown, inside the screen.
        const link = page.locator('.ref-link').locator('[data-testid="referral-link"], input');
        const shown = await link.evaluate((el) => {
          const r = el.getBoundingClientRect();
          if (el instanceof HTMLInputElement)
            // An input shows one line: whatever is wider than it is cut.
            return { value: el.value, cut: el.scrollWidth > el.clientWidth, right: r.right, left: r.left };
          // Text: each of its lines inside the box that holds it.
          const box = el.parentElement!;
          const edge = box.getBoundingClientRect();
          const cut =
            box.scrollWidth > box.clientWidth ||
            Array.from(el.getClientRects()).some(
              (line) => line.right > edge.right + 0.5 || line.left < edge.left - 0.5,
            );
          return { value: el.textContent ?? '', cut, right: edge.right, left: edge.left };
        });
        expect(shown.value, `referral link @${width}`).toMatch(/\?refCode=[\w-]+$/);
        expect(shown.cut, `referral link cut @${width}`).toBe(false);
        expect(shown.left).toBeGreaterThanOrEqual(0);
        expect(shown.right).toBeLessThanOrEqual(width);
        await expect(page.getByText(shown.value, { exact: true })).toBeVisible();
      }
    });

    test(`no footer word is broken across lines at 390 and 320 px (${lang})`, async ({ page }) => {
      await page.goto('/privacy');
      await page.evaluate(() => document.fonts.ready);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 844 });
        const broken = await page.getByRole('contentinfo').evaluate((footer) => {
          const out: string[] = [];
          for (const link of Array.from(footer.querySelectorAll('a'))) {
            const node = link.firstChild;
            if (!(node instanceof Text)) continue;
            for (const m of node.data.matchAll(/\S+/g)) {
              const range = document.createRange();
              range.setStart(node, m.index);
              range.setEnd(node, m.index + m[0].length);
              // One word on two lines has two boxes.
              const lines = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
              if (lines.size > 1) out.push(m[0]);
            }
          }
          return out;
        });
        expect(broken, `footer @${width}`).toEqual([]);
      }
    });

    test(`the beta form marks its required fields and Send says what is missing (${lang})`, async ({
      page,
      server,
    }) => {
      const tester = await createEmailAccount(server, `FitBeta${lang}${Date.now().toString(36).slice(-4)}`);
      setWallet(server, tester.username);
      addReferredPlayers(server, tester.username, 6);
      await signInPage(page, tester);
      await page.goto('/tasks');
      for (const key of ['add_nickname', 'connect_wallet', 'add_email_password'])
        await expect(quest(page, key).getByText(t('tasks:quest.done'), { exact: true })).toBeVisible();
      for (const key of ['telegram_ru', 'telegram_eng', 'discord']) {
        const [tab] = await Promise.all([
          page.context().waitForEvent('page'),
          quest(page, key)
            .getByRole('link', { name: t(`tasks:quest.${key}.button`) })
            .click(),
        ]);
        await tab.close();
        await expect(quest(page, key).getByText(t('tasks:quest.done'), { exact: true })).toBeVisible();
      }
      await page.getByRole('button', { name: t('tasks:beta.apply') }).click();
      const form = page.getByRole('dialog', { name: t('tasks:beta.form.title') });
      await expect(form).toBeVisible();
      // Said before anything is typed, and on each field for assistive technology.
      await expect(form.getByText(t('tasks:beta.form.required'))).toBeVisible();
      for (const field of ['telegram', 'discord', 'email', 'wallet'])
        await expect(form.getByLabel(t(`tasks:beta.form.${field}`), { exact: true })).toHaveAttribute('required', '');

      await form.getByLabel(t('tasks:beta.form.telegram'), { exact: true }).fill('@fit_punk');
      const send = form.getByRole('button', { name: t('tasks:beta.form.submit') });
      await expect(send).toBeEnabled();
      await send.click();
      // Discord left empty: asked to be filled in, not told its format is wrong, and the focus is on it.
      const discord = form.getByLabel(t('tasks:beta.form.discord'), { exact: true });
      await expect(discord).toBeFocused();
      await expect(form.getByText(t('tasks:beta.form.empty'))).toBeVisible();
      await expect(form.getByText(/Discord username|имени пользователя Discord/i)).toHaveCount(0);
      await expect(page.getByRole('dialog', { name: t('tasks:beta.success.title') })).toHaveCount(0);

      await discord.fill('fit.punk');
      await send.click();
      await expect(page.getByRole('dialog', { name: t('tasks:beta.success.title') })).toBeVisible();
    });

    test(`the wallet quest offers to connect a wallet to a player without one (${lang})`, async ({ page, server }) => {
      const player = await createEmailAccount(server, `FitWallet${lang}${Date.now().toString(36).slice(-4)}`);
      await signInPage(page, player);
      await page.goto('/tasks');
      const wallet = quest(page, 'connect_wallet');
      await expect(wallet.getByRole('button', { name: t('tasks:quest.offer.connectWallet') })).toBeVisible();
      await expect(wallet.getByRole('button', { name: t('tasks:quest.connect_wallet.button') })).toHaveCount(0);
      await wallet.getByRole('button', { name: t('tasks:quest.offer.connectWallet') }).click();
      await expect(page.getByRole('dialog', { name: t('auth:connectWallet.title') })).toBeVisible();
      await expect(wallet.getByRole('alert')).toHaveCount(0);
    });

    test(`the phone menu closes on Escape and on a tap outside, and one menu is open at a time (${lang})`, async ({
      page,
      server,
    }) => {
      const toggle = page.getByRole('button', { name: t('common:nav.menu'), exact: true });
      const nav = page.getByRole('navigation', { name: t('common:nav.main') });
      await page.goto('/privacy');
      await expect(page.getByRole('main')).toBeVisible();

      await toggle.click();
      await expect(nav).toBeVisible();
      await page.keyboard.press('Escape');
      await expect(nav).toBeHidden();
      await expect(toggle).toBeFocused();
      await expect(toggle).toHaveAttribute('aria-expanded', 'false');

      await toggle.click();
      await expect(nav).toBeVisible();
      // A tap on the page's text, below the open menu.
      const box = (await nav.boundingBox())!;
      await page.mouse.click(195, Math.min(box.y + box.height + 80, 830));
      await expect(nav).toBeHidden();
      expect(new URL(page.url()).pathname).toBe('/privacy');

      // Signed in: the account menu and the phone menu take turns.
      const player = await createEmailAccount(server, `FitMenu${lang}${Date.now().toString(36).slice(-4)}`);
      await signInPage(page, player);
      await page.goto('/privacy');
      const account = page.locator('.player__menu');
      await toggle.click();
      await expect(nav).toBeVisible();
      await page.getByTestId('player-block').click();
      await expect(account).toBeVisible();
      await expect(nav).toBeHidden();
      await toggle.click();
      await expect(nav).toBeVisible();
      await expect(account).toBeHidden();
    });
  });
}
