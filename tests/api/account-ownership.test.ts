// Issue 21 (decisions §13): each attack as an attacker ran it against the old server. A stolen
// 15-minute access token must not become lasting access; a confirmation link must not hand an
// account to a stranger; ended sessions are refused at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PrivateKeyAccount } from 'viem/accounts';
import { walletReauthText } from '@shared/wallet-texts';
import {
  API,
  bearer,
  mails,
  mailedToken,
  newWallet,
  otherIp,
  PASSWORD,
  registerAndConfirm,
  signBind,
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

  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: { access?: string; payload?: object; headers?: Record<string, string>; ip?: string } = {},
  ) =>
    t.app.inject({
      method,
      url: `${API}${url}`,
      ...(opts.payload ? { payload: opts.payload } : {}),
      headers: { ...(opts.access ? bearer(opts.access) : {}), ...opts.headers },
      remoteAddress: opts.ip ?? otherIp(),
    });
  const me = (access: string) => call('GET', '/auth/me', { access });
  const signReauth = async (account: PrivateKeyAccount, timestamp = Date.now()) => ({
    address: account.address,
    timestamp,
    signature: await account.signMessage({ message: walletReauthText('PXT Companion', timestamp) }),
  });
  const reauthWithWallet = async (access: string, account: PrivateKeyAccount) => {
    const res = await call('POST', '/auth/reauth/', { access, payload: await signReauth(account) });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { reauth: string }).reauth;
  };

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
        payload: await signReauth(newWallet()),
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

  describe('confirmation links hand no account to a stranger', () => {
    it("a stranger registers the owner's address: the owner's click confirms it without the stranger's password", async () => {
      const email = uniqueEmail('owner');
      const stranger = await call('POST', '/auth/register/', {
        payload: { email, password: 'stranger1', confirm_password: 'stranger1' },
      });
      expect(stranger.statusCode).toBe(201);
      const token = mailedToken(t, email, 'confirmRegistration');
      // The owner opens the mail in their own browser: no X-Registration.
      const opened = await call('GET', `/auth/confirm-email/${token}/`);
      expect(opened.statusCode, opened.body).toBe(200);
      const body = opened.json();
      expect(body.password_set).toBe(false);
      expect(body.password_token).toEqual(expect.any(String));
      expect((await me(body.access)).json().password_set).toBe(false);
      const theirs = await call('POST', '/auth/login-by-email/', { payload: { email, password: 'stranger1' } });
      expect(theirs.statusCode).toBe(400);
      // The owner chooses a password with the token the answer gave.
      const set = await call('POST', '/auth/confirm-password-change/', {
        payload: {
          token: body.password_token,
          new_password: 'owner1234',
          confirm_new_password: 'owner1234',
          refresh: body.refresh,
        },
      });
      expect(set.statusCode, set.body).toBe(200);
      expect(
        (await call('POST', '/auth/login-by-email/', { payload: { email, password: 'owner1234' } })).statusCode,
      ).toBe(200);
    });

    it("the registering browser's X-Registration sets the typed password; a re-registration by a stranger does not", async () => {
      const email = uniqueEmail('pending');
      const mine = (
        await call('POST', '/auth/register/', {
          payload: { email, password: 'mine12345', confirm_password: 'mine12345' },
        })
      ).json();
      const myToken = mailedToken(t, email, 'confirmRegistration');
      const theirs = (
        await call('POST', '/auth/register/', {
          payload: { email, password: 'theirs123', confirm_password: 'theirs123' },
        })
      ).json();
      const theirToken = mailedToken(t, email, 'confirmRegistration');
      expect(theirToken).not.toBe(myToken);
      // The owner opens the newest mail (the stranger's) in their own browser, with their own registration string.
      const opened = await call('GET', `/auth/confirm-email/${theirToken}/`, {
        headers: { 'x-registration': mine.registration },
      });
      expect(opened.statusCode).toBe(200);
      expect(opened.json().password_set).toBe(false);
      expect(
        (await call('POST', '/auth/login-by-email/', { payload: { email, password: 'theirs123' } })).statusCode,
      ).toBe(400);
      expect(theirs.registration).not.toBe(mine.registration);
    });

    it("an address added by a stranger's wallet account: the owner's click changes nothing and signs nobody in", async () => {
      const stranger = await walletLogin(t);
      const email = uniqueEmail('victim');
      const reauth = await reauthWithWallet(stranger.access, stranger.account);
      const added = await call('POST', '/auth/add-email-password/', {
        access: stranger.access,
        payload: { email, password: 'stranger1', confirm_password: 'stranger1', reauth },
      });
      expect(added.statusCode, added.body).toBe(200);
      const token = mailedToken(t, email, 'confirmEmail');
      for (const access of [undefined, (await walletLogin(t)).access]) {
        const opened = await call('GET', `/auth/confirm-email/${token}/`, { access });
        expect(opened.statusCode, opened.body).toBe(403);
        expect(opened.json().code).toBe('wrong_account');
        expect(opened.json().access).toBeUndefined();
      }
      expect((await me(stranger.access)).json().email).toBe('');
      // The account that asked, signed in, confirms it (the link stayed usable).
      const own = await call('GET', `/auth/confirm-email/${token}/`, { access: stranger.access });
      expect(own.statusCode, own.body).toBe(200);
      expect((await me(stranger.access)).json().email).toBe(email);
    });

    it('an e-mail change link works only for the account that asked, signed in', async () => {
      const owner = await registerAndConfirm(t);
      const next = uniqueEmail('moved');
      expect(
        (
          await call('POST', '/auth/change-email/', {
            access: owner.access,
            payload: { new_email: next, password: PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
      const token = mailedToken(t, next, 'confirmEmailChange');
      const stranger = await call('GET', `/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`);
      expect(stranger.statusCode).toBe(403);
      expect(stranger.json().code).toBe('wrong_account');
      expect((await me(owner.access)).json().email).toBe(owner.email);
      const own = await call('GET', `/auth/confirm-email-change/${token}/?email=${encodeURIComponent(next)}`, {
        access: owner.access,
      });
      expect(own.statusCode, own.body).toBe(200);
      expect((await me(owner.access)).json().email).toBe(next);
    });

    it('the undo of an e-mail change also takes back a wallet linked after the change', async () => {
      const owner = await registerAndConfirm(t);
      const stolen = uniqueEmail('thief-box');
      // With the stolen password: move the address, then link the thief's wallet.
      await call('POST', '/auth/change-email/', {
        access: owner.access,
        payload: { new_email: stolen, password: PASSWORD },
      });
      const token = mailedToken(t, stolen, 'confirmEmailChange');
      expect(
        (
          await call('GET', `/auth/confirm-email-change/${token}/?email=${encodeURIComponent(stolen)}`, {
            access: owner.access,
          })
        ).statusCode,
      ).toBe(200);
      const thiefWallet = newWallet();
      expect(
        (
          await call('POST', '/auth/add-wallet/', {
            access: owner.access,
            payload: { ...(await signBind(thiefWallet)), password: PASSWORD },
          })
        ).statusCode,
      ).toBe(200);
      await t.app.afterReplySettled();
      // The owner undoes it from the old mailbox.
      const undo = mailedToken(t, owner.email, 'undoEmailChange');
      expect((await call('POST', '/auth/undo-email-change/', { payload: { token: undo } })).statusCode).toBe(200);
      const theirs = await walletLogin(t, thiefWallet);
      expect((await me(theirs.access)).json().email).toBe('');
    });

    it("an unconfirmed registration never blocks the address's proven owner from adding it", async () => {
      const email = uniqueEmail('squat');
      expect(
        (
          await call('POST', '/auth/register/', {
            payload: { email, password: 'squat1234', confirm_password: 'squat1234' },
          })
        ).statusCode,
      ).toBe(201);
      const owner = await walletLogin(t);
      const reauth = await reauthWithWallet(owner.access, owner.account);
      const added = await call('POST', '/auth/add-email-password/', {
        access: owner.access,
        payload: { email, password: 'owner1234', confirm_password: 'owner1234', reauth },
      });
      expect(added.statusCode, added.body).toBe(200);
      const token = mailedToken(t, email, 'confirmEmail');
      expect((await call('GET', `/auth/confirm-email/${token}/`, { access: owner.access })).statusCode).toBe(200);
      expect((await me(owner.access)).json().email).toBe(email);
      expect(
        (await call('POST', '/auth/login-by-email/', { payload: { email, password: 'owner1234' } })).statusCode,
      ).toBe(200);
    });
  });

  describe('known devices', () => {
    it('five wrong passwords from elsewhere lock the address, but not the owner on a device they used before', async () => {
      const owner = await registerAndConfirm(t);
      for (let i = 0; i < 5; i++)
        expect(
          (await call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: `wrong${i}123` } }))
            .statusCode,
        ).toBe(400);
      expect(
        (await call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: PASSWORD } }))
          .statusCode,
      ).toBe(429);
      const known = await call('POST', '/auth/login-by-email/', {
        payload: { email: owner.email, password: PASSWORD },
        headers: { 'x-device': `junk, ${owner.device}` },
      });
      expect(known.statusCode, known.body).toBe(200);
      expect(known.json().device).toBe(owner.device);
      // A device string of another account (or a forged one) does not open the lane.
      const other = await registerAndConfirm(t);
      const forged = owner.device.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      for (const device of [other.device, forged]) {
        expect(
          (
            await call('POST', '/auth/login-by-email/', {
              payload: { email: owner.email, password: PASSWORD },
              headers: { 'x-device': device },
            })
          ).statusCode,
        ).toBe(429);
      }
    });

    it("mails a notice for a sign-in from a new device, none from a known one, in the player's language", async () => {
      const owner = await registerAndConfirm(t);
      await t.app.afterReplySettled();
      const count = () => mails(t).filter((m) => m.to === owner.email && m.link.hash === '#security').length;
      const before = count();
      await call('POST', '/auth/login-by-email/', {
        payload: { email: owner.email, password: PASSWORD },
        headers: { 'x-device': owner.device },
      });
      await t.app.afterReplySettled();
      expect(count()).toBe(before);
      await call('POST', '/auth/login-by-email/', {
        payload: { email: owner.email, password: PASSWORD },
        headers: {
          'accept-language': 'ru-RU,ru;q=0.9',
          'user-agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/130.0 Mobile Safari/537.36',
        },
      });
      await t.app.afterReplySettled();
      expect(count()).toBe(before + 1);
      const notice = mails(t)
        .filter((m) => m.to === owner.email)
        .at(-1)!;
      expect(notice.text).toContain('Chrome on Android');
      expect(notice.text).toContain('нового устройства');
    });
  });
});
