// Issue 21 (decisions §13): a confirmation link must never hand an account to a stranger, and the
// owner on a device they used before is neither locked out nor queued out; notices of new devices.
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
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('confirmation links and known devices on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const { call, me } = accountCalls(() => t);
  const reauthWithWallet = (access: string, account: Parameters<typeof reauthFor>[2]) => reauthFor(t, access, account);

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

    it('"send again" keeps the first link good: opened with both registration strings it sets the typed password', async () => {
      const email = uniqueEmail('again');
      const register = async () =>
        (
          await call('POST', '/auth/register/', {
            payload: { email, password: 'mine12345', confirm_password: 'mine12345' },
          })
        ).json().registration as string;
      const first = await register();
      const firstLink = mailedToken(t, email, 'confirmRegistration');
      const second = await register();
      // The browser sends what it keeps, newest first; the first mail is the one opened.
      const opened = await call('GET', `/auth/confirm-email/${firstLink}/`, {
        headers: { 'x-registration': `${second},${first}` },
      });
      expect(opened.statusCode, opened.body).toBe(200);
      expect(opened.json().password_set).toBe(true);
      expect(
        (await call('POST', '/auth/login-by-email/', { payload: { email, password: 'mine12345' } })).statusCode,
      ).toBe(200);
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
