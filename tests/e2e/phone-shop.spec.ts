// The mining shop on a phone and on a desktop (issue 16): a purchase's outcome ("Bought…" and the
// Gems left) appears on the item that was tapped, in view; on a 1440 px screen the four items do not
// leave one alone on a row.
import { expect, test } from './fixtures';
import { admin, createEmailAccount, signInPage } from './helpers';

const TEXT = {
  en: { bought: 'Bought: a 12 h boost', left: 'Gems left: 65', buy: 'Buy a 12 h boost for 35 Gems' },
  ru: { bought: 'Куплено: буст на 12 ч', left: 'Осталось гемов: 65', buy: 'Купить буст на 12 ч за 35 гемов' },
};

for (const lang of ['en', 'ru'] as const) {
  test(`on a phone the purchase's outcome and the Gems left show on the tapped item, in view (${lang})`, async ({
    page,
    server,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((lng) => localStorage.setItem('i18nextLng', lng), lang);
    const account = await createEmailAccount(server, `Shop${lang}`);
    admin(server, 'grant', account.email, 'gems', '100');
    await signInPage(page, account);
    await page.goto('/mining');
    const item = page.getByTestId('shop-item-12');
    await expect(item).toBeVisible();
    await item.getByRole('button', { name: TEXT[lang].buy }).click();
    const outcome = item.getByText(TEXT[lang].bought);
    await expect(outcome).toBeVisible();
    await expect(outcome).toBeInViewport();
    await expect(item.getByTestId('shop-gems-left')).toHaveText(TEXT[lang].left);
    await expect(item.getByTestId('shop-gems-left')).toBeInViewport();
    const shot = test.info().outputPath(`390-${lang}-shop-bought.png`);
    await page.screenshot({ path: shot });
    await test.info().attach(`390-${lang}-shop-bought.png`, { path: shot, contentType: 'image/png' });
  });
}

test('at 1440 px the four shop items fill whole rows', async ({ page, server }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const account = await createEmailAccount(server, 'ShopWide');
  await signInPage(page, account);
  await page.goto('/mining');
  const items = page.locator('.mining-shop__item');
  await expect(items).toHaveCount(4);
  const tops = await items.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
  const perRow = [...new Set(tops)].map((top) => tops.filter((t) => t === top).length);
  expect(new Set(perRow).size, `items per row: ${perRow.join(', ')}`).toBe(1);
});
