// The link mails' words in both languages (issue 24): subject, the sentences above the link and the
// button. A mail answering the player's own call is written in that call's language (`X-Language`:
// a registration from the Russian interface gets the Russian mail); a mail to someone else's
// address, or sent later, in the language kept on the account. Account notices keep their own
// texts (account-notices.ts); the frame around every mail (footer, plain link) is the mailer's.
import type { Locale } from './player-locale';

export interface MailText {
  subject: string;
  /** One or two sentences above the link. */
  intro: string;
  /** Button text in the HTML body. */
  action: string;
}

type Texts = Record<Locale, MailText>;

export const registrationMail = (app: string): Texts => ({
  en: {
    subject: `Confirm your registration in ${app}`,
    intro: `Welcome to ${app}! Confirm your e-mail address to finish the registration. The link works for 24 hours.`,
    action: 'Confirm e-mail',
  },
  ru: {
    subject: `Подтвердите регистрацию в ${app}`,
    intro: `Добро пожаловать в ${app}! Подтвердите адрес почты, чтобы завершить регистрацию. Ссылка действует 24 часа.`,
    action: 'Подтвердить почту',
  },
});

export const registrationAgainMail = (app: string): Texts => ({
  en: {
    subject: `Confirm your registration in ${app}`,
    intro: `Someone asked again to register this address in ${app}. If it was you, open this link in the browser you registered in; it works for 24 hours. If it was not you, ignore this e-mail: nothing changes unless the link is opened, and opened elsewhere it sets no password.`,
    action: 'Confirm e-mail',
  },
  ru: {
    subject: `Подтвердите регистрацию в ${app}`,
    intro: `Этот адрес снова попросили зарегистрировать в ${app}. Если это были вы, откройте ссылку в том браузере, где регистрировались; она действует 24 часа. Если это были не вы, не обращайте внимания на это письмо: без перехода по ссылке ничего не изменится, а открытая в другом браузере, она не задаёт пароль.`,
    action: 'Подтвердить почту',
  },
});

export const addEmailMail = (app: string): Texts => ({
  en: {
    subject: `Confirm your e-mail for ${app}`,
    intro:
      'Confirm this e-mail address to add it and your password to your account: open this link in the browser where you are signed in. The link works for 24 hours.',
    action: 'Confirm e-mail',
  },
  ru: {
    subject: `Подтвердите почту для ${app}`,
    intro:
      'Подтвердите этот адрес, чтобы добавить его и пароль к аккаунту: откройте ссылку в браузере, где вы вошли в аккаунт. Ссылка действует 24 часа.',
    action: 'Подтвердить почту',
  },
});

export const changeEmailMail = (app: string): Texts => ({
  en: {
    subject: `Confirm your new e-mail for ${app}`,
    intro: 'Confirm this address to make it the e-mail of your account. The link works for 24 hours.',
    action: 'Confirm new e-mail',
  },
  ru: {
    subject: `Подтвердите новую почту для ${app}`,
    intro: 'Подтвердите этот адрес, чтобы он стал почтой вашего аккаунта. Ссылка действует 24 часа.',
    action: 'Подтвердить новую почту',
  },
});

export const emailChangedMail = (app: string, from: string, to: string): Texts => ({
  en: {
    subject: `The e-mail of your ${app} account was changed`,
    intro: `The e-mail address of your ${app} account was changed from ${from} to ${to}. If you did not do this, undo it with this link within 72 hours: your address, password and sign-in methods come back and every session is signed out.`,
    action: 'Undo the change',
  },
  ru: {
    subject: `Почта вашего аккаунта ${app} изменена`,
    intro: `Адрес почты вашего аккаунта ${app} изменён с ${from} на ${to}. Если это сделали не вы, отмените изменение по этой ссылке в течение 72 часов: вернутся адрес, пароль и способы входа, а все сеансы будут завершены.`,
    action: 'Отменить изменение',
  },
});

export const passwordResetMail = (app: string): Texts => ({
  en: {
    subject: `Reset your ${app} password`,
    intro:
      'Someone (hopefully you) asked to reset the password of your account. Choose a new password with this link; it works for 1 hour.',
    action: 'Choose a new password',
  },
  ru: {
    subject: `Сброс пароля в ${app}`,
    intro:
      'Кто-то (надеемся, вы) попросил сбросить пароль вашего аккаунта. Задайте новый пароль по этой ссылке; она действует 1 час.',
    action: 'Задать новый пароль',
  },
});

export const passwordChangeMail = (app: string): Texts => ({
  en: {
    subject: `Change your ${app} password`,
    intro: 'Choose your new password with this link. It works for 1 hour.',
    action: 'Change password',
  },
  ru: {
    subject: `Смена пароля в ${app}`,
    intro: 'Задайте новый пароль по этой ссылке. Она действует 1 час.',
    action: 'Сменить пароль',
  },
});

/** To the owner of a confirmed address that someone tried to register again. */
export const registerAttemptMail = (app: string): Texts => ({
  en: {
    subject: `Someone tried to register with your address in ${app}`,
    intro: `Someone tried to register a new ${app} account with this e-mail address, which already has one. Nothing changed. If it was you, sign in or reset your password.`,
    action: `Open ${app}`,
  },
  ru: {
    subject: `Кто-то пытался зарегистрироваться в ${app} с вашим адресом`,
    intro: `Кто-то пытался зарегистрировать новый аккаунт ${app} с этим адресом почты, но у него уже есть аккаунт. Ничего не изменилось. Если это были вы, войдите или сбросьте пароль.`,
    action: `Открыть ${app}`,
  },
});

/** To the holder of an address another account asked to move to. */
export const addressInUseMail = (app: string): Texts => ({
  en: {
    subject: `Someone tried to use your address in ${app}`,
    intro: `Someone asked to make this e-mail address the address of another ${app} account. This address already has an account, so nothing changed. If it was you, sign in with this address instead.`,
    action: `Open ${app}`,
  },
  ru: {
    subject: `Кто-то пытался использовать ваш адрес в ${app}`,
    intro: `Кто-то попросил сделать этот адрес почтой другого аккаунта ${app}. У этого адреса уже есть аккаунт, поэтому ничего не изменилось. Если это были вы, войдите с этим адресом.`,
    action: `Открыть ${app}`,
  },
});

/** The mailer's frame around every link mail. */
export const MAIL_FRAME: Record<Locale, { ignore: string; openLink: string }> = {
  en: { ignore: 'If you did not ask for this, ignore this e-mail.', openLink: 'Or open this link:' },
  ru: { ignore: 'Если вы об этом не просили, не обращайте внимания на это письмо.', openLink: 'Или откройте ссылку:' },
};
