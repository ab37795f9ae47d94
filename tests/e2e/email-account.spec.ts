import { expect, test, linkFromMail } from './fixtures';
import { createEmailAccount, uniqueEmail } from './helpers';

test('e-mail sign-up: register, open the mailed link, pick a username, the header shows it', async ({
  page,
  outbox,
  baseURL,
}) => {
  const email = uniqueEmail('signup');
  await page.goto('/?refCode=friend42');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Continue with e-mail' }).click();
  await page.getByRole('dialog', { name: 'Log in' }).getByRole('button', { name: 'Create an account' }).click();

  const register = page.getByRole('dialog', { name: 'Create an account' });
  await register.getByLabel('E-mail').fill(email);
  await register.getByLabel('Password', { exact: true }).fill('short');
  await expect(register.getByText('Use 8 or more characters mixing letters and numbers')).toBeVisible();
  await register.getByLabel('Password', { exact: true }).fill('punk1234');
  await register.getByLabel('Repeat password').fill('punk1235');
  await expect(register.getByText('Passwords do not match')).toBeVisible();
  await expect(register.getByRole('button', { name: 'Sign up' })).toBeDisabled();
  await register.getByLabel('Repeat password').fill('punk1234');
  await register.getByRole('button', { name: 'Sign up' }).click();
  await expect(register.getByText('Accept the agreement to continue')).toBeVisible();
  await register.getByLabel('I accept the Privacy Policy and Terms of Use').check();
  await register.getByRole('button', { name: 'Sign up' }).click();

  const confirm = page.getByRole('dialog', { name: 'Confirm your e-mail' });
  await expect(confirm.getByTestId('registration-email')).toHaveText(email);
  await expect.poll(() => outbox().length).toBe(1);
  await confirm.getByRole('button', { name: 'Send again' }).click();
  await expect(confirm.getByText('Sent again. Check your inbox.')).toBeVisible();
  await expect.poll(() => outbox().length).toBe(2);
  // Either link works (each with the password it was asked with); the referral link the visitor came with was kept.
  expect(await page.evaluate(() => localStorage.getItem('referralFullUrl'))).toBe(`${baseURL}/?refCode=friend42`);

  await page.goto(linkFromMail(outbox()[1], baseURL!));
  const details = page.getByRole('dialog', { name: 'Choose your username' });
  await expect(details).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
  // The first-time username dialog cannot be dismissed and has no back arrow here.
  await expect(details.getByRole('button', { name: 'Close dialog' })).toHaveCount(0);
  await expect(details.getByRole('button', { name: 'Go back' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(details).toBeVisible();

  const field = details.getByLabel('Username');
  await field.fill('abc');
  await expect(details.getByText('Username is too short')).toBeVisible();
  await field.fill('abcd');
  await expect(details.getByRole('button', { name: 'Save and continue' })).toBeDisabled();
  await field.fill('NeonRider7');
  await details.getByRole('button', { name: 'Save and continue' }).click();
  await expect(details).toBeHidden();

  const player = page.getByTestId('player-block');
  await expect(player).toContainText('NeonRider7');
  await expect(player).toContainText('wallet not linked');
  await expect(page.getByRole('button', { name: 'Connect' })).toHaveCount(0);
});

test('e-mail login and logout', async ({ page, server }) => {
  const account = await createEmailAccount(server, 'ChromeCat');
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('E-mail').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill('wrong1234');
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(login.getByText('Incorrect credentials')).toBeVisible();

  await login.getByLabel('Password', { exact: true }).fill(account.password);
  await login.getByRole('button', { name: 'Show password' }).click();
  await expect(login.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(login).toBeHidden();
  const player = page.getByTestId('player-block');
  await expect(player).toContainText('ChromeCat');

  // Signed in, the guarded pages open.
  await page.goto('/tasks');
  await expect(page).toHaveURL(/\/tasks$/);
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toHaveCount(0);

  const pageRefresh = JSON.parse((await page.evaluate(() => localStorage.getItem('pxt.refreshToken')))!) as string;
  await player.click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('pxt.refreshToken'))).toBe('null');
  // Logout revoked the page's refresh token on the server.
  const r = await fetch(`${server.baseURL}/api/v1/auth/refresh/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ refresh: pageRefresh }),
  });
  expect(r.status).toBe(401);
  await page.goto('/miner');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('dialog', { name: 'Enter the PXT universe' })).toBeVisible();
});
