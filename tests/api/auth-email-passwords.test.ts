// The e-mail account flows after sign-up (tests/api/auth-email.test.ts has registration and sign-in):
// password reset, password change, e-mail change, and an e-mail and password added to a wallet account.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_IN_USE } from '@shared/api/auth';
import {
  bearer,
  lastMailTo,
  mailedToken,
  mails,
  PASSWORD,
  reauthFor,
  registerAndConfirm,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { emailCalls } from '../helpers/account-calls';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('e-mail accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const { post, get, register, login, expireTokensOf } = emailCalls(() => t);

  describe('password reset', () => {
    it('answers unknown addresses exactly like known ones, and mails only the known', async () => {
      const { email } = await registerAndConfirm(t);
      const unknown = uniqueEmail('ghost');
      const a = await post('/auth/password-reset/', { email: unknown });
      const b = await post('/auth/password-reset/', { email });
      expect(a.statusCode).toBe(200);
      expect(b.statusCode).toBe(200);
      expect(a.json()).toEqual(b.json());
      expect(mails(t).some((m) => m.to === unknown)).toBe(false);
      mailedToken(t, email, 'restorePassword');
    });

    it('sets the new password once, revokes every refresh token, and refuses reuse and weak passwords', async () => {
      const { email, refresh } = await registerAndConfirm(t);
      const second = (await login(email)).json().refresh;
      await post('/auth/password-reset/', { email });
      const token = mailedToken(t, email, 'restorePassword');

      const weak = await post('/auth/password-reset-confirm/', { token, new_password: 'short1' });
      expect(weak.statusCode).toBe(400);
      expect(weak.json().errors[0].field).toBe('new_password');

      const ok = await post('/auth/password-reset-confirm/', { token, new_password: 'brandnew42' });
      expect(ok.statusCode).toBe(200);
      expect((await post('/auth/refresh/', { refresh })).statusCode).toBe(401);
      expect((await post('/auth/refresh/', { refresh: second })).statusCode).toBe(401);
      expect((await login(email)).statusCode).toBe(400);
      expect((await login(email, 'brandnew42')).statusCode).toBe(200);

      const reuse = await post('/auth/password-reset-confirm/', { token, new_password: 'another42' });
      expect(reuse.statusCode).toBe(400);
      expect(reuse.json().code).toBe('invalid_token');
    });

    it('refuses an expired reset link', async () => {
      const { email } = await registerAndConfirm(t);
      await post('/auth/password-reset/', { email });
      const token = mailedToken(t, email, 'restorePassword');
      await expireTokensOf(email);
      expect((await post('/auth/password-reset-confirm/', { token, new_password: 'brandnew42' })).json().code).toBe(
        'invalid_token',
      );
      expect((await login(email)).statusCode).toBe(200);
    });

    it('confirms a never-confirmed address, since the link proved the mailbox', async () => {
      const email = uniqueEmail();
      await register(email);
      await post('/auth/password-reset/', { email });
      const token = mailedToken(t, email, 'restorePassword');
      expect((await post('/auth/password-reset-confirm/', { token, new_password: 'brandnew42' })).statusCode).toBe(200);
      expect((await login(email, 'brandnew42')).statusCode).toBe(200);
    });
  });

  describe('password change', () => {
    it('mails a confirmPasswordChange link; the confirmation checks the match, sets the password and revokes refresh tokens', async () => {
      const { email, access, refresh } = await registerAndConfirm(t);
      expect((await get('/auth/change-password-request/')).statusCode).toBe(401);
      const req = await get('/auth/change-password-request/', bearer(access));
      expect(req.statusCode).toBe(200);
      const token = mailedToken(t, email, 'confirmPasswordChange');

      const mismatch = await post('/auth/confirm-password-change/', {
        token,
        new_password: 'changed123',
        confirm_new_password: 'changed124',
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().errors).toContainEqual({
        field: 'confirm_new_password',
        message: 'Passwords do not match',
      });

      const ok = await post('/auth/confirm-password-change/', {
        token,
        new_password: 'changed123',
        confirm_new_password: 'changed123',
      });
      expect(ok.statusCode).toBe(200);
      expect((await post('/auth/refresh/', { refresh })).statusCode).toBe(401);
      expect((await login(email, 'changed123')).statusCode).toBe(200);
      expect(
        (
          await post('/auth/confirm-password-change/', {
            token,
            new_password: 'again1234',
            confirm_new_password: 'again1234',
          })
        ).statusCode,
      ).toBe(400);
    });

    it('refuses the request for an account without an e-mail', async () => {
      const { access } = await walletLogin(t);
      const res = await get('/auth/change-password-request/', bearer(access));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('no_email');
    });
  });

  describe('e-mail change', () => {
    it('mails the new address a confirmEmailChange link carrying the address, and applies it once', async () => {
      const { email, access } = await registerAndConfirm(t);
      const next = uniqueEmail('next');
      const res = await post(
        '/auth/change-email/',
        { new_email: next.toUpperCase(), password: PASSWORD },
        bearer(access),
      );
      expect(res.statusCode).toBe(200);
      const { link } = lastMailTo(t, next);
      expect(link.searchParams.get('modal')).toBe('confirmEmailChange');
      expect(link.searchParams.get('email')).toBe(next);
      const token = link.searchParams.get('token')!;

      const wrongEmail = await get(
        `/auth/confirm-email-change/${token}/?email=${encodeURIComponent(uniqueEmail('other'))}`,
        bearer(access),
      );
      expect(wrongEmail.statusCode).toBe(400);
      // decisions §13: only the account that asked, signed in, confirms it; signed out it changes nothing.
      const signedOut = await get(`/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`);
      expect(signedOut.statusCode).toBe(403);
      expect(signedOut.json().code).toBe('wrong_account');
      expect((await get('/auth/me', bearer(access))).json().email).toBe(email);
      const ok = await get(`/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`, bearer(access));
      expect(ok.statusCode).toBe(200);
      expect(ok.json().email).toBe(next);
      expect((await get('/auth/me', bearer(access))).json().email).toBe(next);
      expect((await login(next)).statusCode).toBe(200);
      expect((await login(email)).statusCode).toBe(400);
      expect(
        (await get(`/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`, bearer(access)))
          .statusCode,
      ).toBe(400);
    });

    it('refuses an address in use, the current address, and a missing email query', async () => {
      const a = await registerAndConfirm(t);
      const b = await registerAndConfirm(t);
      // An address in use is answered like a free one (issue 21); its holder gets a notice, and nothing changes.
      const taken = await post('/auth/change-email/', { new_email: b.email, password: PASSWORD }, bearer(a.access));
      expect(taken.statusCode).toBe(200);
      expect(taken.json()).toEqual({ detail: 'We have sent a confirmation link to your new e-mail.' });
      expect(lastMailTo(t, b.email).link.searchParams.get('token')).toBeNull();
      expect((await get('/auth/me', bearer(a.access))).json().email).toBe(a.email);
      expect(
        (await post('/auth/change-email/', { new_email: a.email, password: PASSWORD }, bearer(a.access))).json().code,
      ).toBe('same_email');
      expect((await get('/auth/confirm-email-change/abc/')).statusCode).toBe(400);
    });

    it('refuses the change when another account took the address after the mail', async () => {
      const a = await registerAndConfirm(t);
      const next = uniqueEmail('race');
      await post('/auth/change-email/', { new_email: next, password: PASSWORD }, bearer(a.access));
      const token = mailedToken(t, next, 'confirmEmailChange');
      await registerAndConfirm(t, next);
      const res = await get(`/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`, bearer(a.access));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(EMAIL_IN_USE);
      expect((await get('/auth/me', bearer(a.access))).json().email).toBe(a.email);
    });
  });

  describe('adding an e-mail and password to a wallet account', () => {
    it('mails a confirmEmail link; confirming in the signed-in session sets both (no new tokens)', async () => {
      const { access, account } = await walletLogin(t);
      const email = uniqueEmail('wallet');
      const before = (await get('/auth/me', bearer(access))).json();
      expect(before).toMatchObject({ email: '', password_set: false });

      // decisions §13: without proof 403 reauth_required; the wallet's reauth signature is the proof.
      const bare = await post(
        '/auth/add-email-password/',
        { email, password: PASSWORD, confirm_password: PASSWORD },
        bearer(access),
      );
      expect(bare.statusCode).toBe(403);
      expect(bare.json().code).toBe('reauth_required');
      const reauth = await reauthFor(t, access, account);
      const res = await post(
        '/auth/add-email-password/',
        { email, password: PASSWORD, confirm_password: PASSWORD, reauth },
        bearer(access),
      );
      expect(res.statusCode).toBe(200);
      // Nothing changes before the address is proven.
      expect((await get('/auth/me', bearer(access))).json()).toMatchObject({ email: '', password_set: false });
      const token = mailedToken(t, email, 'confirmEmail');
      // Only that account, signed in, confirms it: opened signed out or by another player nothing changes.
      const stranger = await registerAndConfirm(t);
      for (const headers of [{}, bearer(stranger.access)]) {
        const refused = await get(`/auth/confirm-email/${token}/`, headers);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().code).toBe('wrong_account');
      }
      expect((await get('/auth/me', bearer(access))).json()).toMatchObject({ email: '', password_set: false });
      const confirmed = await get(`/auth/confirm-email/${token}/`, bearer(access));
      expect(confirmed.statusCode).toBe(200);
      // No tokens: only a known-device string of the account's new generation (a password was set).
      expect(confirmed.json()).toEqual({ detail: expect.any(String), password_set: true, device: expect.any(String) });
      expect((await get('/auth/me', bearer(access))).json()).toMatchObject({ email, password_set: true });
      expect((await login(email)).statusCode).toBe(200);
      expect((await get(`/auth/confirm-email/${token}/`, bearer(access))).statusCode).toBe(400);

      const twice = await post(
        '/auth/add-email-password/',
        { email: uniqueEmail(), password: PASSWORD, confirm_password: PASSWORD },
        bearer(access),
      );
      expect(twice.statusCode).toBe(400);
      expect(twice.json().code).toBe('email_already_set');
    });

    it('refuses an address in use with the spec text and a field error on email', async () => {
      const { email } = await registerAndConfirm(t);
      const { access, account } = await walletLogin(t);
      const reauth = await reauthFor(t, access, account);
      const res = await post(
        '/auth/add-email-password/',
        { email, password: PASSWORD, confirm_password: PASSWORD, reauth },
        bearer(access),
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        detail: EMAIL_IN_USE,
        code: 'email_in_use',
        errors: [{ field: 'email', message: EMAIL_IN_USE }],
      });
    });

    it('refuses the confirmation when the address was taken meanwhile', async () => {
      const { access, account } = await walletLogin(t);
      const email = uniqueEmail('late');
      const reauth = await reauthFor(t, access, account);
      expect(
        (
          await post(
            '/auth/add-email-password/',
            { email, password: PASSWORD, confirm_password: PASSWORD, reauth },
            bearer(access),
          )
        ).statusCode,
      ).toBe(200);
      const token = mailedToken(t, email, 'confirmEmail');
      await registerAndConfirm(t, email);
      const res = await get(`/auth/confirm-email/${token}/`, bearer(access));
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toBe(EMAIL_IN_USE);
    });

    it('needs a signed-in player', async () => {
      const res = await post('/auth/add-email-password/', {
        email: uniqueEmail(),
        password: PASSWORD,
        confirm_password: PASSWORD,
      });
      expect(res.statusCode).toBe(401);
      expect((await get('/auth/me', bearer(t.app.issueAccess(987654321, 1)))).statusCode).toBe(401);
    });
  });
});
