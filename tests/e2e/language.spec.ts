import { expect, test } from './fixtures';
import { admin, createEmailAccount, signInPage } from './helpers';

test('the language switcher appears with the language flag; Rus reloads the page in Russian at the same scroll position', async ({
  page,
  server,
}) => {
  const account = await createEmailAccount(server, 'PolyglotX');
  await signInPage(page, account);
  await page.goto('/');
  await expect(page.getByTestId('player-block')).toContainText('PolyglotX');
  await expect(page.getByRole('group', { name: 'Interface language' })).toHaveCount(0);

  admin(server, 'flag', account.email, 'language', 'on');
  await page.reload();
  const switcher = page.getByRole('group', { name: 'Interface language' });
  await expect(switcher.getByRole('button', { name: 'Eng' })).toHaveAttribute('aria-pressed', 'true');

  await expect(page.getByRole('heading', { name: 'What is PXT mining?' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => (window.scrollTo(0, 600), Math.round(window.scrollY)))).toBe(600);
  // The page's clock stands still from here (timers still run): the switch back below comes "within
  // 2 s" of the reload however slow a loaded machine makes the steps between, and this switch is
  // long after the reload above.
  await page.clock.setFixedTime(Date.now() + 60_000);
  await Promise.all([page.waitForEvent('load'), switcher.getByRole('button', { name: 'Rus' }).click()]);

  await expect(page.getByRole('heading', { level: 1 })).toContainText('Майните PXT.');
  await expect(
    page.getByRole('group', { name: 'Язык интерфейса' }).getByRole('button', { name: 'Rus' }),
  ).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('ru');
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('ru');
  await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(600);

  // Switching back within 2 s of that reload changes the language without another reload.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await page.getByRole('group', { name: 'Язык интерфейса' }).getByRole('button', { name: 'Eng' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Mine PXT.');
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
});
