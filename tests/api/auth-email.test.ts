import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_IN_USE } from '@shared/api/auth';
import { hashToken } from '../../server/services/action-tokens';
import {
  API,
  bearer,
  isAccountNotice,
  lastMailTo,
  mailedToken,
  mails,
  otherIp,
  PASSWORD,
  reauthFor,
  registerAndConfirm,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('e-mail accounts on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  // Each call comes from its own IP: these tests are about the flows, not the per-IP limits.
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers, remoteAddress: otherIp() });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}${url}`, headers, remoteAddress: otherIp() });
  const register = (email: string, password = PASSWORD) =>
    post('/auth/register/', { email, password, confirm_password: password });
  const login = (email: string, password = PASSWORD) => post('/auth/login-by-email/', { email, password });
  const expireTokensOf = async (email: string) => {
    const user = await t.app.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('action_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', user.id)
      .execute();
  };

  describe('registration and confirmation', () => {
    it('stores the address trimmed and lower-cased, mails a confirmRegistration link, and the link gives tokens once', async () => {
      const email = uniqueEmail('Mixed');
      const res = await register(`  ${email.toUpperCase()} `);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ email: email.toLowerCase() });
      const token = mailedToken(t, email.toLowerCase(), 'confirmRegistration');

      const stored = await t.app.db
        .selectFrom('action_tokens')
        .select('token_hash')
        .where('token_hash', '=', hashToken(token))
        .executeTakeFirst();
      expect(stored).toBeDefined();
      expect(
        await t.app.db.selectFrom('action_tokens').select('id').where('token_hash', '=', token).executeTakeFirst(),
      ).toBeUndefined();

      // Opened in the registering browser (decisions §13: it sends back the answer's registration string).
      const registration = { 'x-registration': res.json().registration as string };
      const first = await get(`/auth/confirm-email/${token}/`, registration);
      expect(first.statusCode).toBe(200);
      expect(Object.keys(first.json()).sort()).toEqual(['access', 'detail', 'device', 'password_set', 'refresh']);
      expect(first.json().password_set).toBe(true);
      const again = await get(`/auth/confirm-email/${token}/`, registration);
      expect(again.statusCode).toBe(400);
      expect(again.json()).toMatchObject({ code: 'invalid_token' });

      const me = await get('/auth/me', bearer(first.json().access));
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ email: email.toLowerCase(), password_set: true, wallet_address: '' });
    });

    it('confirms the address but sets no password when the link is opened in another browser; its password_token sets one', async () => {
      const email = uniqueEmail('elsewhere');
      expect((await register(email)).statusCode).toBe(201);
      const opened = await get(`/auth/confirm-email/${mailedToken(t, email, 'confirmRegistration')}/`);
      expect(opened.statusCode).toBe(200);
      expect(opened.json()).toMatchObject({
        password_set: false,
        password_token: expect.any(String),
        access: expect.any(String),
        refresh: expect.any(String),
      });
      expect((await get('/auth/me', bearer(opened.json().access))).json()).toMatchObject({
        email,
        password_set: false,
      });
      expect((await login(email)).json().code).toBe('invalid_credentials');
      const chosen = await post('/auth/confirm-password-change/', {
        token: opened.json().password_token,
        new_password: 'chosen123',
        confirm_new_password: 'chosen123',
      });
      expect(chosen.statusCode).toBe(200);
      expect((await login(email, 'chosen123')).statusCode).toBe(200);
    });

    it('refuses e-mail login before confirmation with email_not_confirmed, and a wrong password with invalid_credentials', async () => {
      const email = uniqueEmail();
      await register(email);
      const early = await login(email);
      expect(early.statusCode).toBe(400);
      expect(early.json()).toMatchObject({ code: 'email_not_confirmed' });
      expect(early.json().detail).toMatch(/not confirmed/);
      const wrong = await login(email, 'wrongpass1');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('invalid_credentials');
    });

    it('answers a confirmed address like a new one and mails its owner a notice, no link (issue 21)', async () => {
      const { email } = await registerAndConfirm(t);
      const before = mails(t).length;
      const res = await register(email.toUpperCase());
      expect(res.statusCode).toBe(201);
      // Like a new address's answer, with a registration string too (decisions §13), so it tells nothing.
      expect(res.json()).toEqual({
        detail: 'We have sent a confirmation link to your e-mail.',
        email,
        registration: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      });
      // registerAndConfirm's sign-in may mail its new-device notice (decisions §13) after `before`.
      const sent = mails(t)
        .slice(before)
        .filter((m) => !isAccountNotice(m));
      expect(sent.map((m) => m.to)).toEqual([email]);
      expect(sent[0].text).toMatch(/tried to register/);
      expect(sent[0].link.searchParams.get('token')).toBeNull();
    });

    it('applies the spec field rules with field errors', async () => {
      const badEmail = await post('/auth/register/', {
        email: 'not-an-email',
        password: PASSWORD,
        confirm_password: PASSWORD,
      });
      expect(badEmail.statusCode).toBe(400);
      expect(badEmail.json().errors).toContainEqual({ field: 'email', message: 'Enter a valid email' });
      const weak = await post('/auth/register/', {
        email: uniqueEmail(),
        password: 'onlyletters',
        confirm_password: 'onlyletters',
      });
      expect(weak.json().errors).toContainEqual({
        field: 'password',
        message: 'Use 8 or more characters mixing letters and numbers',
      });
      const mismatch = await post('/auth/register/', {
        email: uniqueEmail(),
        password: PASSWORD,
        confirm_password: 'other1234',
      });
      expect(mismatch.statusCode).toBe(400);
      expect(mismatch.json().errors).toContainEqual({ field: 'confirm_password', message: 'Passwords do not match' });
      expect(mismatch.json().code).toBe('invalid');
    });

    it('refuses an expired confirmation link', async () => {
      const email = uniqueEmail();
      await register(email);
      const token = mailedToken(t, email, 'confirmRegistration');
      await expireTokensOf(email);
      const res = await get(`/auth/confirm-email/${token}/`);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_token');
    });

    it('lets only one of two simultaneous uses of a link through', async () => {
      const email = uniqueEmail();
      await register(email);
      const token = mailedToken(t, email, 'confirmRegistration');
      const results = await Promise.all([1, 2, 3].map(() => get(`/auth/confirm-email/${token}/`)));
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400, 400]);
      expect(
        await t.app.db
          .selectFrom('refresh_tokens')
          .innerJoin('users', 'users.id', 'refresh_tokens.user_id')
          .select('refresh_tokens.id')
          .where('users.email', '=', email)
          .execute(),
      ).toHaveLength(1);
    });

    it('creates one account when the same address registers twice at once', async () => {
      const email = uniqueEmail();
      const results = await Promise.all([register(email), register(email)]);
      expect(results.map((r) => r.statusCode)).toEqual([201, 201]);
      expect(await t.app.db.selectFrom('users').select('id').where('email', '=', email).execute()).toHaveLength(1);
    });
  });

  describe('login, refresh and logout', () => {
    it('logs in by e-mail in any case, refreshes without rotation, and a revoked refresh token is refused', async () => {
      const { email } = await registerAndConfirm(t);
      const res = await login(`  ${email.toUpperCase()}`);
      expect(res.statusCode).toBe(200);
      const { access, refresh } = res.json();
      expect((await get('/auth/me', bearer(access))).statusCode).toBe(200);

      const refreshed = await post('/auth/refresh/', { refresh });
      expect(refreshed.statusCode).toBe(200);
      expect(Object.keys(refreshed.json())).toEqual(['access']);
      expect((await get('/auth/me', bearer(refreshed.json().access))).json().email).toBe(email);
      expect((await post('/auth/refresh/', { refresh })).statusCode).toBe(200);

      const out = await post('/auth/logout/', { refresh });
      expect(out.statusCode).toBe(200);
      const after = await post('/auth/refresh/', { refresh });
      expect(after.statusCode).toBe(401);
      expect(after.json().code).toBe('token_not_valid');
      expect((await post('/auth/logout/', { refresh })).statusCode).toBe(200);
    });

    it('refuses unknown and expired refresh tokens', async () => {
      expect((await post('/auth/refresh/', { refresh: 'nonsense' })).statusCode).toBe(401);
      expect((await post('/auth/logout/', { refresh: 'nonsense' })).statusCode).toBe(401);
      const { refresh } = await registerAndConfirm(t);
      await t.app.db
        .updateTable('refresh_tokens')
        .set({ expires_at: Date.now() - 1 })
        .where('token_hash', '=', hashToken(refresh))
        .execute();
      expect((await post('/auth/refresh/', { refresh })).statusCode).toBe(401);
    });

    it('refuses an unknown address like a wrong password', async () => {
      const res = await login(uniqueEmail('nobody'));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('invalid_credentials');
    });

    it('upgrades a hash made with older scrypt parameters at the next login', async () => {
      const { email } = await registerAndConfirm(t);
      const { hashPassword } = await import('../../server/services/passwords');
      await t.app.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(PASSWORD, 10) })
        .where('email', '=', email)
        .execute();
      expect((await login(email)).statusCode).toBe(200);
      const row = await t.app.db
        .selectFrom('users')
        .select('password_hash')
        .where('email', '=', email)
        .executeTakeFirstOrThrow();
      expect(row.password_hash).toMatch(/^scrypt\$14\$8\$1\$/);
      expect((await login(email)).statusCode).toBe(200);
    });
  });

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
      expect(confirmed.json()).toEqual({ detail: expect.any(String), password_set: true });
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
