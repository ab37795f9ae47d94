// Words, documents and keyboard on a phone (issue 16), at 390×844 in English and Russian: the
// Russian landing speaks as «вы» and the season title is translated; the Privacy Policy and Terms
// of Use are pages linked where they are accepted, public and readable offline once read; disabled
// menu entries say "soon" and are no Tab stops; the landing's last block does not ask a signed-in
// player to sign in; locked-tier labels reach 4.5:1; a skip link leads to the main content.
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

test.use({ viewport: { width: 390, height: 844 } });

const T = {
  en: {
    h1: 'Mine PXT.',
    season: 'Season 1',
    privacy: 'Privacy Policy',
    terms: 'Terms of Use',
    privacyLink: /^Privacy Policy$/,
    termsLink: /^Terms of Use$/,
    signIn: 'Sign in with a wallet',
    skip: 'Skip to main content',
    soon: 'soon',
    menu: 'Menu',
  },
  ru: {
    h1: 'Майните PXT.',
    season: 'Сезон 1',
    privacy: 'Политика конфиденциальности',
    terms: 'Условия использования',
    privacyLink: /^Политик. конфиденциальности$/,
    termsLink: /^Услови. использования$/,
    signIn: 'Войдите через кошелёк',
    skip: 'Перейти к содержанию',
    soon: 'скоро',
    menu: 'Меню',
  },
};

for (const lang of ['en', 'ru'] as const) {
  test.describe(lang, () => {
    test.beforeEach(async ({ page }) => {
      await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    });

    test(`the sign-in note links both documents, which open as pages and offline once read (${lang})`, async ({
      page,
      context,
    }) => {
      await page.goto('/');
      await page
        .getByRole('button', { name: /^(Connect|Подключить|Войти)/ })
        .first()
        .click();
      const dialog = page.getByRole('dialog');
      for (const [name, linkName, path] of [
        [T[lang].privacy, T[lang].privacyLink, '/privacy'],
        [T[lang].terms, T[lang].termsLink, '/terms'],
      ] as const) {
        const link = dialog.getByRole('link', { name: linkName });
        await expect(link).toHaveAttribute('href', path);
        const [doc] = await Promise.all([context.waitForEvent('page'), link.click()]);
        await expect(doc.getByRole('heading', { level: 1, name })).toBeVisible();
        await expect(doc.getByRole('heading', { level: 2 }).first()).toBeVisible();
        expect(await doc.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
        await doc.close();
      }
      // Read once, then offline: the service worker serves the page and its text.
      await page.goto('/privacy');
      await expect(page.getByRole('heading', { level: 1, name: T[lang].privacy })).toBeVisible();
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.goto('/terms');
      await expect(page.getByRole('heading', { level: 1, name: T[lang].terms })).toBeVisible();
      await context.setOffline(true);
      await page.goto('/privacy');
      await expect(page.getByRole('heading', { level: 1, name: T[lang].privacy })).toBeVisible();
      await context.setOffline(false);
    });

    test(`«вы», the season title, "soon" entries out of the Tab order, the last block, tier contrast and the skip link (${lang})`, async ({
      page,
      server,
    }) => {
      const account = await createEmailAccount(server, `Words${lang}`);
      await signInPage(page, account);
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toContainText(T[lang].h1);
      // The last block speaks to a signed-in player: no "sign in" there.
      const final = page.locator('section.final');
      await expect(final).not.toContainText(T[lang].signIn);

      // The skip link is the first Tab stop and moves focus to the main content.
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: T[lang].skip });
      await expect(skip).toBeFocused();
      await expect(skip).toBeInViewport();
      await page.keyboard.press('Enter');
      await expect(page.locator('main#main')).toBeFocused();

      // Disabled entries say "soon" on screen and Tab skips them.
      await page.getByRole('button', { name: T[lang].menu }).click();
      const disabled = page.locator('.site-nav [aria-disabled="true"]');
      await expect(disabled.first()).toBeVisible();
      for (const entry of await disabled.all()) {
        await expect(entry).toContainText(T[lang].soon);
        expect(await entry.evaluate((el) => (el as HTMLElement).tabIndex)).toBeLessThan(0);
      }

      await page.goto('/arcade');
      await expect(page.getByRole('heading', { level: 1, name: T[lang].season })).toBeVisible();
      await expect(page.locator('.tier--locked').first()).toBeVisible();
      // WCAG contrast of each locked tier's labels, with the opacity of the card taken into account
      // (axe leaves text over translucent layers "to review", so it is computed here).
      const ratios = await page
        .locator('.tier--locked .tier__name, .tier--locked .tier__xp, .tier--locked .tier__badge')
        .evaluateAll((els) => {
          const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
          const lum = ([r, g, b]: number[]) => {
            const ch = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
            return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
          };
          const page = rgb(
            getComputedStyle(document.documentElement)
              .getPropertyValue('--bg')
              .trim()
              .replace(/^#(..)(..)(..)$/, (_, r, g, b) => `${parseInt(r, 16)},${parseInt(g, 16)},${parseInt(b, 16)}`),
          );
          return els.map((el) => {
            let opacity = 1;
            for (let n: Element | null = el; n; n = n.parentElement) opacity *= Number(getComputedStyle(n).opacity);
            let bgEl: Element | null = el;
            while (bgEl && (rgb(getComputedStyle(bgEl).backgroundColor)[3] ?? 1) === 0) bgEl = bgEl.parentElement;
            const over = (c: number[]) => c.slice(0, 3).map((v, i) => opacity * v + (1 - opacity) * page[i]);
            const [a, b] = [
              lum(over(rgb(getComputedStyle(el).color))),
              lum(over(rgb(getComputedStyle(bgEl!).backgroundColor))),
            ];
            return {
              text: (el.textContent ?? '').trim(),
              ratio: Math.round(((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)) * 100) / 100,
            };
          });
        });
      expect(ratios.length).toBeGreaterThan(0);
      expect(ratios.filter((r) => r.ratio < 4.5)).toEqual([]);
    });
  });
}
