// Notices to the account's confirmed address (decisions §13): each sign-in method added or removed,
// each e-mail or password change, each sign-in from a new device. What changed, when, on which
// device, and a link to the profile's security section, in the player's language. Sent after the
// answer (a slow mail server holds nobody) and only once the change is committed.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MethodKind } from '@shared/api/auth';
import { coarseAddress } from '../lib/client-address';
import { describeDevice } from '../lib/user-agent';
import { type Locale, localeFrom } from './player-locale';
import { findUserById } from './users';

export type AccountEvent =
  | { kind: 'method_added' | 'method_removed'; method: MethodKind }
  | { kind: 'email_changed'; email: string }
  | { kind: 'password_changed' }
  | { kind: 'new_device' };

const METHOD_NAMES: Record<Locale, Record<MethodKind, string>> = {
  en: { password: 'e-mail and password', wallet: 'wallet', google: 'Google', telegram: 'Telegram', discord: 'Discord' },
  ru: { password: 'почта и пароль', wallet: 'кошелёк', google: 'Google', telegram: 'Telegram', discord: 'Discord' },
};

function texts(locale: Locale, event: AccountEvent, appName: string): { subject: string; what: string } {
  const m = 'method' in event ? METHOD_NAMES[locale][event.method] : '';
  if (locale === 'ru') {
    switch (event.kind) {
      case 'method_added':
        return { subject: `${appName}: добавлен способ входа`, what: `К вашему аккаунту добавлен способ входа: ${m}.` };
      case 'method_removed':
        return {
          subject: `${appName}: удалён способ входа`,
          what: `Из вашего аккаунта удалён способ входа: ${m}. Все другие устройства вышли из аккаунта.`,
        };
      case 'email_changed':
        return { subject: `${appName}: почта изменена`, what: `Почта вашего аккаунта изменена на ${event.email}.` };
      case 'password_changed':
        return {
          subject: `${appName}: пароль изменён`,
          what: 'Пароль вашего аккаунта изменён. Все другие устройства вышли из аккаунта.',
        };
      case 'new_device':
        return { subject: `${appName}: вход с нового устройства`, what: 'В ваш аккаунт вошли с нового устройства.' };
    }
  }
  switch (event.kind) {
    case 'method_added':
      return {
        subject: `${appName}: a sign-in method was added`,
        what: `A sign-in method was added to your account: ${m}.`,
      };
    case 'method_removed':
      return {
        subject: `${appName}: a sign-in method was removed`,
        what: `A sign-in method was removed from your account: ${m}. Every other device was signed out.`,
      };
    case 'email_changed':
      return {
        subject: `${appName}: your e-mail was changed`,
        what: `The e-mail of your account was changed to ${event.email}.`,
      };
    case 'password_changed':
      return {
        subject: `${appName}: your password was changed`,
        what: 'The password of your account was changed. Every other device was signed out.',
      };
    case 'new_device':
      return {
        subject: `${appName}: sign-in from a new device`,
        what: 'Someone signed in to your account from a new device.',
      };
  }
}

/**
 * Mails `event` to the player's confirmed address once the answer is out, or to `recipient` (an
 * address the change just took off the account).
 */
export function noticeAccount(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  event: AccountEvent,
  recipient?: { to: string; locale: string },
): void {
  const at = new Date();
  const device = describeDevice(request.headers['user-agent']);
  const address = coarseAddress(request.ip);
  app.afterReply(reply, `account notice ${event.kind}`, async () => {
    const user = recipient ? null : await findUserById(app.db, userId);
    const to = recipient?.to ?? (user?.email_confirmed ? user.email : null);
    if (!to) return;
    const locale = localeFrom(recipient?.locale ?? user?.locale);
    const { subject, what } = texts(locale, event, app.config.appName);
    const when = at.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
    const intro =
      locale === 'ru'
        ? `${what} Когда: ${when}. Устройство: ${device}, сеть ${address}. Если это были не вы, откройте раздел «Безопасность» в профиле: завершите чужие сеансы и удалите чужие способы входа.`
        : `${what} When: ${when}. Device: ${device}, network ${address}. If this was not you, open the Security section of your profile: end the sessions you do not know and remove the methods you did not add.`;
    await app.mailer.sendLink({
      to,
      locale,
      subject,
      intro,
      action: locale === 'ru' ? 'Открыть «Безопасность»' : 'Open Security',
      link: `${app.config.appUrl}/profile#security`,
    });
  });
}
