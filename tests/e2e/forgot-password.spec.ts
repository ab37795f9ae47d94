import { expect, mailedLinks, test } from './fixtures';
import { createEmailAccount } from './helpers';

test('forgot password: request a link, set a new password from the mail, log in with it', async ({
  page,
  server,
  baseURL,
}) => {
  const account = await createEmailAccount(server, 'GlitchFox');
  const resetLinks = () => mailedLinks(server.dataDir, baseURL!, account.email, 'restorePassword');
  expect(resetLinks()).toHaveLength(0);

  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  const forgot = page.getByRole('dialog', { name: 'Forgot password' });
  await expect(forgot.getByRole('button', { name: 'Send link' })).toBeDisabled();
  await forgot.getByLabel('E-mail').fill(account.email);
  await forgot.getByRole('button', { name: 'Send link' }).click();

  const sent = page.getByRole('dialog', { name: 'Check your inbox' });
  await expect(sent).toContainText(account.email);
  await sent.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('dialog', { name: 'Forgot password' }).getByLabel('E-mail')).toHaveValue(account.email);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // One reset mail (the account's new-device notice may land around it, decisions §13).
  await expect.poll(() => resetLinks().length).toBe(1);
  const [link] = resetLinks();
  await page.goto(link);
  const reset = page.getByRole('dialog', { name: 'Set a new password' });
  await reset.getByLabel('New password').fill('fresh5678');
  await reset.getByLabel('Repeat password').fill('fresh5678');
  await reset.getByRole('button', { name: 'Save password' }).click();

  // Back on the main page with the login open; the new password works, the old one does not.
  const login = page.getByRole('dialog', { name: 'Log in' });
  await expect(login).toBeVisible();
  await expect(page).toHaveURL(`${baseURL}/`);
  await login.getByLabel('E-mail').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill(account.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(login.getByText('Incorrect credentials')).toBeVisible();
  await login.getByLabel('Password', { exact: true }).fill('fresh5678');
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByTestId('player-block')).toContainText('GlitchFox');
});

test('the confirmation follows even when the request fails, and the link without a token sends nothing', async ({
  page,
}) => {
  await page.route('**/api/v1/auth/password-reset/', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"detail":"boom","code":"internal"}' }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  await page.getByRole('button', { name: 'Forgot password?' }).click();
  await page.getByRole('dialog', { name: 'Forgot password' }).getByLabel('E-mail').fill('nobody@example.com');
  await page.getByRole('button', { name: 'Send link' }).click();
  await expect(page.getByRole('dialog', { name: 'Check your inbox' })).toBeVisible();

  await page.goto('/?modal=restorePassword');
  const reset = page.getByRole('dialog', { name: 'Set a new password' });
  await expect(reset.getByText('This link is incomplete', { exact: false })).toBeVisible();
  await reset.getByLabel('New password').fill('fresh5678');
  await reset.getByLabel('Repeat password').fill('fresh5678');
  await expect(reset.getByRole('button', { name: 'Save password' })).toBeDisabled();
});
