// Issue 16: every account action ends with a clear outcome at phone size, in both languages: an
// e-mail change says where the link went and, once confirmed, shows the new address; the
// password-change link keeps this device signed in (fresh tokens, no surprise 401 later) and says
// so; a reset opens the login with the address filled in and says what happened.
import { expect, linkFromMail, outboxAfter, test, type RunningServer } from './fixtures';
import { createEmailAccount, signInPage, uniqueEmail } from './helpers';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';

test.use({ viewport: PHONE });

const TEXT = {
  en: {
    changeEmail: 'Change e-mail',
    newEmail: 'New e-mail',
    current: 'Current password',
    save: 'Save',
    sent: 'We sent a confirmation link to',
    changed: 'E-mail changed',
    nowIs: 'Your e-mail is now',
    updatePassword: 'Change password',
    newPassword: 'New password',
    repeat: 'Repeat password',
    passwordDone: 'Your password has been changed. This device stays signed in',
    reset: 'Set a new password',
    savePassword: 'Save password',
    login: 'Log in',
    resetDone: 'Your password has been reset',
    emailLabel: 'E-mail',
  },
  ru: {
    changeEmail: 'Сменить почту',
    newEmail: 'Новая почта',
    current: 'Текущий пароль',
    save: 'Сохранить',
    sent: 'Мы отправили ссылку для подтверждения на',
    changed: 'Почта изменена',
    nowIs: 'Ваша почта теперь',
    updatePassword: 'Сменить пароль',
    newPassword: 'Новый пароль',
    repeat: 'Повторите пароль',
    passwordDone: 'Пароль изменён. На этом устройстве вы остаётесь в аккаунте',
    reset: 'Новый пароль',
    savePassword: 'Сохранить пароль',
    login: 'Вход',
    resetDone: 'Пароль сброшен',
    emailLabel: 'Почта',
  },
};

const mailTo = (mails: string[], to: string) => mails.filter((m) => m.includes(`To: ${to}`)).at(-1);
const storedRefresh = (page: import('@playwright/test').Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('pxt.refreshToken') ?? 'null') as string | null);
const refreshStatus = async (server: RunningServer, refresh: string | null) =>
  (
    await fetch(`${server.baseURL}/api/v1/auth/refresh/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh }),
    })
  ).status;

for (const lang of LANGUAGES) {
  const t = TEXT[lang];

  test(`${lang}: an e-mail change says where the link went; the confirmed link shows the new address and keeps this device signed in`, async ({
    page,
    server,
    outbox,
    baseURL,
  }, testInfo) => {
    const account = await createEmailAccount(server, `Mover${lang}${Date.now().toString(36).slice(-4)}`);
    await useLanguage(page, lang);
    await signInPage(page, account);
    await page.goto('/profile');
    await page.getByRole('button', { name: t.changeEmail }).click();
    const dialog = page.getByRole('dialog', { name: t.changeEmail });
    const next = uniqueEmail(`moved${lang}`);
    await dialog.getByLabel(t.newEmail).fill(next);
    await dialog.getByLabel(t.current).fill(account.password);
    await dialog.getByRole('button', { name: t.save }).click();
    await expect.poll(() => Boolean(mailTo(outbox(), next))).toBe(true);
    await shot(page, testInfo, `email-change-sent-${lang}-390`);
    await expect(dialog.getByRole('status')).toContainText(`${t.sent} ${next}`);
    await expect(dialog.getByRole('status')).toContainText(account.email);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('profile-email')).toHaveText(account.email);

    await page.goto(linkFromMail(mailTo(outbox(), next)!, baseURL!));
    await expect(page).toHaveURL(`${baseURL}/`);
    const done = page.getByRole('dialog', { name: t.changed });
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `email-change-confirmed-${lang}-390`);
    await expect(done.getByRole('status')).toContainText(`${t.nowIs} ${next}`);
    await page.goto('/profile');
    await expect(page.getByTestId('profile-email')).toHaveText(next);
    // Still signed in for good: the token this browser keeps renews.
    expect(await refreshStatus(server, await storedRefresh(page))).toBe(200);
  });

  test(`${lang}: the password-change link says it worked and keeps this device signed in with fresh tokens`, async ({
    page,
    server,
    baseURL,
  }, testInfo) => {
    const account = await createEmailAccount(server, `Keeper${lang}${Date.now().toString(36).slice(-4)}`);
    const before = (await outboxAfter(server.dataDir, 0)).length;
    const req = await fetch(`${baseURL}/api/v1/auth/change-password-request/`, {
      headers: { authorization: `Bearer ${account.access}` },
    });
    expect(req.status).toBe(200);
    const link = linkFromMail(mailTo(await outboxAfter(server.dataDir, before), account.email)!, baseURL!);

    await useLanguage(page, lang);
    await signInPage(page, account);
    await page.goto(link);
    const dialog = page.getByRole('dialog', { name: t.updatePassword });
    await dialog.getByLabel(t.newPassword).fill('fresh5678');
    await dialog.getByLabel(t.repeat).fill('fresh5678');
    await dialog.getByRole('button', { name: t.updatePassword }).click();
    await page.waitForLoadState('networkidle');
    await shot(page, testInfo, `password-change-done-${lang}-390`);
    await expect(dialog.getByRole('status')).toContainText(t.passwordDone);
    // The old refresh token is revoked on the server; the one this browser now holds renews.
    const kept = await storedRefresh(page);
    expect(kept).not.toBe(account.refresh);
    expect(await refreshStatus(server, account.refresh)).toBe(401);
    expect(await refreshStatus(server, kept)).toBe(200);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('player-block')).toBeVisible();
  });

  test(`${lang}: after a reset the login says so and has the e-mail filled in`, async ({
    page,
    server,
    baseURL,
  }, testInfo) => {
    const account = await createEmailAccount(server, `Reset${lang}${Date.now().toString(36).slice(-4)}`);
    const before = (await outboxAfter(server.dataDir, 0)).length;
    await fetch(`${baseURL}/api/v1/auth/password-reset/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email }),
    });
    const link = linkFromMail(mailTo(await outboxAfter(server.dataDir, before), account.email)!, baseURL!);

    await useLanguage(page, lang);
    await page.goto(link);
    const reset = page.getByRole('dialog', { name: t.reset });
    await reset.getByLabel(t.newPassword).fill('fresh5678');
    await reset.getByLabel(t.repeat).fill('fresh5678');
    await reset.getByRole('button', { name: t.savePassword }).click();
    const login = page.getByRole('dialog', { name: t.login });
    await expect(login).toBeVisible();
    await shot(page, testInfo, `password-reset-login-${lang}-390`);
    await expect(login.getByRole('status')).toContainText(t.resetDone);
    await expect(login.getByLabel(t.emailLabel)).toHaveValue(account.email);
  });
}
