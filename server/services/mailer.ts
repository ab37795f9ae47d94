// Outgoing mail (decisions §2). With SMTP_URL set, mail goes through that SMTP server. Without it,
// each mail is written as an .eml file to DATA_DIR/outbox/ (names sort in send order) and, outside
// production, its link is printed on the console, so a local install works with no mail server at
// all. Production needs SMTP_URL, or MAIL_TRANSPORT=outbox on purpose: outbox only, nothing printed.
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import { ApiError } from '../lib/errors';
import { tightenMode } from '../lib/private-files';
import { MAIL_FRAME } from './mail-texts';
import type { Locale } from './player-locale';

export interface LinkMail {
  /** One plain address (shared/validation.ts `isValidEmail`), as the request schema checked it. */
  to: string;
  /** The language of the whole mail: its subject, words and frame (services/mail-texts.ts). */
  locale: Locale;
  subject: string;
  /** One or two sentences above the link. */
  intro: string;
  /** Button text in the HTML body. */
  action: string;
  link: string;
}

export interface Mailer {
  /** Sends a mail whose point is one link; throws 503 `mail_failed` when it cannot be sent. */
  sendLink(mail: LinkMail): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function bodies(appName: string, m: LinkMail) {
  const frame = MAIL_FRAME[m.locale];
  const footer = `${frame.ignore}\n\n${appName}`;
  const text = `${m.intro}\n\n${m.link}\n\n${footer}\n`;
  const html = `<!doctype html><html lang="${m.locale}"><body style="font-family:sans-serif;line-height:1.5">
<p>${escapeHtml(m.intro)}</p>
<p><a href="${escapeHtml(m.link)}" style="display:inline-block;padding:10px 18px;background:#5b3df5;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(m.action)}</a></p>
<p style="font-size:12px;color:#666">${escapeHtml(frame.openLink)} ${escapeHtml(m.link)}</p>
<p style="font-size:12px;color:#666">${escapeHtml(footer).replace(/\n/g, '<br>')}</p>
</body></html>`;
  return { text, html };
}

let sequence = 0;
/** Sortable by send time, then by order within this process. */
function outboxName(): string {
  sequence = (sequence + 1) % 1_000_000;
  return `${String(Date.now()).padStart(15, '0')}-${String(sequence).padStart(6, '0')}-${process.pid}.eml`;
}

export default fp(
  async function mailer(app: FastifyInstance) {
    const { smtpUrl, appName, appUrl, dataDir, logLevel, mail } = app.config;
    const from = { name: appName, address: `no-reply@${new URL(appUrl).hostname}` };
    const smtp = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
    const files = smtp ? null : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const outbox = join(dataDir, 'outbox');
    if (smtp) app.addHook('onClose', async () => smtp.close());
    else tightenMode(outbox, 0o700); // an outbox from before its folder was made private

    const send = async (m: LinkMail) => {
      // An address object, never a string: nodemailer parses a string as an address list
      // (`a@x.com,b@y.com`, `x<c@z.com>@y.com`), but takes an object as exactly one recipient.
      const message = { from, to: { name: '', address: m.to }, subject: m.subject, ...bodies(appName, m) };
      if (smtp) {
        try {
          await smtp.sendMail(message);
        } catch (err) {
          app.log.error({ err, to: m.to }, 'mail could not be sent');
          throw new ApiError(503, 'mail_failed', 'We could not send the e-mail. Please try again later.');
        }
        app.log.info({ to: m.to, subject: m.subject }, 'mail sent');
        return;
      }
      const info = await files!.sendMail(message);
      // The outbox is a mailbox: only the server's user may read it (the folder 0700, each mail 0600).
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const file = join(outbox, outboxName());
      // Written under another name and renamed into place, so whoever reads the outbox (a person,
      // a test) never finds a half-written .eml: the mails are sent after the answer now.
      writeFileSync(`${file}.part`, info.message as Buffer, { mode: 0o600 });
      renameSync(`${file}.part`, file);
      // The link (a single-use token) stays out of the log, which may be kept and shipped elsewhere.
      app.log.info({ to: m.to, file }, 'mail written to outbox');
      // The server log may be JSON or silenced; this line is for the person running `npm start`.
      // Never with MAIL_TRANSPORT=outbox (production): there the console is a kept journal.
      if (mail.printLinks && logLevel !== 'silent') console.log(`[mail] to ${m.to}: ${m.link}`);
    };

    // Counted here, whether the mail was awaited by the request or sent after the reply.
    const sendLink = async (m: LinkMail) => {
      try {
        await send(m);
      } catch (err) {
        app.metrics.mailSent.inc({ result: 'failed' });
        throw err;
      }
      app.metrics.mailSent.inc({ result: 'sent' });
    };

    app.decorate('mailer', { sendLink });
  },
  { name: 'mailer', dependencies: ['config', 'metrics'] },
);
