// Mails to the holder of an address someone else tried to use (issue 21). Registration and e-mail
// change answer the same whether the address is free or taken, after the same work, so the answer
// tells a stranger nothing; the holder is told instead, by a notice that carries no token: it
// changes nothing, whoever opens it. Written in the holder's language, not the asker's.
import type { LinkMail } from '../../services/mailer';
import { addressInUseMail, registerAttemptMail } from '../../services/mail-texts';
import { localeFrom } from '../../services/player-locale';

/** To the owner of a confirmed address that someone tried to register again. */
export const registerAttemptNotice = (appName: string, appUrl: string, to: string, holderLocale: string): LinkMail => {
  const locale = localeFrom(holderLocale);
  return { to, locale, ...registerAttemptMail(appName)[locale], link: `${appUrl}/` };
};

/** To the holder of an address another account asked to move to. */
export const addressInUseNotice = (appName: string, appUrl: string, to: string, holderLocale: string): LinkMail => {
  const locale = localeFrom(holderLocale);
  return { to, locale, ...addressInUseMail(appName)[locale], link: `${appUrl}/` };
};
