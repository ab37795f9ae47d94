// The undo of an e-mail change (decisions §13) takes the account back from whoever moved its address
// with a stolen password: every sign-in method as it was before the change. On the old server a
// Telegram the thief linked afterwards survived the undo (the thief signed straight back in), and an
// old wallet the owner had meanwhile signed in with on an account of its own made the undo fail for
// good, saying "another account now uses your old e-mail address". And the thief's browser stayed a
// known device of the account: signing in from it again (the stolen password is back) told nobody.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '../helpers/account-calls';
import {
  mailedToken,
  newWallet,
  noticesTo,
  PASSWORD,
  registerAndConfirm,
  signBind,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { signLoginWidget } from '../helpers/telegram-signing';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

let nextTelegramId = 7_600_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

describe.each(testDialects())('undoing an e-mail change on %s', (dialect) => {
  let t: TestApp;
  let tg: TelegramStandIn;
  beforeAll(async () => {
    tg = await startTelegramStandIn();
    t = await createTestApp(dialect, tg.env);
  });
  afterAll(async () => {
    await t?.close();
    await tg?.close();
  });

  const { call, me } = accountCalls(() => t);
  const methodsOf = async (access: string) =>
    ((await call('GET', '/auth/methods/', { access })).json().methods as { kind: string }[]).map((m) => m.kind);

  /** What a thief with the stolen password does first: moves the address to their own mailbox. */
  async function moveAddress(owner: { access: string }) {
    const stolen = uniqueEmail('thief-box');
    const asked = await call('POST', '/auth/change-email/', {
      access: owner.access,
      payload: { new_email: stolen, password: PASSWORD },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const token = mailedToken(t, stolen, 'confirmEmailChange');
    const moved = await call('GET', `/auth/confirm-email-change/${token}/?email=${encodeURIComponent(stolen)}`, {
      access: owner.access,
    });
    expect(moved.statusCode, moved.body).toBe(200);
  }

  /** The owner's click on the undo link mailed to the old address. */
  async function undo(owner: { email: string }) {
    await t.app.afterReplySettled();
    return call('POST', '/auth/undo-email-change/', {
      payload: { token: mailedToken(t, owner.email, 'undoEmailChange') },
    });
  }

  it("takes back a Telegram the thief linked after the change: the thief's Telegram signs in to no account of the owner's", async () => {
    const owner = await registerAndConfirm(t);
    await moveAddress(owner);
    const thief = { id: ++nextTelegramId, first_name: 'Thief', username: `thief_${nextTelegramId}` };
    const signedAt = Math.floor(Date.now() / 1000);
    const linked = await call('POST', '/auth/telegram/', {
      access: owner.access,
      payload: { login: signLoginWidget(tg.botToken, { user: thief, authDate: signedAt }), password: PASSWORD },
    });
    expect(linked.statusCode, linked.body).toBe(200);

    const undone = await undo(owner);
    expect(undone.statusCode, undone.body).toBe(200);
    const back = await call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: PASSWORD } });
    expect(back.statusCode, back.body).toBe(200);
    expect(await methodsOf(back.json().access)).toEqual(['password']);
    const again = await call('POST', '/auth/telegram/', {
      // Other signed data (a minute older): each hash signs in once.
      payload: { login: signLoginWidget(tg.botToken, { user: thief, authDate: signedAt - 60 }) },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().action).toBe('registered');
    expect((await me(again.json().access)).json().email).toBe('');
  });

  it("keeps the owner's own Telegram, and succeeds when the owner has since signed in with the removed wallet", async () => {
    const owner = await registerAndConfirm(t);
    const mine = { id: ++nextTelegramId, first_name: 'Owner', username: `owner_${nextTelegramId}` };
    expect(
      (
        await call('POST', '/auth/telegram/', {
          access: owner.access,
          payload: { login: signLoginWidget(tg.botToken, { user: mine }), password: PASSWORD },
        })
      ).statusCode,
    ).toBe(200);
    const wallet = newWallet();
    const added = await call('POST', '/auth/add-wallet/', {
      access: owner.access,
      payload: { ...(await signBind(wallet)), password: PASSWORD },
    });
    expect(added.statusCode, added.body).toBe(200);
    await moveAddress(owner);
    // The thief removes the owner's wallet; locked out, the owner signs in with it: a new account.
    const removed = await call('DELETE', '/auth/methods/wallet/', {
      access: owner.access,
      payload: { password: PASSWORD },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const byWallet = await walletLogin(t, wallet);

    const undone = await undo(owner);
    expect(undone.statusCode, undone.body).toBe(200);
    const back = await call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: PASSWORD } });
    expect(back.statusCode, back.body).toBe(200);
    expect((await methodsOf(back.json().access)).sort()).toEqual(['password', 'telegram']);
    // The wallet stays with the account the owner signed in to with it.
    expect(await methodsOf(byWallet.access)).toEqual(['wallet']);
  });

  it("forgets the thief's known-device string: signing in again from it is mailed to the owner as a new device", async () => {
    const owner = await registerAndConfirm(t);
    // The thief signs in with the stolen password in their own browser first.
    const thiefs = await call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: PASSWORD } });
    expect(thiefs.statusCode, thiefs.body).toBe(200);
    await moveAddress({ access: thiefs.json().access });
    expect((await undo(owner)).statusCode).toBe(200);
    await t.app.afterReplySettled();
    const newDevice = () => noticesTo(t, owner.email).filter((m) => /new device/.test(m.subject)).length;
    const before = newDevice();
    const again = await call('POST', '/auth/login-by-email/', {
      payload: { email: owner.email, password: PASSWORD },
      headers: { 'x-device': thiefs.json().device },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().device).not.toBe(thiefs.json().device);
    await t.app.afterReplySettled();
    expect(newDevice()).toBe(before + 1);
  });
});
