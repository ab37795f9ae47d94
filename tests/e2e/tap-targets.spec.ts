// Tap targets at 390 px (issue 24): every visible control of every page and of the sign-in dialogs,
// signed out and signed in, measured against WCAG 2.2 (docs/choices.md "Tap targets"). A main
// action is at least 44×44 px: a primary button, the dialog's close and back, the phone menu button,
// the header's Eng/Rus and a field's show-password. The links stacked in a column (footer, the
// dialog's text links, "← All articles") are at least 44 px tall. Any other control is at least
// 24×24 px itself: stricter than SC 2.5.8, whose spacing exception a wrapped Russian line or a
// 320 px screen undoes. A link inside a sentence is exempt (SC 2.5.8's inline exception); a checkbox
// inside its label is measured by the label (the whole label takes the tap). Disabled controls
// and visually hidden ones (a 1 px box) are not targets. With a dialog open only the dialog counts:
// nothing behind it can be tapped.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { admin, createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';

test.use({ serviceWorkers: 'block', viewport: { width: 390, height: 844 } });
test.setTimeout(240_000);

const MAIN = 44;
const MIN = 24;
const MAIN_ACTIONS = '.btn--primary, .modal__icon, .nav-toggle, .lang-switch__option, .icon-button';
const STACKED_LINKS = '.footer-link, .modal .btn--link, .article__back';

interface Target {
  what: string;
  w: number;
  h: number;
  need: string;
}

/** The controls of the page (or of its open dialog) that miss their size, with their measures. */
async function smallTargets(page: Page): Promise<Target[]> {
  return page.evaluate(
    ({ MAIN, MIN, MAIN_ACTIONS, STACKED_LINKS }) => {
      const dialog = document.querySelector('[role="dialog"]');
      const scope = dialog ?? document.body;
      const all = Array.from(
        scope.querySelectorAll<HTMLElement>(
          'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"]',
        ),
      );
      const shown = all.filter((el) => {
        if ((el as HTMLButtonElement).disabled) return false;
        const r = el.getBoundingClientRect();
        if (r.width <= 1 || r.height <= 1) return false;
        const style = getComputedStyle(el);
        return style.visibility !== 'hidden' && style.display !== 'none' && el.closest('[hidden]') === null;
      });
      // A link inside a sentence: its height is the line's (SC 2.5.8 "inline").
      const inline = (el: HTMLElement) => {
        if (getComputedStyle(el).display !== 'inline') return false;
        const parent = el.parentElement;
        if (!parent) return false;
        const around = Array.from(parent.childNodes)
          .filter((n) => n !== el)
          .map((n) => n.textContent ?? '')
          .join('')
          .trim();
        return around.length > 0;
      };
      const boxes = shown.map((el) => ({
        el,
        r: (el.matches('input') ? (el.closest('label') ?? el) : el).getBoundingClientRect(),
      }));
      const describe = (el: HTMLElement) => {
        const name = (el.getAttribute('aria-label') ?? el.textContent ?? (el as HTMLInputElement).placeholder ?? '')
          .trim()
          .replace(/\s+/g, ' ')
          .slice(0, 40);
        const cls = String(el.className).split(' ')[0];
        return `${el.tagName.toLowerCase()}${cls ? `.${cls}` : ''} "${name}"`;
      };
      const out: Target[] = [];
      for (const { el, r } of boxes) {
        const main = el.matches(MAIN_ACTIONS);
        const stacked = el.matches(STACKED_LINKS);
        const needW = main ? MAIN : MIN;
        const needH = main || stacked ? MAIN : MIN;
        if (r.width >= needW - 0.5 && r.height >= needH - 0.5) continue;
        if (!main && inline(el)) continue;
        out.push({ what: describe(el), w: Math.round(r.width), h: Math.round(r.height), need: `${needW}×${needH}` });
      }
      return out;
    },
    { MAIN, MIN, MAIN_ACTIONS, STACKED_LINKS },
  );
}

/** The page loaded and its entry animations done (a dialog pops in scaled down), checked again a
 *  frame later: a view that mounts after a lazy chunk starts its own animation then. */
async function settle(page: Page): Promise<void> {
  await expect(page.locator('main .spinner')).toHaveCount(0);
  await page.waitForLoadState('networkidle');
  await page.evaluate(async () => {
    await document.fonts.ready;
    const running = () =>
      document
        .getAnimations()
        .filter((a) => a.playState !== 'finished' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    for (let round = 0; round < 20; round++) {
      await Promise.all(running().map((a) => a.finished.catch(() => undefined)));
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      if (running().length === 0) return;
    }
  });
}

function collect(problems: string[], where: string, targets: Target[]): void {
  for (const t of targets) problems.push(`${where}: ${t.what} ${t.w}×${t.h} (needs ${t.need})`);
}

const PAGES = ['/', '/blog', '/article/what-is-pxt'];
const PLAYER_PAGES = [...PAGES, '/miner', '/tasks', '/referrals', '/profile', '/arcade'];

for (const lang of ['en', 'ru'] as const) {
  const t = (key: string, values?: Record<string, string | number>) => text(lang, key, values);
  const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true }).first();

  async function measurePages(page: Page, who: string, routes: string[], problems: string[]): Promise<void> {
    for (const route of routes) {
      await page.goto(route);
      await settle(page);
      collect(problems, `${who} ${route}`, await smallTargets(page));
    }
    // The phone menu, open.
    await page.goto('/blog');
    await settle(page);
    await page.getByRole('button', { name: t('common:nav.menu') }).click();
    await expect(page.getByRole('navigation', { name: t('common:nav.main') })).toBeVisible();
    await settle(page);
    collect(problems, `${who} phone menu`, await smallTargets(page));
  }

  test(`${lang}: every control signed out at 390 px is big enough to tap`, async ({ page }) => {
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    const problems: string[] = [];
    await measurePages(page, 'visitor', PAGES, problems);

    await page.goto('/');
    await settle(page);
    const dialog = page.getByRole('dialog');
    await button(page, t('common:header.connect')).click();
    await expect(dialog).toBeVisible();
    await settle(page);
    collect(problems, 'visitor dialog main', await smallTargets(page));
    await dialog.getByRole('button', { name: t('auth:main.email'), exact: true }).click();
    await expect(dialog.getByLabel(t('auth:fields.password'), { exact: true })).toBeVisible();
    await settle(page);
    collect(problems, 'visitor dialog login', await smallTargets(page));
    await dialog.getByRole('button', { name: t('auth:login.register'), exact: true }).click();
    await expect(dialog.getByLabel(t('auth:fields.repeatPassword'), { exact: true })).toBeVisible();
    await settle(page);
    collect(problems, 'visitor dialog register', await smallTargets(page));
    await page.keyboard.press('Escape');
    await button(page, t('common:header.connect')).click();
    await dialog.getByRole('button', { name: t('auth:main.email'), exact: true }).click();
    await dialog
      .getByRole('button', { name: t('auth:login.forgot') })
      .or(dialog.getByRole('link', { name: t('auth:login.forgot') }))
      .first()
      .click();
    // The forgot-password view is its own chunk: the login view leaves before it pops in.
    await expect(dialog.getByRole('heading', { name: t('auth:forgot.title') })).toBeVisible();
    await expect(dialog.getByLabel(t('auth:fields.password'), { exact: true })).toHaveCount(0);
    await settle(page);
    collect(problems, 'visitor dialog forgot password', await smallTargets(page));

    expect(problems, problems.join('\n')).toEqual([]);
  });

  test(`${lang}: every control signed in at 390 px is big enough to tap`, async ({ page, server }) => {
    const account = await createEmailAccount(server, `Tap${lang}${Date.now().toString(36).slice(-5)}`);
    admin(server, 'flag', account.email, 'language', 'on');
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    await signInPage(page, account);
    const problems: string[] = [];
    await measurePages(page, 'player', PLAYER_PAGES, problems);

    await page.goto('/profile');
    await settle(page);
    await page.getByTestId('player-block').click();
    await expect(page.locator('.player__menu')).toBeVisible();
    await settle(page);
    collect(problems, 'player account menu', await smallTargets(page));
    await page.keyboard.press('Escape');
    const dialog = page.getByRole('dialog');
    await button(page, t('profile:actions.password')).click();
    await expect(dialog).toBeVisible();
    await settle(page);
    collect(problems, 'player dialog change password', await smallTargets(page));
    await page.keyboard.press('Escape');

    await page.goto('/miner');
    await settle(page);
    await button(page, t('mining:miner.guide')).click();
    await expect(dialog).toBeVisible();
    await settle(page);
    collect(problems, 'player dialog mining guide', await smallTargets(page));

    expect(problems, problems.join('\n')).toEqual([]);
  });
}
