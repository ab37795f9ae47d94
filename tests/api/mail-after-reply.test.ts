// Mails go out after the answer (issue 11, "Password reset enumeration by time"): with a mail server
// that accepts connections and never answers, a password reset still answers at once and alike for
// known and unknown addresses, a registration still answers 201, and the mails are sent once the
// mail server works. No timing: the mail server is simply held until the answers are in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, otherIp, PASSWORD, parseMail, quickUser, uniqueEmail } from '../helpers/accounts';
import { smtpServer } from '../helpers/smtp-server';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('mail after the answer on %s', (dialect) => {
  let t: TestApp;
  const smtp = smtpServer();
  beforeAll(async () => {
    t = await createTestApp(dialect, { SMTP_URL: await smtp.listen() });
  });
  afterAll(async () => {
    smtp.release();
    await t.close();
    await smtp.close();
  });

  // The raw inject: resolves with the answer, not waiting for the work left for after it.
  const post = (url: string, payload: object) =>
    t.injectNow({ method: 'POST', url: `${API}${url}`, payload, remoteAddress: otherIp() });
  const mailsTo = (email: string) => smtp.received.map((m) => parseMail(m.data)).filter((m) => m.to === email);

  it('answers a password reset for a known and an unknown address alike while the mail server hangs, and mails the known one later', async () => {
    const known = uniqueEmail('known');
    await quickUser(t, { email: known, emailConfirmed: true });
    const unknown = uniqueEmail('unknown');
    smtp.hold();
    const a = await post('/auth/password-reset/', { email: known });
    const b = await post('/auth/password-reset/', { email: unknown });
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.body).toBe(b.body);
    // Both answers are in and the mail server has not said a word yet.
    expect(smtp.received).toHaveLength(0);

    smtp.release();
    await t.app.afterReplySettled();
    expect(mailsTo(known)).toHaveLength(1);
    expect(mailsTo(known)[0].link.searchParams.get('modal')).toBe('restorePassword');
    expect(mailsTo(unknown)).toHaveLength(0);
  });

  it('answers a registration 201 while the mail server hangs; the link arrives once it answers and works', async () => {
    const email = uniqueEmail('register');
    smtp.hold();
    const res = await post('/auth/register/', { email, password: PASSWORD, confirm_password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(mailsTo(email)).toHaveLength(0);

    smtp.release();
    await t.app.afterReplySettled();
    const [mail] = mailsTo(email);
    expect(mail.link.searchParams.get('modal')).toBe('confirmRegistration');
    const confirmed = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/confirm-email/${mail.link.searchParams.get('token')}/`,
    });
    expect(confirmed.statusCode).toBe(200);
  });
});
