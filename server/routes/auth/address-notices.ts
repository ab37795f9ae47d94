// Mails to the holder of an address someone else tried to use (issue 21). Registration and e-mail
// change answer the same whether the address is free or taken, after the same work, so the answer
// tells a stranger nothing; the holder is told instead, by a notice that carries no token: it
// changes nothing, whoever opens it.
import type { LinkMail } from '../../services/mailer';

/** To the owner of a confirmed address that someone tried to register again. */
export const registerAttemptNotice = (appName: string, appUrl: string, to: string): LinkMail => ({
  to,
  subject: `Someone tried to register with your address in ${appName}`,
  intro: `Someone tried to register a new ${appName} account with this e-mail address, which already has one. Nothing changed. If it was you, sign in or reset your password.`,
  action: `Open ${appName}`,
  link: `${appUrl}/`,
});

/** To the holder of an address another account asked to move to. */
export const addressInUseNotice = (appName: string, appUrl: string, to: string): LinkMail => ({
  to,
  subject: `Someone tried to use your address in ${appName}`,
  intro: `Someone asked to make this e-mail address the address of another ${appName} account. This address already has an account, so nothing changed. If it was you, sign in with this address instead.`,
  action: `Open ${appName}`,
  link: `${appUrl}/`,
});
