// The e-mail links of spec §2 other than sign-up and password reset: password change, e-mail change
// and confirming an e-mail added to a wallet account.
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { walletLoginText, walletReauthText } from '@shared/wallet-texts';
import { expect, mailedLink, test } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';

async function api(baseURL: string, method: string, path: string, body?: unknown, access?: string) {
  const r = await fetch(`${baseURL}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

test('confirmPasswordChange opens the update-password dialog; a used link puts the server message under the repeat field', async ({
  page,
  server,
  baseURL,
}) => {
  const account = await createEmailAccount(server, 'KeyChanger');
  await signInPage(page, account);
  expect((await api(baseURL!, 'GET', 'auth/change-password-request/', undefined, account.access)).status).toBe(200);
  const link = await mailedLink(server.dataDir, baseURL!, account.email, 'confirmPasswordChange');

  await page.goto(link);
  const dialog = page.getByRole('dialog', { name: 'Change password' });
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(dialog.getByRole('button', { name: 'Change password' })).toBeDisabled();
  await dialog.getByLabel('New password').fill('newpass99');
  await dialog.getByLabel('Repeat password').fill('newpass99');
  await dialog.getByRole('button', { name: 'Change password' }).click();
  // Issue 16: the outcome is said, and this browser stays signed in.
  await expect(dialog.getByRole('status')).toContainText('Your password has been changed');
  expect(
    (await api(baseURL!, 'POST', 'auth/login-by-email/', { email: account.email, password: 'newpass99' })).status,
  ).toBe(200);

  await page.goto(link);
  const again = page.getByRole('dialog', { name: 'Change password' });
  await again.getByLabel('New password').fill('other1234');
  await again.getByLabel('Repeat password').fill('other1234');
  await again.getByRole('button', { name: 'Change password' }).click();
  await expect(again.getByRole('alert')).toHaveText('This link is invalid or has expired.');
});

test('confirmEmailChange confirms the new address, then the player record is fetched again', async ({
  page,
  server,
  baseURL,
}) => {
  const account = await createEmailAccount(server, 'MailMover');
  await signInPage(page, account);
  const newEmail = uniqueEmail('moved');
  expect(
    (
      await api(
        baseURL!,
        'POST',
        'auth/change-email/',
        { new_email: newEmail, password: account.password },
        account.access,
      )
    ).status,
  ).toBe(200);
  const link = await mailedLink(server.dataDir, baseURL!, newEmail, 'confirmEmailChange');

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

test('confirmEmail, opened in the signed-in browser, adds the address and refreshes the record (e-mail added to a wallet account)', async ({
  page,
  server,
  baseURL,
}) => {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const config = await api(baseURL!, 'GET', 'config/');
  const appName = String(config.body.app_name);
  const timestamp = Date.now();
  const signature = await wallet.signMessage({ message: walletLoginText(appName, timestamp) });
  const login = await api(baseURL!, 'POST', 'auth/login/', { address: wallet.address, signature, timestamp });
  expect(login.status).toBe(200);
  const tokens = login.body as { access: string; refresh: string };
  await api(baseURL!, 'PATCH', 'auth/complete-registration/', { username: 'WalletMail' }, tokens.access);
  const email = uniqueEmail('walletmail');
  const added = { email, password: 'mail1234', confirm_password: 'mail1234' };
  // Decisions §13: adding a sign-in method needs proof of one the account has: here its wallet.
  expect((await api(baseURL!, 'POST', 'auth/add-email-password/', added, tokens.access)).body).toMatchObject({
    code: 'reauth_required',
  });
  const proofAt = Date.now();
  const proof = await wallet.signMessage({ message: walletReauthText(appName, proofAt) });
  const reauth = await api(
    baseURL!,
    'POST',
    'auth/reauth/',
    { address: wallet.address, signature: proof, timestamp: proofAt },
    tokens.access,
  );
  expect(reauth.status).toBe(200);
  expect(
    (await api(baseURL!, 'POST', 'auth/add-email-password/', { ...added, reauth: reauth.body.reauth }, tokens.access))
      .status,
  ).toBe(200);

  // The player opens the link in the browser signed in as that wallet account (decisions §13).
  await signInPage(page, tokens);
  const link = await mailedLink(server.dataDir, baseURL!, email, 'confirmEmail');
  const confirmed = page.waitForResponse((r) => r.url().includes('/auth/confirm-email/'));
  await page.goto(link);
  const answer = await confirmed;
  expect(answer.status()).toBe(200);
  expect(await answer.json()).toMatchObject({ password_set: true });
  // The same session goes on (the link adds a method, it is no sign-in), and the record is fetched again.
  await page.waitForRequest((r) => r.url().endsWith('/api/v1/auth/me'), { timeout: 15_000 });
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('pxt.refreshToken') ?? 'null'))).toBe(
    tokens.refresh,
  );
  await expect(page.getByTestId('player-block')).toContainText('WalletMail');
  expect((await api(baseURL!, 'GET', 'auth/me', undefined, tokens.access)).body.email).toBe(email);
  expect((await api(baseURL!, 'POST', 'auth/login-by-email/', { email, password: 'mail1234' })).status).toBe(200);
});
