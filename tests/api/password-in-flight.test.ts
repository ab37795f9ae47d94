// A password check waits in the hash queue (decisions §13), and whoever holds a stolen password can
// keep one waiting at all times (and make the wait longer by filling the queue). On the old server a
// sign-in or a reauth with the old password that was still being checked when the owner reset the
// password answered 200 after the reset: a session and a new known-device string that outlived "every
// session ends", and a reauth string that added the thief's wallet to the account taken back. A
// reauth string given before the reset stayed good too.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashQueue } from '../../server/services/hash-queue';
import { accountCalls } from '../helpers/account-calls';
import { mailedToken, newWallet, PASSWORD, reauthFor, registerAndConfirm, signBind } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('a password checked while it is reset, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const { call, me } = accountCalls(() => t);

  /** The next password hash waits until the returned function is called. */
  function holdNextHash(): { held: Promise<void>; release: () => void } {
    const original = hashQueue.run.bind(hashQueue);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let reached!: () => void;
    const held = new Promise<void>((r) => (reached = r));
    vi.spyOn(hashQueue, 'run').mockImplementationOnce(async (who, task) => {
      reached();
      await gate;
      return original(who, task);
    });
    return { held, release };
  }

  async function resetPassword(email: string) {
    expect((await call('POST', '/auth/password-reset/', { payload: { email } })).statusCode).toBe(200);
    await t.app.afterReplySettled();
    const reset = await call('POST', '/auth/password-reset-confirm/', {
      payload: { token: mailedToken(t, email, 'restorePassword'), new_password: 'ownerOnly123' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
  }

  /** The answer to `send`, whose password check is held until the owner's reset has committed. */
  async function answeredAcrossReset(email: string, send: () => ReturnType<typeof call>) {
    const { held, release } = holdNextHash();
    const answer = send();
    await held;
    await resetPassword(email);
    release();
    return answer;
  }

  it('a sign-in with the old password still being checked when the reset commits is refused', async () => {
    const owner = await registerAndConfirm(t);
    const answer = await answeredAcrossReset(owner.email, () =>
      call('POST', '/auth/login-by-email/', { payload: { email: owner.email, password: PASSWORD } }),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().code).toBe('invalid_credentials');
  });

  it('a reauth with the old password still being checked when the reset commits is refused', async () => {
    const owner = await registerAndConfirm(t);
    const answer = await answeredAcrossReset(owner.email, () =>
      call('POST', '/auth/reauth/', { access: owner.access, payload: { password: PASSWORD } }),
    );
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().code).toBe('invalid_password');
  });

  it('a reauth string given before a reset proves nothing after it', async () => {
    const owner = await registerAndConfirm(t);
    const before = await reauthFor(t, owner.access, { password: PASSWORD });
    await resetPassword(owner.email);
    expect((await me(owner.access)).statusCode).toBe(401);
    const back = await call('POST', '/auth/login-by-email/', {
      payload: { email: owner.email, password: 'ownerOnly123' },
    });
    expect(back.statusCode, back.body).toBe(200);
    const added = await call('POST', '/auth/add-wallet/', {
      access: back.json().access,
      payload: { ...(await signBind(newWallet())), reauth: before },
    });
    expect(added.statusCode, added.body).toBe(403);
    expect(added.json().code).toBe('reauth_required');
  });
});
