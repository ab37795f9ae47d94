// Issue 16: a password change signs every other device out but keeps the device that made it
// signed in with a fresh token pair (decisions §13: in a new session; every old one ends at once) (never a surprise 401 when its access token runs out); a reset
// answers with the address so the login can fill it in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, bearer, mailedToken, otherIp, registerAndConfirm } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('password change keeps the changing device on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers, remoteAddress: otherIp() });
  const refreshWith = (refresh: string) => post('/auth/refresh/', { refresh });
  const changeLink = async (email: string, access: string) => {
    const req = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/change-password-request/`,
      headers: bearer(access),
      remoteAddress: otherIp(),
    });
    expect(req.statusCode).toBe(200);
    return mailedToken(t, email, 'confirmPasswordChange');
  };

  it('answers a new pair for the device that sent its refresh token; its old token and every other device are signed out', async () => {
    const { email, access, refresh } = await registerAndConfirm(t);
    const other = (await post('/auth/login-by-email/', { email, password: 'secret123' })).json() as { refresh: string };
    const token = await changeLink(email, access);

    const res = await post('/auth/confirm-password-change/', {
      token,
      new_password: 'changed123',
      confirm_new_password: 'changed123',
      refresh,
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { detail: string; access?: string; refresh?: string };
    expect(body.access).toEqual(expect.any(String));
    expect(body.refresh).toEqual(expect.any(String));
    expect(body.refresh).not.toBe(refresh);

    // This device goes on: the new refresh token renews, the new access token reads the player.
    expect((await refreshWith(body.refresh!)).statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(body.access!) });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(email);
    // The old token of this device and the other device are revoked.
    expect((await refreshWith(refresh)).statusCode).toBe(401);
    expect((await refreshWith(other.refresh)).statusCode).toBe(401);
    // Their sessions ended, so the old access token is refused at once too (decisions §13).
    expect((await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).statusCode).toBe(
      401,
    );
  });

  it("gives no tokens for a link opened signed out, with a dead token or with another player's token", async () => {
    const a = await registerAndConfirm(t);
    const b = await registerAndConfirm(t);
    let access = a.access;
    for (const refresh of [undefined, 'not-a-token', b.refresh]) {
      const token = await changeLink(a.email, access);
      const res = await post('/auth/confirm-password-change/', {
        token,
        new_password: 'changed123',
        confirm_new_password: 'changed123',
        ...(refresh ? { refresh } : {}),
      });
      expect(res.statusCode).toBe(200);
      // No tokens; the link proved the mailbox, so its browser gets a known-device string.
      expect(Object.keys(res.json()).sort()).toEqual(['detail', 'device']);
      // decisions §13: the change ended every session of a, so its access token is refused at once;
      // a signs in again with the new password for the next round.
      expect((await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).statusCode).toBe(
        401,
      );
      const again = await post('/auth/login-by-email/', { email: a.email, password: 'changed123' });
      expect(again.statusCode).toBe(200);
      access = again.json().access;
    }
    // The other player's session was not touched.
    expect((await refreshWith(b.refresh)).statusCode).toBe(200);
  });

  it('an e-mail change confirmed in the signed-in browser keeps that browser signed in (its session goes on, no new tokens)', async () => {
    const { email, access, refresh } = await registerAndConfirm(t);
    const next = `moved.${email}`;
    expect(
      (await post('/auth/change-email/', { new_email: next, password: 'secret123' }, bearer(access))).statusCode,
    ).toBe(200);
    const token = mailedToken(t, next, 'confirmEmailChange');
    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`,
      headers: bearer(access),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { email: string; access?: string; refresh?: string };
    expect(body.email).toBe(next);
    // decisions §13: the confirming session continues, so the answer carries no tokens and this
    // browser's own pair keeps working.
    expect(body.access).toBeUndefined();
    expect(body.refresh).toBeUndefined();
    expect((await refreshWith(refresh)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).json().email).toBe(
      next,
    );
  });

  it('answers a reset with the address the link proved', async () => {
    const { email } = await registerAndConfirm(t);
    expect((await post('/auth/password-reset/', { email })).statusCode).toBe(200);
    let token = '';
    for (let i = 0; i < 100 && !token; i++) {
      try {
        token = mailedToken(t, email, 'restorePassword');
      } catch {
        await new Promise((r) => setTimeout(r, 20));
      }
    }
    const res = await post('/auth/password-reset-confirm/', { token, new_password: 'brandnew42' });
    expect(res.statusCode).toBe(200);
    expect(res.json().email).toBe(email);
  });
});
