// Signing every other browser out forgets their known-device strings too (decisions §13,
// docs/choices.md). On the old server "Sign out everywhere else", removing a sign-in method and
// confirming an e-mail change ended the other sessions but left their device strings valid: whoever
// had signed in with a phished password, and was signed out, signed in again as a known device
// (no new-device mail to the owner, and an attempt lane of their own past the address's lock).
// The browser that asked stays the account's own: the answer carries it a string of the new
// generation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls, deviceProbes } from '../helpers/account-calls';
import { mailedToken, newWallet, PASSWORD, registerAndConfirm, signBind, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('known devices after every other browser is signed out, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const { call } = accountCalls(() => t);
  const probes = deviceProbes(() => t);
  const { newDeviceNotices, lockAddress } = probes;
  const signInFrom = (email: string, device: string) => probes.signInFrom(email, PASSWORD, device);

  /** The owner, and a stranger who signed in with the phished password and holds a device string. */
  async function ownerAndStranger() {
    const owner = await registerAndConfirm(t);
    const stranger = await signInFrom(owner.email, '');
    expect(stranger.statusCode, stranger.body).toBe(200);
    return { owner, strangerDevice: stranger.json().device as string };
  }

  /**
   * After the owner's change (its answer's device string in `mine`), the stranger's string is a new
   * device's: their sign-in mails the owner and hands a new string, and once the address is locked
   * it gets no lane of its own, while the owner's browser keeps one.
   */
  async function strangerIsNewAgain(email: string, strangerDevice: string, mine: unknown) {
    expect(mine).toEqual(expect.any(String));
    expect(mine).not.toBe(strangerDevice);
    const before = await newDeviceNotices(email);
    const back = await signInFrom(email, strangerDevice);
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().device).not.toBe(strangerDevice);
    expect(await newDeviceNotices(email)).toBe(before + 1);
    // The owner's browser signs in as known: the same string back, no mail.
    const own = await signInFrom(email, mine as string);
    expect(own.json().device).toBe(mine);
    expect(await newDeviceNotices(email)).toBe(before + 1);

    await lockAddress(email);
    expect((await signInFrom(email, strangerDevice)).statusCode).toBe(429);
    expect((await signInFrom(email, mine as string)).statusCode).toBe(200);
  }

  it('"sign out everywhere else" forgets the other browsers\' device strings', async () => {
    const { owner, strangerDevice } = await ownerAndStranger();
    const out = await call('POST', '/auth/logout-all/', {
      access: owner.access,
      headers: { 'x-device': owner.device },
    });
    expect(out.statusCode, out.body).toBe(200);
    await strangerIsNewAgain(owner.email, strangerDevice, out.json().device);
  });

  it('removing a sign-in method forgets them', async () => {
    const { owner, strangerDevice } = await ownerAndStranger();
    const bound = await call('POST', '/auth/add-wallet/', {
      access: owner.access,
      payload: { ...(await signBind(newWallet())), password: PASSWORD },
    });
    expect(bound.statusCode, bound.body).toBe(200);
    const removed = await call('DELETE', '/auth/methods/wallet/', {
      access: owner.access,
      payload: { password: PASSWORD },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    await strangerIsNewAgain(owner.email, strangerDevice, removed.json().device);
  });

  it('confirming an e-mail change forgets them', async () => {
    const { owner, strangerDevice } = await ownerAndStranger();
    const email = uniqueEmail('moved');
    const asked = await call('POST', '/auth/change-email/', {
      access: owner.access,
      payload: { new_email: email, password: PASSWORD },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    await t.app.afterReplySettled();
    const token = mailedToken(t, email, 'confirmEmailChange');
    const confirmed = await call('GET', `/auth/confirm-email-change/${token}/?email=${encodeURIComponent(email)}`, {
      access: owner.access,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await strangerIsNewAgain(email, strangerDevice, confirmed.json().device);
  });
});
