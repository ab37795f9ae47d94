import { readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { API, mails, otherIp, PASSWORD, parseMail, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** Just enough SMTP to take mail from nodemailer (no TLS, no auth). */
function smtpServer(opts: { rejectRecipients: () => boolean }) {
  const received: { rcpt: string[]; data: string }[] = [];
  const server: Server = createServer((sock) => {
    sock.write('220 test ESMTP\r\n');
    let buffer = '';
    let inData = false;
    let data = '';
    let rcpt: string[] = [];
    sock.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (let i = buffer.indexOf('\r\n'); i >= 0; i = buffer.indexOf('\r\n')) {
        const line = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        if (inData) {
          if (line === '.') {
            inData = false;
            received.push({ rcpt, data });
            rcpt = [];
            data = '';
            sock.write('250 OK queued\r\n');
          } else data += `${line.replace(/^\./, '')}\n`;
          continue;
        }
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') sock.write('250-test\r\n250 8BITMIME\r\n');
        else if (cmd === 'RCPT') {
          if (opts.rejectRecipients()) sock.write('550 No such user\r\n');
          else {
            rcpt.push(line);
            sock.write('250 OK\r\n');
          }
        } else if (cmd === 'DATA') {
          inData = true;
          sock.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (cmd === 'QUIT') {
          sock.end('221 Bye\r\n');
        } else sock.write('250 OK\r\n');
      }
    });
    sock.on('error', () => {});
  });
  return { server, received };
}

describe.each(testDialects())('mail on %s', (dialect) => {
  describe('through SMTP_URL', () => {
    let t: TestApp;
    let reject = false;
    const smtp = smtpServer({ rejectRecipients: () => reject });
    beforeAll(async () => {
      await new Promise<void>((resolve) => smtp.server.listen(0, '127.0.0.1', resolve));
      const { port } = smtp.server.address() as AddressInfo;
      t = await createTestApp(dialect, { SMTP_URL: `smtp://127.0.0.1:${port}` });
    });
    afterAll(async () => {
      await t.close();
      await new Promise((resolve) => smtp.server.close(resolve));
    });

    it('sends the link mail to the SMTP server and writes no outbox file', async () => {
      const email = uniqueEmail('smtp');
      const res = await t.app.inject({ method: 'POST', url: `${API}/auth/register/`, payload: { email, password: PASSWORD, confirm_password: PASSWORD }, remoteAddress: otherIp() });
      expect(res.statusCode).toBe(201);
      const mail = smtp.received.at(-1)!;
      expect(mail.rcpt[0]).toContain(email);
      const parsed = parseMail(mail.data);
      expect(parsed.to).toBe(email);
      expect(parsed.link.searchParams.get('modal')).toBe('confirmRegistration');
      expect(mail.data).toContain('text/html');
      expect(t.outbox()).toEqual([]);
      const confirm = await t.app.inject({ method: 'GET', url: `${API}/auth/confirm-email/${parsed.link.searchParams.get('token')}/` });
      expect(confirm.statusCode).toBe(200);
    });

    it('hands nodemailer one recipient even if a list slipped past validation', async () => {
      // The schemas refuse these (email-addresses.test.ts); this is the mailer's own guard: a string
      // `to` is parsed by nodemailer as an address list, an address object never is.
      for (const to of ['a@x.com,b@y.com', 'x<c@z.com>@y.com', 'a@x.com b@y.com']) {
        const before = smtp.received.length;
        await t.app.mailer.sendLink({ to, subject: 'Guard', intro: 'Guard', action: 'Open', link: 'http://app.test/' });
        expect(smtp.received.length).toBe(before + 1);
        const { rcpt } = smtp.received.at(-1)!;
        expect(rcpt, to).toHaveLength(1);
        expect(rcpt[0]).not.toMatch(/<(a@x\.com|b@y\.com|c@z\.com)>/i);
      }
    });

    it('answers 503 mail_failed, not a 500, when the server refuses the mail', async () => {
      reject = true;
      try {
        const res = await t.app.inject({ method: 'POST', url: `${API}/auth/register/`, payload: { email: uniqueEmail('refused'), password: PASSWORD, confirm_password: PASSWORD }, remoteAddress: otherIp() });
        expect(res.statusCode).toBe(503);
        expect(res.json().code).toBe('mail_failed');
        // Password reset answers the same whether or not the mail went out.
        const reset = await t.app.inject({ method: 'POST', url: `${API}/auth/password-reset/`, payload: { email: uniqueEmail('refused') }, remoteAddress: otherIp() });
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
        await t.app.inject({ method: 'POST', url: `${API}/auth/password-reset/`, payload: { email }, remoteAddress: otherIp() });
        await t.app.inject({ method: 'POST', url: `${API}/auth/register/`, payload: { email, password: PASSWORD, confirm_password: PASSWORD }, remoteAddress: otherIp() });
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
