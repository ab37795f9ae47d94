import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

test('a visitor sees Connect, disabled entries with a hint, and locked account links in the footer', async ({
  page,
}) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const name of ['Shop', 'White paper', 'Staking']) {
    const entry = nav.getByRole('link', { name: `${name} soon`, exact: true });
    await expect(entry).toHaveAttribute('aria-disabled', 'true');
    await expect(entry).toHaveAttribute('title', 'Coming soon');
  }
  const footer = page.getByRole('contentinfo');
  for (const name of ['Tasks', 'Referrals', 'Arcade season'])
    await expect(footer.getByRole('link', { name })).toHaveAttribute('aria-disabled', 'true');
  await expect(footer.getByRole('link', { name: 'Telegram (Russian)' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Telegram (International)' })).toBeVisible();
  await expect(footer.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);

  // The miner asks a visitor to sign in first.
  await nav.getByRole('link', { name: 'Miner' }).click();
  const prompt = page.getByRole('dialog', { name: 'Sign in to mine' });
  await prompt.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible();
  // Focus is kept inside the dialog.
  for (let i = 0; i < 6; i++) await page.keyboard.press('Tab');
  expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
  // Closing gives focus back to what opened the first dialog, even after a switch.
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Miner' })).toBeFocused();
});

test('signed in: the wide menu has the Game and Account groups; under 1250 px a click shows name, wallet and log out', async ({
  page,
  server,
}) => {
  const account = await createEmailAccount(server, 'WideNarrow');
  await signInPage(page, account);
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto('/');
  const player = page.getByTestId('player-block');
  await player.hover();
  const game = page.getByRole('navigation', { name: 'Game' });
  await expect(game.getByRole('link', { name: 'Arcade season' })).toBeVisible();
  await expect(game.getByRole('link', { name: 'Leaderboard soon' })).toHaveAttribute('aria-disabled', 'true');
  await expect(game.getByRole('link', { name: 'Auction soon' })).toHaveAttribute('aria-disabled', 'true');
  const accountMenu = page.getByRole('navigation', { name: 'Account' });
  for (const name of ['Profile', 'Tasks', 'Referrals'])
    await expect(accountMenu.getByRole('link', { name })).toBeVisible();
  await expect(accountMenu.getByRole('link', { name: 'ICO' })).toHaveCount(0);
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Tasks' })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );

  await page.setViewportSize({ width: 1000, height: 800 });
  await page.mouse.move(5, 700);
  await player.click();
  await expect(page.getByRole('navigation', { name: 'Game' })).toHaveCount(0);
  const menu = page.locator('.player__compact');
  await expect(menu).toContainText('WideNarrow');
  await expect(menu).toContainText('wallet not linked');
  await expect(menu.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test('an auth call failing on the server opens the error dialog', async ({ page }) => {
  await page.route('**/api/v1/auth/login-by-email/', (r) =>
    r.fulfill({
      status: 500,
      contentType: 'application/json',
      body: '{"detail":"Internal Server Error","code":"internal"}',
    }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('E-mail').fill('someone@example.com');
  await login.getByLabel('Password', { exact: true }).fill('punk1234');
  await login.getByRole('button', { name: 'Log in' }).click();
  const error = page.getByRole('dialog', { name: 'Something went wrong' });
  await expect(error).toContainText('Reload the page or try again later');
});

test('the header marks the page the player is on, and only that one', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await page.goto('/blog');
  await expect(nav.getByRole('link', { name: 'Blog' })).toHaveAttribute('aria-current', 'page');
  await expect(nav.getByRole('link', { name: 'Blog' })).toHaveClass(/\bactive\b/);
  await expect(nav.getByRole('link', { name: 'Miner' })).not.toHaveAttribute('aria-current', 'page');
  await page.goto('/');
  await expect(nav.locator('[aria-current="page"]')).toHaveCount(0);
});
