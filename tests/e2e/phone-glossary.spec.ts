// Issue 24: the Russian interface said «ты» in the footer («майни PXT, проходи квесты») and mixed
// «квесты» with «задания» and «опыт» with «XP». At 390×844 in Russian, the pages a new player reads
// (the landing and its footer, the miner, the quests, the season, the blog's quest and season
// articles) show none of the variants the glossary (public/locales/README.md) rules out. Russian
// only: the glossary is a rule for Russian texts, and English changed nowhere.
import { breaches, glossary } from '../helpers/glossary-rules';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { text } from './locale-text';
import { PHONE, shot, useLanguage } from './outcome-shots';

test.use({ viewport: PHONE });

const FORBIDDEN = glossary().flatMap((row) => row.forbidden);

test('ru: the pages speak to the player as «вы» and say «задания» and «XP», one word per thing', async ({
  page,
  server,
}, testInfo) => {
  await useLanguage(page, 'ru');
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await expect(footer).toContainText(text('ru', 'footer.tagline'));
  await footer.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'glossary-footer-ru-390');

  const player = await createEmailAccount(server, `Slovo${Date.now().toString(36).slice(-6)}`);
  await signInPage(page, player);

  const found: string[] = [];
  for (const [path, ready] of [
    ['/', () => expect(footer).toBeVisible()],
    ['/miner', () => expect(page.getByTestId('current-rate')).toBeVisible()],
    ['/tasks', () => expect(page.locator('[data-quest="invites"]')).toBeVisible()],
    ['/arcade', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible()],
    ['/article/quests-and-referrals', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible()],
    ['/article/arcade-season', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible()],
  ] as const) {
    await page.goto(path);
    await ready();
    await page.waitForLoadState('networkidle');
    const words = breaches(await page.locator('body').innerText(), FORBIDDEN);
    found.push(...words.map((w) => `${path}: ${w}`));
  }
  expect(found).toEqual([]);
});
