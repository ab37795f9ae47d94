// E-mail accounts: registration and its confirmation link, then sign-in, refresh and sign-out
// (tests/api/auth-email-passwords.test.ts has the password and e-mail flows after sign-up).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/services/action-tokens';
import {
  bearer,
  isAccountNotice,
  mailedToken,
  mails,
  PASSWORD,
  registerAndConfirm,
  uniqueEmail,
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
});
