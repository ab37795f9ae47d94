// Request logs keep no mailed token: the confirmation link's token travels in an API path
// (/auth/confirm-email/<token>/) and in the app link's query (/?modal=…&token=…). The real app
// logs to a captured stream while a player confirms an account both ways.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../server/lib/log-redaction';
import { API, mailedToken, otherIp, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('request logs on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOG_LEVEL: 'info' }, undefined, {
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => t?.close());

  it('logs the confirmation calls with the token replaced by a marker', async () => {
    const email = uniqueEmail('logs');
    const reg = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email, password: PASSWORD, confirm_password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(reg.statusCode, reg.body).toBeLessThan(300);
    const token = mailedToken(t, email, 'confirmRegistration');
    const from = lines.length;

    // The app link as the mail has it, then the call the page makes with its token.
    await t.app.inject({ method: 'GET', url: `/?modal=confirmRegistration&token=${token}` });
    const confirmed = await t.app.inject({ method: 'GET', url: `${API}/auth/confirm-email/${token}/` });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const written = lines.slice(from).map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
    const urls = written.filter((l) => l.msg === 'incoming request').map((l) => l.req!.url);
    expect(urls).toEqual(['/?modal=confirmRegistration&token=[redacted]', `${API}/auth/confirm-email/[redacted]/`]);
    expect(lines.join('\n')).not.toContain(token);
  });
});

describe('redactUrl', () => {
  it('replaces secrets in auth paths and secret query parameters, and keeps the rest', () => {
    expect(redactUrl('/api/v1/auth/confirm-email-change/abc_DEF-123/?email=a%40b.c')).toBe(
      '/api/v1/auth/confirm-email-change/[redacted]/?email=a%40b.c',
    );
    expect(redactUrl('/api/v1/auth/confirm-email/abc')).toBe('/api/v1/auth/confirm-email/[redacted]');
    expect(redactUrl('/?modal=restorePassword&Token=x1&refCode=crew7&%74oken=x2')).toBe(
      '/?modal=restorePassword&Token=[redacted]&refCode=crew7&%74oken=[redacted]',
    );
    expect(redactUrl('/api/v1/auth/me')).toBe('/api/v1/auth/me');
    expect(redactUrl('/api/v1/mining/sessions/?page=2')).toBe('/api/v1/mining/sessions/?page=2');
  });

  // The URLs with nothing to redact are told apart without taking them to pieces: these are the
  // ones that look plain but are not, or look secret but are not.
  it.each([
    ['/?CODE=1&page=2', '/?CODE=[redacted]&page=2'],
    ['/x?page=1&refresh=r', '/x?page=1&refresh=[redacted]'],
    ['/x?a=1&+token=t', '/x?a=1&+token=[redacted]'],
    ['/x?%20code=c', '/x?%20code=[redacted]'],
    ['/x?password', '/x?password'],
    ['/x?codes=1&xtoken=2&a=token', '/x?codes=1&xtoken=2&a=token'],
    ['/x?next=/auth/confirm-email/abc/', '/x?next=/auth/confirm-email/abc/'],
    ['/a/auth/b/c?token=t', '/a/auth/b/[redacted]?token=[redacted]'],
  ])('%s is logged as %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
