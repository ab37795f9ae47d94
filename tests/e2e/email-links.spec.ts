// The e-mail links of spec §2 other than sign-up and password reset: password change, e-mail change
// and confirming an e-mail added to a wallet account.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { walletLoginText } from '@shared/wallet-texts';
import { expect, linkFromMail, test } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';

async function api(baseURL: string, method: string, path: string, body?: unknown, access?: string) {
  const r = await fetch(`${baseURL}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

test('confirmPasswordChange opens the update-password dialog; a used link puts the server message under the repeat field', async ({ page, server, outbox, baseURL }) => {
  const account = await createEmailAccount(server, 'KeyChanger');
  await signInPage(page, account);
  expect((await api(baseURL!, 'GET', 'auth/change-password-request/', undefined, account.access)).status).toBe(200);
  const link = linkFromMail(outbox().at(-1)!, baseURL!);
  expect(link).toContain('modal=confirmPasswordChange');

  await page.goto(link);
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(dialog.getByRole('button', { name: 'Change password' })).toBeDisabled();
  await dialog.getByLabel('New password').fill('newpass99');
  await dialog.getByLabel('Repeat password').fill('newpass99');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  // Issue 16: the outcome is said, and this browser stays signed in.
  await expect(dialog.getByRole('status')).toContainText('Your password has been changed');
  expect((await api(baseURL!, 'POST', 'auth/login-by-email/', { email: account.email, password: 'newpass99' })).status).toBe(200);

  await page.goto(link);
  const again = page.getByRole('dialog', { name: 'Change password' });
  await again.getByLabel('New password').fill('other1234');
  await again.getByLabel('Repeat password').fill('other1234');
  await again.getByRole('button', { name: 'Change password' }).click();
  await expect(again.getByRole('alert')).toHaveText('This link is invalid or has expired.');
});

test('confirmEmailChange confirms the new address, then the player record is fetched again', async ({ page, server, outbox, baseURL }) => {
  const account = await createEmailAccount(server, 'MailMover');
  await signInPage(page, account);
  const newEmail = uniqueEmail('moved');
  expect((await api(baseURL!, 'POST', 'auth/change-email/', { new_email: newEmail, password: account.password }, account.access)).status).toBe(200);
  const link = linkFromMail(outbox().at(-1)!, baseURL!);
  expect(link).toContain('modal=confirmEmailChange');

  const confirmed = page.waitForResponse((r) => r.url().includes('/auth/confirm-email-change/'));
  await page.goto(link);
  expect((await confirmed).status()).toBe(200);
  // Issue 16: the record is fetched again at once and the new address is said and shown.
  await expect(page.getByRole('dialog', { name: 'E-mail changed' }).getByRole('status')).toContainText(newEmail);
  const me = await api(baseURL!, 'GET', 'auth/me', undefined, account.access);
  expect(me.body.email).toBe(newEmail);
  await expect(page).toHaveURL(`${baseURL}/`);
  await page.goto('/profile');
  await expect(page.getByTestId('profile-email')).toHaveText(newEmail);
});

test('confirmEmail signs in with the answer and refreshes the record (e-mail added to a wallet account)', async ({ page, outbox, baseURL }) => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const config = await api(baseURL!, 'GET', 'config/');
  const timestamp = Date.now();
  const signature = await wallet.signMessage({ message: walletLoginText(String(config.body.app_name), timestamp) });
  const login = await api(baseURL!, 'POST', 'auth/login/', { address: wallet.address, signature, timestamp });
  expect(login.status).toBe(200);
  const tokens = login.body as { access: string; refresh: string };
  await api(baseURL!, 'PATCH', 'auth/complete-registration/', { username: 'WalletMail' }, tokens.access);
  const email = uniqueEmail('walletmail');
  expect((await api(baseURL!, 'POST', 'auth/add-email-password/', { email, password: 'mail1234', confirm_password: 'mail1234' }, tokens.access)).status).toBe(200);

  await signInPage(page, tokens);
  const link = linkFromMail(outbox().at(-1)!, baseURL!);
  expect(link).toContain('modal=confirmEmail&');
  const confirmed = page.waitForResponse((r) => r.url().includes('/auth/confirm-email/'));
  await page.goto(link);
  const answer = (await (await confirmed).json()) as { access: string; refresh: string };
  await expect.poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('pxt.refreshToken') ?? 'null'))).toBe(answer.refresh);
  await page.waitForRequest((r) => r.url().endsWith('/api/v1/auth/me'), { timeout: 15_000 });
  await expect(page.getByTestId('player-block')).toContainText('WalletMail');
  expect((await api(baseURL!, 'POST', 'auth/login-by-email/', { email, password: 'mail1234' })).status).toBe(200);
});
