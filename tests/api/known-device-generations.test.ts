// Known devices are forgotten when a password is set (decisions §13, docs/choices.md): on the old
// server a device string stayed valid for good, so whoever once signed in with a password the owner
// has since reset kept the device's own attempt lane past the address's lock, and signed in again
// without the owner being told. The browser that set the password is the account's own: it gets a
// string of the new generation (a reset's answer carries one; on the old server the owner's own
// browser counted as new, and was locked out with the address).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls, deviceProbes } from '../helpers/account-calls';
import { mailedToken, PASSWORD, reauthFor, registerAndConfirm, uniqueEmail, walletLogin } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('known-device generations on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const { call } = accountCalls(() => t);
  const { newDeviceNotices, lockAddress, signInFrom } = deviceProbes(() => t);

  it("a password reset forgets the account's device strings; the browser that reset it gets one of the new generation", async () => {
    const owner = await registerAndConfirm(t);
    expect((await call('POST', '/auth/password-reset/', { payload: { email: owner.email } })).statusCode).toBe(200);
    await t.app.afterReplySettled();
    const reset = await call('POST', '/auth/password-reset-confirm/', {
      payload: { token: mailedToken(t, owner.email, 'restorePassword'), new_password: 'another123' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const mine = reset.json().device as string;
    expect(mine).toEqual(expect.any(String));
    expect(mine).not.toBe(owner.device);
    const before = await newDeviceNotices(owner.email);

    // The resetting browser signs in as a known device: no notice, the same string back.
    const own = await signInFrom(owner.email, 'another123', mine);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().device).toBe(mine);
    expect(await newDeviceNotices(owner.email)).toBe(before);
    // A string from before the reset is a new device: mailed, and given a new string.
    const old = await signInFrom(owner.email, 'another123', owner.device);
    expect(old.statusCode, old.body).toBe(200);
    expect(old.json().device).not.toBe(owner.device);
    expect(await newDeviceNotices(owner.email)).toBe(before + 1);

    await lockAddress(owner.email);
    expect((await signInFrom(owner.email, 'another123', owner.device)).statusCode).toBe(429);
    expect((await signInFrom(owner.email, 'another123', mine)).statusCode).toBe(200);
  });

  it("a password change forgets the other browsers' device strings; the changing browser gets a new one without a notice", async () => {
    const owner = await registerAndConfirm(t);
    const elsewhere = await signInFrom(owner.email, PASSWORD, '');
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
    expect((await call('GET', '/auth/change-password-request/', { access: owner.access })).statusCode).toBe(200);
    const before = await newDeviceNotices(owner.email);
    const changed = await call('POST', '/auth/confirm-password-change/', {
      payload: {
        token: mailedToken(t, owner.email, 'confirmPasswordChange'),
        new_password: 'changed123',
        confirm_new_password: 'changed123',
        refresh: owner.refresh,
      },
      headers: { 'x-device': owner.device },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const mine = changed.json().device as string;
    expect(mine).toEqual(expect.any(String));
    expect(mine).not.toBe(owner.device);
    expect(await newDeviceNotices(owner.email)).toBe(before);

    await lockAddress(owner.email);
    expect((await signInFrom(owner.email, 'changed123', elsewhere.json().device)).statusCode).toBe(429);
    expect((await signInFrom(owner.email, 'changed123', owner.device)).statusCode).toBe(429);
    expect((await signInFrom(owner.email, 'changed123', mine)).statusCode).toBe(200);
  });

  it('a password added with an e-mail forgets the device strings given before; the confirming browser gets a new one', async () => {
    const owner = await walletLogin(t);
    // Another browser signed in to the wallet account before it had a password.
    const earlier = (await walletLogin(t, owner.account)) as { device?: string };
    expect(earlier.device).toEqual(expect.any(String));
    const email = uniqueEmail('added');
    const added = await call('POST', '/auth/add-email-password/', {
      access: owner.access,
      payload: {
        email,
        password: 'added1234',
        confirm_password: 'added1234',
        reauth: await reauthFor(t, owner.access, owner.account),
      },
    });
    expect(added.statusCode, added.body).toBe(200);
    const confirmed = await call('GET', `/auth/confirm-email/${mailedToken(t, email, 'confirmEmail')}/`, {
      access: owner.access,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const mine = confirmed.json().device as string;
    expect(mine).toEqual(expect.any(String));

    await lockAddress(email);
    expect((await signInFrom(email, 'added1234', earlier.device!)).statusCode).toBe(429);
    expect((await signInFrom(email, 'added1234', mine)).statusCode).toBe(200);
  });
});
