// Issue 21 (decisions §13): each attack as an attacker ran it against the old server. A stolen
// 15-minute access token must not become lasting access, and ended sessions are refused at once.
// (Confirmation links and known devices: account-links.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '../helpers/account-calls';
import {
  mails,
  mailedToken,
  newWallet,
  PASSWORD,
  reauthFor,
  registerAndConfirm,
  signBind,
  signReauth,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('account ownership on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const { call, me } = accountCalls(() => t);
  const reauthWithWallet = (access: string, account: Parameters<typeof reauthFor>[2]) => reauthFor(t, access, account);

  describe('a stolen access token changes no sign-in method', () => {
    it("add-wallet on an e-mail account needs the password: without it 403 reauth_required, the attacker's wallet is not bound", async () => {
      const owner = await registerAndConfirm(t);
      const attacker = newWallet();
      const res = await call('POST', '/auth/add-wallet/', { access: owner.access, payload: await signBind(attacker) });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().code).toBe('reauth_required');
      expect((await me(owner.access)).json().wallet_address).toBe('');
      // The attacker's wallet signs in as a new, empty account, not as the owner.
      const theirs = await walletLogin(t, attacker);
      expect((await me(theirs.access)).json().email).toBe('');
      // With the owner's password the same call binds it.
      const ok = await call('POST', '/auth/add-wallet/', {
        access: owner.access,
        payload: { ...(await signBind(newWallet())), password: PASSWORD },
      });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('add-email-password on a wallet account needs a reauth from the wallet; a wrong or reused one is refused', async () => {
      const owner = await walletLogin(t);
      const email = uniqueEmail('thief');
      const body = { email, password: 'thief1234', confirm_password: 'thief1234' };
      const bare = await call('POST', '/auth/add-email-password/', { access: owner.access, payload: body });
      expect(bare.statusCode, bare.body).toBe(403);
      expect(bare.json().code).toBe('reauth_required');
      expect(mails(t).some((m) => m.to === email)).toBe(false);
      // Another wallet's signature is no proof for this account.
      const other = await call('POST', '/auth/reauth/', {
        access: owner.access,
        payload: await signReauth(newWallet(), 'PXT Companion'),
      });
      expect(other.statusCode).toBe(400);
      const reauth = await reauthWithWallet(owner.access, owner.account);
      const ok = await call('POST', '/auth/add-email-password/', {
        access: owner.access,
        payload: { ...body, reauth },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      // Single use.
      const again = await call('POST', '/auth/add-email-password/', {
        access: owner.access,
        payload: { ...body, reauth },
      });
      expect(again.statusCode).toBe(403);
    });

    it('change-email needs proof: a wallet account without a reauth gets 403, a password account without its password 403', async () => {
      const wallet = await walletLogin(t);
      const res = await call('POST', '/auth/change-email/', {
        access: wallet.access,
        payload: { new_email: uniqueEmail() },
      });
      expect(res.statusCode).toBe(403);
      const owner = await registerAndConfirm(t);
      const res2 = await call('POST', '/auth/change-email/', {
        access: owner.access,
        payload: { new_email: uniqueEmail() },
      });
      expect(res2.statusCode).toBe(403);
      expect(res2.json().code).toBe('reauth_required');
      const wrong = await call('POST', '/auth/change-email/', {
        access: owner.access,
        payload: { new_email: uniqueEmail(), password: 'nope12345' },
      });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().code).toBe('invalid_password');
    });

    it("a method added by an attacker can be removed with proof, ending the attacker's sessions; the last method never", async () => {
      const owner = await registerAndConfirm(t);
      const attacker = newWallet();
      await call('POST', '/auth/add-wallet/', {
        access: owner.access,
        payload: { ...(await signBind(attacker)), password: PASSWORD },
      });
      const theirs = await walletLogin(t, attacker);
      expect((await me(theirs.access)).json().email).toBe(owner.email);

      const list = await call('GET', '/auth/methods/', { access: owner.access });
      expect(
        list
          .json()
          .methods.map((m: { kind: string }) => m.kind)
          .sort(),
      ).toEqual(['password', 'wallet']);
      expect((await call('DELETE', '/auth/methods/wallet/', { access: owner.access })).statusCode).toBe(403);
      const removed = await call('DELETE', '/auth/methods/wallet/', {
        access: owner.access,
        payload: { password: PASSWORD },
      });
      expect(removed.statusCode, removed.body).toBe(200);
      // The attacker's session ended at once; their wallet no longer reaches the account.
      expect((await me(theirs.access)).statusCode).toBe(401);
      expect((await call('POST', '/auth/refresh/', { payload: { refresh: theirs.refresh } })).statusCode).toBe(401);
      expect((await me((await walletLogin(t, attacker)).access)).json().email).toBe('');
      // The owner's own session goes on; the password is the last method and stays.
      expect((await me(owner.access)).statusCode).toBe(200);
      const last = await call('DELETE', '/auth/methods/password/', {
        access: owner.access,
        payload: { password: PASSWORD },
      });
      expect(last.statusCode).toBe(400);
      expect(last.json().code).toBe('last_method');
    });
  });

  it('two removals at once never leave an account without a way to sign in', async () => {
    const owner = await registerAndConfirm(t);
    const wallet = newWallet();
    const added = await call('POST', '/auth/add-wallet/', {
      access: owner.access,
      payload: { ...(await signBind(wallet)), password: PASSWORD },
    });
    expect(added.statusCode, added.body).toBe(200);
    const answers = await Promise.all(
      (['wallet', 'password'] as const).map((kind) =>
        call('DELETE', `/auth/methods/${kind}/`, { access: owner.access, payload: { password: PASSWORD } }),
      ),
    );
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses, answers.map((a) => a.body).join(' ')).toEqual([200, 400]);
    // The later one finds the other method gone (`last_method`), or, when the password went first,
    // its own proof no longer the account's password (`invalid_password`, password-in-flight.test.ts).
    expect(['last_method', 'invalid_password']).toContain(answers.find((a) => a.statusCode === 400)!.json().code);
    const { sub } = JSON.parse(Buffer.from(owner.access.split('.')[1], 'base64url').toString()) as { sub: number };
    const row = await t.app.db
      .selectFrom('users')
      .select(['wallet_address', 'password_hash'])
      .where('id', '=', sub)
      .executeTakeFirstOrThrow();
    expect([row.wallet_address, row.password_hash].filter((v) => v !== null)).toHaveLength(1);
  });

  describe('sessions end at once', () => {
    it("logout, logout-all and ending a session refuse that session's access token at once, on the next call", async () => {
      const owner = await registerAndConfirm(t);
      const login = async () =>
        (
          await call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: PASSWORD } })
        ).json() as { access: string; refresh: string };
      const second = await login();
      const third = await login();

      expect(
        (await call('POST', '/auth/logout/', { access: second.access, payload: { refresh: second.refresh } }))
          .statusCode,
      ).toBe(200);
      // /auth/me checks the session in its own query; every other call in the auth hook.
      expect((await me(second.access)).statusCode).toBe(401);
      expect((await call('GET', '/auth/sessions/', { access: second.access })).statusCode).toBe(401);
      expect((await call('GET', '/mining/sessions/', { access: second.access })).statusCode).toBe(401);

      const listed = (await call('GET', '/auth/sessions/', { access: owner.access })).json().sessions as {
        id: number;
        current: boolean;
      }[];
      expect(listed.filter((s) => s.current)).toHaveLength(1);
      expect(listed).toHaveLength(2);
      const other = listed.find((s) => !s.current)!;
      expect((await call('DELETE', `/auth/sessions/${other.id}/`, { access: owner.access })).statusCode).toBe(200);
      expect((await me(third.access)).statusCode).toBe(401);
      expect((await call('POST', '/auth/refresh/', { payload: { refresh: third.refresh } })).statusCode).toBe(401);
      // Another player's session id is not found.
      const stranger = await walletLogin(t);
      const theirs = (await call('GET', '/auth/sessions/', { access: stranger.access })).json().sessions[0].id;
      expect((await call('DELETE', `/auth/sessions/${theirs}/`, { access: owner.access })).statusCode).toBe(404);
      expect((await me(stranger.access)).statusCode).toBe(200);

      const fourth = await login();
      expect((await call('POST', '/auth/logout-all/', { access: owner.access })).statusCode).toBe(200);
      expect((await me(fourth.access)).statusCode).toBe(401);
      expect((await me(owner.access)).statusCode).toBe(200);
    });

    it("another player's session id is not found and ends nothing of theirs: their refresh token still works", async () => {
      const victim = await walletLogin(t);
      const attacker = await walletLogin(t);
      const theirs = (await call('GET', '/auth/sessions/', { access: victim.access })).json().sessions[0].id as number;
      // Session ids are sequential: an attacker could walk them all.
      const del = await call('DELETE', `/auth/sessions/${theirs}/`, { access: attacker.access });
      expect(del.statusCode).toBe(404);
      expect(del.json()).toMatchObject({ code: 'session_not_found' });
      const renewed = await call('POST', '/auth/refresh/', { payload: { refresh: victim.refresh } });
      expect(renewed.statusCode, renewed.body).toBe(200);
      const listed = (await call('GET', '/auth/sessions/', { access: victim.access })).json().sessions as {
        id: number;
      }[];
      expect(listed.map((s) => s.id)).toContain(theirs);
    });

    it("a password reset refuses every other session's access token at once", async () => {
      const owner = await registerAndConfirm(t);
      expect((await call('POST', '/auth/password-reset/', { payload: { email: owner.email } })).statusCode).toBe(200);
      await t.app.afterReplySettled();
      const token = mailedToken(t, owner.email, 'restorePassword');
      const done = await call('POST', '/auth/password-reset-confirm/', {
        payload: { token, new_password: 'another123' },
      });
      expect(done.statusCode, done.body).toBe(200);
      expect((await me(owner.access)).statusCode).toBe(401);
    });
  });
});
