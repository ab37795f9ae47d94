import { expect, test } from './fixtures';
import { createEmailAccount } from './helpers';

test('the main page loads from the real server with its header, footer and translations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Mine PXT.');
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('Discord');
  // Public pages open for everyone.
  await page.getByRole('link', { name: 'Blog' }).first().click();
  await expect(page).toHaveURL(/\/blog$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a visitor asking for a signed-in page lands on / with the main login open', async ({ page }) => {
  await page.goto('/tasks');
  await expect(page).toHaveURL(/\/$/);
  const dialog = page.getByRole('dialog', { name: 'Enter the PXT universe' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
});

test('opened straight from an address, a signed-in page comes back after the visitor signs in', async ({
  page,
  server,
}) => {
  const player = await createEmailAccount(server, `Direct${Date.now().toString(36).slice(-5)}`);
  await page.goto('/referrals');
  await expect(page).toHaveURL(/\/$/);
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Continue with e-mail' })
    .click();
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('E-mail').fill(player.email);
  await login.getByLabel('Password', { exact: true }).fill(player.password);
  await login.getByRole('button', { name: 'Log in', exact: true }).click();
  await expect(page).toHaveURL(/\/referrals$/);
});
