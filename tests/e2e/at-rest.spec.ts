// A page left alone should cost a phone almost nothing (issue 25, `npm run bench -- --only=at-rest`
// measures it). Three things kept Chromium drawing a whole screen on every frame while nobody
// touched it: the landing's rig blinked and its coins rose inside a blurred drop-shadow filter
// (blurred again each frame), the sign-in dialog blurred the page behind it (the same blur over the
// whole screen, with the rig moving beneath), and /miner eased its progress bar by a hundredth of a
// pixel for 0.9 s of every second (a layout each frame). Then, on a slower host, the rig still
// moving under the dialog's dark veil (20 % of a core; 6–8 % once it stands still while a dialog is
// open). The CPU is measured in the bench; these tests hold the causes, which do not depend on the
// machine's speed.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { apiAs, createEmailAccount, signInPage } from './helpers';

test.use({ serviceWorkers: 'block', viewport: { width: 412, height: 823 } });

/**
 * Endless animations (what runs while nobody touches the page) that make the browser blur again on
 * every frame: one inside an element with a `filter`, or beneath an element with a `backdrop-filter`
 * whose box overlaps it. Named by class. A press's own short transitions end by themselves.
 */
const blurredAgain = (page: Page) =>
  page.evaluate(() => {
    const name = (el: Element) => `${el.tagName.toLowerCase()}.${String(el.getAttribute('class') ?? '').trim()}`;
    const overlap = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const blurring = [...document.querySelectorAll('*')].filter((el) => getComputedStyle(el).backdropFilter !== 'none');
    const found = new Set<string>();
    for (const animation of document.getAnimations()) {
      const target = (animation.effect as KeyframeEffect | null)?.target;
      const endless = animation.effect?.getComputedTiming().iterations === Infinity;
      if (animation.playState !== 'running' || !endless || !target) continue;
      for (let el: Element | null = target; el; el = el.parentElement)
        if (getComputedStyle(el).filter !== 'none') found.add(`${name(target)} inside ${name(el)} (filter)`);
      const box = target.getBoundingClientRect();
      for (const el of blurring)
        if (!el.contains(target) && overlap(box, el.getBoundingClientRect()))
          found.add(`${name(target)} beneath ${name(el)} (backdrop-filter)`);
    }
    return [...found];
  });

test('the landing’s loops blur nothing again, with or without the sign-in dialog over them', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // The loops run (the check below looks at them), and none of them is inside a filter.
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length))
    .toBeGreaterThanOrEqual(6);
  expect(await blurredAgain(page)).toEqual([]);

  await page.getByRole('banner').getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible();
  expect(await blurredAgain(page)).toEqual([]);
});

test('under an open dialog the page’s loops stand still, and run again once it closes', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  await page.goto('/');
  // Endless animations of the page itself (the dialog is outside #root) that are running.
  const runningBehind = () =>
    page.evaluate(
      () =>
        document.getAnimations().filter((a) => {
          const target = (a.effect as KeyframeEffect | null)?.target;
          const endless = a.effect?.getComputedTiming().iterations === Infinity;
          return a.playState === 'running' && endless && target && document.getElementById('root')?.contains(target);
        }).length,
    );
  await expect.poll(runningBehind).toBeGreaterThanOrEqual(6);

  await page.getByRole('banner').getByRole('button', { name: 'Connect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter the PXT universe' });
  await expect(dialog).toBeVisible();
  await expect.poll(runningBehind).toBe(0);

  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(runningBehind).toBeGreaterThanOrEqual(6);
});

test('/miner while mining: between two ticks of the countdown nothing is eased', async ({ page, server }) => {
  const account = await createEmailAccount(server, 'restingMiner');
  await apiAs(server, account, 'GET', 'mining/start/');
  await signInPage(page, account);
  await page.goto('/miner');
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');

  // Right after the next tick has been painted: the transitions that tick started.
  const eased = await page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        const countdown = document.querySelector('[data-testid="countdown"]')!;
        new MutationObserver((_, observer) => {
          observer.disconnect();
          requestAnimationFrame(() =>
            requestAnimationFrame(() =>
              resolve(
                document
                  .getAnimations()
                  .filter((a) => a instanceof CSSTransition && a.playState === 'running')
                  .map(
                    (a) =>
                      `${(a as CSSTransition).transitionProperty} of ${(a.effect as KeyframeEffect).target?.closest('[class]')?.className}`,
                  ),
              ),
            ),
          );
        }).observe(countdown, { childList: true, characterData: true, subtree: true });
      }),
  );
  expect(eased).toEqual([]);
});
