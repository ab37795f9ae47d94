// Issue 16: a sign-up left at "Choose your username" is picked up again right after the next
// sign-in (and on the next visit), instead of a header that says Connect and nothing asking.
import { expect, test } from './fixtures';
import { uniqueEmail } from './helpers';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';
import { registerInBrowser } from './players';

const TEXT = {
  en: {
    connect: 'Connect',
    email: 'Continue with e-mail',
    login: 'Log in',
    submit: 'Log in',
    field: 'E-mail',
    password: 'Password',
    details: 'Choose your username',
    save: 'Save and continue',
    name: 'Username',
  },
  ru: {
    connect: 'Войти',
    email: 'Продолжить с почтой',
    login: 'Вход',
    submit: 'Войти',
    field: 'Почта',
    password: 'Пароль',
    details: 'Выберите ник',
    save: 'Сохранить и продолжить',
    name: 'Ник',
  },
};

test.use({ viewport: PHONE });

for (const lang of LANGUAGES) {
  test(`${lang}: leave during "Choose your username", sign in again: the username is asked for at once`, async ({
    browser,
    server,
    baseURL,
  }, testInfo) => {
    const t = TEXT[lang];
    const email = uniqueEmail(`resume${lang}`);

    // First device: the player signs up there (so its mailed link keeps the typed password,
    // decisions §13); the link opens the username dialog; the player closes the tab there.
    const first = await browser.newContext({ viewport: PHONE, baseURL });
    const firstPage = await first.newPage();
    const link = await registerInBrowser(firstPage, server, email);
    await useLanguage(firstPage, lang);
    await firstPage.goto(link);
    await expect(firstPage.getByRole('dialog', { name: t.details })).toBeVisible();
    await first.close();

    // Later, signed out (another browser): the ordinary e-mail login.
    const second = await browser.newContext({ viewport: PHONE, baseURL });
    const page2 = await second.newPage();
    await useLanguage(page2, lang);
    await page2.goto('/');
    await page2.getByRole('button', { name: t.connect, exact: true }).click();
    await page2.getByRole('dialog').getByRole('button', { name: t.email }).click();
    const login = page2.getByRole('dialog', { name: t.login });
    await login.getByLabel(t.field).fill(email);
    await login.getByLabel(t.password, { exact: true }).fill('punk1234');
    await login.getByRole('button', { name: t.submit, exact: true }).click();
    await expect(login).toBeHidden();
    await page2.waitForLoadState('networkidle');
    await shot(page2, testInfo, `signup-resume-after-login-${lang}-390`);
    const details = page2.getByRole('dialog', { name: t.details });
    await expect(details).toBeVisible();

    // A reload (the next visit) asks again until a name is chosen.
    await page2.reload();
    await expect(details).toBeVisible();
    await details.getByLabel(t.name).fill(`Back${lang}${Date.now().toString(36).slice(-5)}`);
    await details.getByRole('button', { name: t.save }).click();
    await expect(details).toBeHidden();
    await expect(page2.getByTestId('player-block')).toBeVisible();
    await page2.reload();
    await expect(page2.getByTestId('player-block')).toBeVisible();
    await expect(details).toHaveCount(0);
    await second.close();
  });
}
