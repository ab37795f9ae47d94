// What the server writes itself speaks the player's language (issue 24): every link mail (subject,
// plain text, HTML) in English or Russian, taken from the interface that asked (`X-Language`) or,
// for mails to an address's holder, from the account; the account keeps the interface's language
// from the sign-up on and follows a switch (GET /auth/me); the push reminder speaks it too.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endSession } from '../helpers/mining';
import { API, bearer, otherIp, PASSWORD, registerAndConfirm, uniqueEmail } from '../helpers/accounts';
import { mailParts, type MailParts } from '../helpers/mail-parts';
import { apiCall, createPlayer, type TestPlayer } from '../helpers/players';
import { browserKeys, decryptPush, makeCertificate, type PushService, startPushService } from '../helpers/push-service';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const APP = 'PXT Companion';
const CYRILLIC = /[а-яё]/i;

/** The words each mail must carry in each language (a part of the subject, the intro and the button). */
const EXPECT = {
  registration: {
    en: {
      subject: `Confirm your registration in ${APP}`,
      intro: 'Confirm your e-mail address',
      action: 'Confirm e-mail',
    },
    ru: { subject: `Подтвердите регистрацию в ${APP}`, intro: 'Подтвердите адрес почты', action: 'Подтвердить почту' },
  },
  registrationAgain: {
    en: { subject: `Confirm your registration in ${APP}`, intro: 'Someone asked again', action: 'Confirm e-mail' },
    ru: { subject: `Подтвердите регистрацию в ${APP}`, intro: 'снова попросили', action: 'Подтвердить почту' },
  },
  registerAttempt: {
    en: { subject: 'Someone tried to register', intro: 'already has one', action: `Open ${APP}` },
    ru: { subject: 'Кто-то пытался зарегистрироваться', intro: 'уже есть аккаунт', action: `Открыть ${APP}` },
  },
  reset: {
    en: {
      subject: `Reset your ${APP} password`,
      intro: 'Choose a new password with this link',
      action: 'Choose a new password',
    },
    ru: {
      subject: `Сброс пароля в ${APP}`,
      intro: 'Задайте новый пароль по этой ссылке',
      action: 'Задать новый пароль',
    },
  },
  changeEmail: {
    en: {
      subject: 'Confirm your new e-mail',
      intro: 'make it the e-mail of your account',
      action: 'Confirm new e-mail',
    },
    ru: { subject: 'Подтвердите новую почту', intro: 'стал почтой вашего аккаунта', action: 'Подтвердить новую почту' },
  },
  undo: {
    en: { subject: 'was changed', intro: 'undo it with this link within 72 hours', action: 'Undo the change' },
    ru: { subject: 'изменена', intro: 'отмените изменение по этой ссылке', action: 'Отменить изменение' },
  },
  passwordChange: {
    en: { subject: `Change your ${APP} password`, intro: 'Choose your new password', action: 'Change password' },
    ru: { subject: `Смена пароля в ${APP}`, intro: 'Задайте новый пароль', action: 'Сменить пароль' },
  },
  notice: {
    en: {
      subject: 'sign-in from a new device',
      intro: 'signed in to your account from a new device',
      action: 'Open Security',
    },
    ru: { subject: 'вход с нового устройства', intro: 'вошли с нового устройства', action: 'Открыть «Безопасность»' },
  },
} as const;
type Kind = keyof typeof EXPECT;
type Lang = 'en' | 'ru';
const FRAME = {
  en: 'If you did not ask for this, ignore this e-mail.',
  ru: 'Если вы об этом не просили, не обращайте внимания на это письмо.',
};

function expectMail(mail: MailParts, kind: Kind, lang: Lang) {
  const words = EXPECT[kind][lang];
  expect(mail.subject).toContain(words.subject);
  expect(mail.text).toContain(words.intro);
  expect(mail.text).toContain(FRAME[lang]);
  expect(mail.html).toContain(words.intro);
  expect(mail.html).toContain(words.action);
  expect(mail.html).toContain(`<html lang="${lang}">`);
  // Nothing of the other language: English mails have no Cyrillic, Russian ones no English frame.
  if (lang === 'en') expect(`${mail.subject}${mail.text}${mail.html}`).not.toMatch(CYRILLIC);
  else expect(`${mail.text}${mail.html}`).not.toContain(FRAME.en);
}

describe.each(testDialects())('the player’s language on %s', (dialect) => {
  let t: TestApp;
  let push: PushService;
  let certDir: string;

  beforeAll(async () => {
    certDir = mkdtempSync(join(tmpdir(), 'pxt-lang-'));
    const cert = await makeCertificate(certDir);
    push = await startPushService(cert);
    t = await createTestApp(dialect, { PUSH_CA_FILE: cert.caFile, PUSH_ALLOWED_HOSTS: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await push.close();
    rmSync(certDir, { recursive: true, force: true });
  });

  const lang = (l: Lang) => ({ 'x-language': l });
  /** The newest mail to `to` whose subject contains `part`. */
  const mailTo = (to: string, part: string): MailParts => {
    const found = t
      .outbox()
      .map(mailParts)
      .filter((m) => m.to === to && m.subject.includes(part));
    expect(found.length, `a mail "${part}" to ${to}`).toBeGreaterThan(0);
    return found.at(-1)!;
  };
  const localeOf = async (email: string) =>
    (await t.app.db.selectFrom('users').select('locale').where('email', '=', email).executeTakeFirstOrThrow()).locale;
  const register = (email: string, headers: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email, password: PASSWORD, confirm_password: PASSWORD },
      headers,
      remoteAddress: otherIp(),
    });

  for (const l of ['en', 'ru'] as const) {
    it(`mails the registration in the language of the interface that registered, and keeps it on the account (${l})`, async () => {
      const email = uniqueEmail(`reg-${l}`);
      expect((await register(email, lang(l))).statusCode).toBe(201);
      expectMail(mailTo(email, EXPECT.registration[l].subject), 'registration', l);
      // Before any sign-in: the account already speaks the registering interface's language.
      expect(await localeOf(email)).toBe(l);
      // Registered again from the other language before confirming: the newest asks in its own.
      const other: Lang = l === 'en' ? 'ru' : 'en';
      expect((await register(email, lang(other))).statusCode).toBe(201);
      expectMail(mailTo(email, EXPECT.registrationAgain[other].subject), 'registrationAgain', other);
    });

    it(`mails a password reset in the asking interface's language (${l})`, async () => {
      const { email } = await registerAndConfirm(t);
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/password-reset/`,
        payload: { email },
        headers: lang(l),
        remoteAddress: otherIp(),
      });
      expect(res.statusCode).toBe(200);
      expectMail(mailTo(email, EXPECT.reset[l].subject), 'reset', l);
    });

    it(`writes to an address's holder in the holder's language, whoever asks (${l})`, async () => {
      const holder = await registerAndConfirm(t);
      // The holder's interface is `l` (GET /auth/me follows it); the stranger's is the other one.
      await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: { ...bearer(holder.access), ...lang(l) } });
      expect(await localeOf(holder.email)).toBe(l);
      const stranger: Lang = l === 'en' ? 'ru' : 'en';
      expect((await register(holder.email, lang(stranger))).statusCode).toBe(201);
      expectMail(mailTo(holder.email, EXPECT.registerAttempt[l].subject), 'registerAttempt', l);
    });

    it(`mails the e-mail change, the undo link and the password link in the player's language (${l})`, async () => {
      const player = await registerAndConfirm(t);
      const auth = { ...bearer(player.access), ...lang(l) };
      // The app loads the player (GET /auth/me) with its language before any change.
      expect((await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: auth })).statusCode).toBe(200);
      const newEmail = uniqueEmail(`moved-${l}`);
      const change = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/change-email/`,
        payload: { new_email: newEmail, password: player.password },
        headers: auth,
        remoteAddress: otherIp(),
      });
      expect(change.statusCode, change.body).toBe(200);
      const confirmMail = mailTo(newEmail, EXPECT.changeEmail[l].subject);
      expectMail(confirmMail, 'changeEmail', l);
      const link = new URL(/https?:\/\/\S+/.exec(confirmMail.text)![0]);
      const confirm = await t.app.inject({
        method: 'GET',
        url: `${API}/auth/confirm-email-change/${link.searchParams.get('token')}/?email=${encodeURIComponent(newEmail)}`,
        headers: auth,
      });
      expect(confirm.statusCode, confirm.body).toBe(200);
      // The undo link goes to the old address, in the language the account keeps (set by the change's calls).
      const undo = mailTo(player.email, EXPECT.undo[l].subject);
      expectMail(undo, 'undo', l);
      expect(undo.text).toContain(newEmail);

      const request = await t.app.inject({
        method: 'GET',
        url: `${API}/auth/change-password-request/`,
        headers: auth,
        remoteAddress: otherIp(),
      });
      expect(request.statusCode, request.body).toBe(200);
      expectMail(mailTo(newEmail, EXPECT.passwordChange[l].subject), 'passwordChange', l);
    });
  }

  it('keeps the account in step with the interface: GET /auth/me writes a changed X-Language, nothing else does', async () => {
    const player = await registerAndConfirm(t);
    expect(await localeOf(player.email)).toBe('en');
    const me = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: { ...bearer(player.access), ...headers } });
    expect((await me(lang('ru'))).statusCode).toBe(200);
    expect(await localeOf(player.email)).toBe('ru');
    // A browser preference alone is no choice of the interface: the account keeps Russian.
    expect((await me({ 'accept-language': 'en-US,en;q=0.9' })).statusCode).toBe(200);
    expect(await localeOf(player.email)).toBe('ru');
    expect((await me(lang('en'))).statusCode).toBe(200);
    expect(await localeOf(player.email)).toBe('en');
  });

  it('mails account notices in the language the account keeps', async () => {
    const player = await registerAndConfirm(t);
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email: player.email, password: player.password },
      headers: lang('ru'),
      remoteAddress: otherIp(),
    });
    expect(login.statusCode, login.body).toBe(200);
    expectMail(mailTo(player.email, EXPECT.notice.ru.subject), 'notice', 'ru');
  });

  describe('the push reminder', () => {
    async function subscribedPlayer(): Promise<{
      p: TestPlayer;
      endpoint: string;
      keys: ReturnType<typeof browserKeys>;
    }> {
      const p = await createPlayer(t);
      const keys = browserKeys();
      const endpoint = `${push.origin}/push/${randomBytes(8).toString('hex')}`;
      const res = await apiCall(t, p, 'POST', '/push/subscribe/', { endpoint, expirationTime: null, keys: keys.json });
      expect(res.statusCode, res.body).toBe(201);
      return { p, endpoint, keys };
    }
    async function reminder(player: Awaited<ReturnType<typeof subscribedPlayer>>) {
      const start = await apiCall(t, player.p, 'GET', '/mining/start/');
      expect(start.statusCode, start.body).toBe(200);
      await endSession(t, start.json().session.id as number);
      await t.app.miningWorker.tick();
      await t.app.pushReminders.idle();
      const got = push.received.filter((r) => `${push.origin}${r.path}` === player.endpoint);
      expect(got).toHaveLength(1);
      return JSON.parse(decryptPush(got[0].body, player.keys)) as { title: string; body: string };
    }

    it('speaks English to an English player and Russian once the interface switched to Russian', async () => {
      const en = await subscribedPlayer();
      const english = await reminder(en);
      expect(english.title).toBe('Your PXT is ready to claim');
      expect(`${english.title}${english.body}`).not.toMatch(CYRILLIC);

      const ru = await subscribedPlayer();
      expect((await apiCall(t, ru.p, 'GET', '/auth/me', undefined, lang('ru'))).statusCode).toBe(200);
      const russian = await reminder(ru);
      expect(russian.title).toBe('Ваши PXT можно забрать');
      expect(russian.body).toContain('Откройте приложение');
    });
  });
});
