import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  API,
  bearer,
  mails,
  newWallet,
  otherIp,
  PASSWORD,
  parseMail,
  quickUser,
  reauthFor,
  uniqueEmail,
} from '../helpers/accounts';
import { smtpServer } from '../helpers/smtp-server';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('mail on %s', (dialect) => {
  describe('through SMTP_URL', () => {
    let t: TestApp;
    let reject = false;
    const smtp = smtpServer({ rejectRecipients: () => reject });
    beforeAll(async () => {
      t = await createTestApp(dialect, { SMTP_URL: await smtp.listen() });
    });
    afterAll(async () => {
      await t.close();
      await smtp.close();
    });

    it('sends the link mail to the SMTP server and writes no outbox file', async () => {
      const email = uniqueEmail('smtp');
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/register/`,
        payload: { email, password: PASSWORD, confirm_password: PASSWORD },
        remoteAddress: otherIp(),
      });
      expect(res.statusCode).toBe(201);
      const mail = smtp.received.at(-1)!;
      expect(mail.rcpt[0]).toContain(email);
      const parsed = parseMail(mail.data);
      expect(parsed.to).toBe(email);
      expect(parsed.link.searchParams.get('modal')).toBe('confirmRegistration');
      expect(mail.data).toContain('text/html');
      expect(t.outbox()).toEqual([]);
      const confirm = await t.app.inject({
        method: 'GET',
        url: `${API}/auth/confirm-email/${parsed.link.searchParams.get('token')}/`,
      });
      expect(confirm.statusCode).toBe(200);
    });

    it('hands nodemailer one recipient even if a list slipped past validation', async () => {
      // The schemas refuse these (email-addresses.test.ts); this is the mailer's own guard: a string
      // `to` is parsed by nodemailer as an address list, an address object never is.
      for (const to of ['a@x.com,b@y.com', 'x<c@z.com>@y.com', 'a@x.com b@y.com']) {
        const before = smtp.received.length;
        await t.app.mailer.sendLink({
          to,
          locale: 'en',
          subject: 'Guard',
          intro: 'Guard',
          action: 'Open',
          link: 'http://app.test/',
        });
        expect(smtp.received.length).toBe(before + 1);
        const { rcpt } = smtp.received.at(-1)!;
        expect(rcpt, to).toHaveLength(1);
        expect(rcpt[0]).not.toMatch(/<(a@x\.com|b@y\.com|c@z\.com)>/i);
      }
    });

    it('answers 503 mail_failed, not a 500, when the server refuses a mail the answer waits for', async () => {
      reject = true;
      try {
        // decisions §13: the change needs proof of the account; this one signs with its wallet.
        const wallet = newWallet();
        const { access } = await quickUser(t, {
          email: uniqueEmail('mover'),
          emailConfirmed: true,
          walletAddress: wallet.address,
        });
        const reauth = await reauthFor(t, access, wallet);
        const res = await t.app.inject({
          method: 'POST',
          url: `${API}/auth/change-email/`,
          payload: { new_email: uniqueEmail('refused'), reauth },
          headers: bearer(access),
          remoteAddress: otherIp(),
        });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('mail_failed');
        // Registration mails after its answer (mail-after-reply.test.ts): the answer stays 201.
        const reg = await t.app.inject({
          method: 'POST',
          url: `${API}/auth/register/`,
          payload: { email: uniqueEmail('refused'), password: PASSWORD, confirm_password: PASSWORD },
          remoteAddress: otherIp(),
        });
        expect(reg.statusCode).toBe(201);
        // Password reset answers the same whether or not the mail went out.
        const reset = await t.app.inject({
          method: 'POST',
          url: `${API}/auth/password-reset/`,
          payload: { email: uniqueEmail('refused') },
          remoteAddress: otherIp(),
        });
        expect(reset.statusCode).toBe(200);
      } finally {
        reject = false;
      }
    });
  });

  describe('without SMTP_URL', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(dialect, { LOG_LEVEL: 'info' });
    });
    afterAll(() => t.close());
    afterEach(() => vi.restoreAllMocks());

    it('writes .eml files to DATA_DIR/outbox whose names sort in send order, and prints each link', async () => {
      const log = vi.spyOn(console, 'log').mockImplementation(() => {});
      const addresses = [uniqueEmail('first'), uniqueEmail('second'), uniqueEmail('third')];
      for (const email of addresses) {
        await t.app.inject({
          method: 'POST',
          url: `${API}/auth/password-reset/`,
          payload: { email },
          remoteAddress: otherIp(),
        });
        await t.app.inject({
          method: 'POST',
          url: `${API}/auth/register/`,
          payload: { email, password: PASSWORD, confirm_password: PASSWORD },
          remoteAddress: otherIp(),
        });
      }
      expect(mails(t).map((m) => m.to)).toEqual(addresses);
      const files = readdirSync(join(t.dataDir, 'outbox'));
      expect(files.every((f) => f.endsWith('.eml'))).toBe(true);
      const printed = log.mock.calls.map((c) => String(c[0]));
      expect(printed).toHaveLength(3);
      expect(printed[0]).toBe(`[mail] to ${addresses[0]}: ${mails(t)[0].link.toString()}`);
    });
  });
});
