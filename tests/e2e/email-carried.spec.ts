// Issue 24: the address typed in one sign-in dialog is there in the next one (register → "I already
// have an account" → "Forgot password?", and back the other way), at phone size in both languages.
import { expect, test } from './fixtures';
import { uniqueEmail } from './helpers';
import { text } from './locale-text';
import { LANGUAGES, PHONE, shot, useLanguage } from './outcome-shots';

test.use({ viewport: PHONE, serviceWorkers: 'block' });

for (const lang of LANGUAGES) {
  test(`${lang}: the e-mail typed while registering follows to the login and the password reset`, async ({
    page,
  }, testInfo) => {
    const t = (key: string) => text(lang, key);
    const email = uniqueEmail(`carry${lang}`);
    await useLanguage(page, lang);
    await page.goto('/');
    await page.getByTestId('landing-cta').click();
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('auth:main.email') })
      .click();
    const login = page.getByRole('dialog', { name: t('auth:login.title') });
    await login.getByRole('button', { name: t('auth:login.register') }).click();

    const register = page.getByRole('dialog', { name: t('auth:register.title') });
    await register.getByLabel(t('auth:fields.email')).fill(email);
    await register.getByRole('button', { name: t('auth:register.haveAccount') }).click();

    await expect(login.getByLabel(t('auth:fields.email'))).toHaveValue(email);
    // With the address there, the password is next.
    await expect(login.getByLabel(t('auth:fields.password'), { exact: true })).toBeFocused();
    await shot(page, testInfo, `email-carried-login-${lang}-390`);
    await login.getByRole('button', { name: t('auth:login.forgot') }).click();

    const forgot = page.getByRole('dialog', { name: t('auth:forgot.title') });
    await expect(forgot.getByLabel(t('auth:fields.email'))).toHaveValue(email);
    await expect(forgot.getByRole('button', { name: t('auth:forgot.submit') })).toBeEnabled();

    // A correction made in the reset dialog is the one the login and the registration show next.
    const corrected = uniqueEmail(`fixed${lang}`);
    await forgot.getByLabel(t('auth:fields.email')).fill(corrected);
    await forgot.getByRole('button', { name: t('common:modal.back') }).click();
    await expect(login.getByLabel(t('auth:fields.email'))).toHaveValue(corrected);
    await login.getByRole('button', { name: t('auth:login.register') }).click();
    await expect(register.getByLabel(t('auth:fields.email'))).toHaveValue(corrected);
  });
}
