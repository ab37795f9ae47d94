// E-mail change after issue 11 (decisions §12): the update-e-mail dialog asks for the password of an
// account that has one (in both languages), and the undo link mailed to the old address opens a
// modal that applies the undo and says what happened.
import { expect, linkFromMail, mailedLink, test } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';

async function api(baseURL: string, method: string, path: string, body?: unknown, access?: string) {
  const r = await fetch(`${baseURL}/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

const mailTo = (mails: string[], to: string) => mails.filter((m) => m.includes(`To: ${to}`)).at(-1);

test('the update-e-mail dialog asks for the password: a wrong one is refused under the field, the right one sends the link', async ({
  page,
  server,
  outbox,
  baseURL,
}) => {
  const account = await createEmailAccount(server, 'PassMover');
  await signInPage(page, account);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Change e-mail' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change e-mail' });
  const next = uniqueEmail('dialog');
  await dialog.getByLabel('New e-mail').fill(next);
  // The address alone is not enough for an account with a password.
  await expect(dialog.getByRole('button', { name: 'Save' })).toBeDisabled();
  await dialog.getByLabel('Current password').fill('wrong1234');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Wrong password');
  expect(mailTo(outbox(), next)).toBeUndefined();

  await dialog.getByLabel('Current password').fill(account.password);
  await dialog.getByRole('button', { name: 'Save' }).click();
  // Issue 16: the dialog says where the link went.
  await expect(dialog.getByRole('status')).toContainText(next);
  expect(linkFromMail(mailTo(outbox(), next)!, baseURL!)).toContain('modal=confirmEmailChange');
});

test('the update-e-mail dialog names the password field in Russian', async ({ page, server }) => {
  const account = await createEmailAccount(server, 'RusMover');
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'ru'));
  await signInPage(page, account);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Сменить почту' }).click();
  const dialog = page.getByRole('dialog', { name: 'Сменить почту' });
  await dialog.getByLabel('Текущий пароль').fill('wrong1234');
  await dialog.getByLabel('Новая почта').fill(uniqueEmail('ru'));
  await dialog.getByRole('button', { name: 'Сохранить' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Неверный пароль');
});

test('the undo link from the old address opens a modal that restores the address and signs the browser out', async ({
  page,
  server,
  baseURL,
}) => {
  const account = await createEmailAccount(server, 'UndoPunk');
  const next = uniqueEmail('taken');
  expect(
    (await api(baseURL!, 'POST', 'auth/change-email/', { new_email: next, password: account.password }, account.access))
      .status,
  ).toBe(200);
  const confirmLink = await mailedLink(server.dataDir, baseURL!, next, 'confirmEmailChange');
  // The player opens the confirmation in the browser signed in as the account that asked
  // (decisions §13: opened anywhere else it changes nothing).
  await signInPage(page, account);
  const confirmed = page.waitForResponse((r) => r.url().includes('/auth/confirm-email-change/'));
  await page.goto(confirmLink);
  expect((await confirmed).status()).toBe(200);
  await expect(page.getByRole('dialog', { name: 'E-mail changed' }).getByRole('status')).toContainText(next);
  const undoLink = await mailedLink(server.dataDir, baseURL!, account.email, 'undoEmailChange');

  await page.goto(undoLink);
  const modal = page.getByRole('dialog', { name: 'Undo the e-mail change' });
  await expect(modal.getByRole('status')).toContainText(`Your e-mail is ${account.email} again`);
  await expect(page).toHaveURL(`${baseURL}/`);
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('pxt.refreshToken') ?? 'null'))).toBeNull();
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toBeHidden();
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  expect(
    (await api(baseURL!, 'POST', 'auth/login-by-email/', { email: account.email, password: account.password })).status,
  ).toBe(200);

  // A used link says so.
  await page.goto(undoLink);
  await expect(page.getByRole('dialog', { name: 'Undo the e-mail change' }).getByRole('alert')).toHaveText(
    'This link is invalid or has expired.',
  );
});
