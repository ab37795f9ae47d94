// Address enumeration through registration and e-mail change (issue 21): `POST /auth/register/`
// answered a confirmed address with 400 email_in_use in 29 ms, before any limit or hashing, and a
// fresh one with 201 after a 1.5 s hash; `POST /auth/change-email/` from a wallet account answered
// email_in_use before any limit. Both now answer alike after the same work: the same limits taken,
// the same password hash computed (counted through the hash queue, not timed), and the holder of
// an address in use gets a notice instead of a link.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { hashQueue } from '../../server/services/hash-queue';
import {
  API,
  bearer,
  isAccountNotice,
  lastMailTo,
  mails,
  otherIp,
  PASSWORD,
  reauthFor,
  registerAndConfirm,
  uniqueEmail,
  walletLogin,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('no address enumeration on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SIGNUP_LIMIT_PER_HOUR: '100' });
  });
  afterAll(() => t.close());
  afterEach(() => vi.restoreAllMocks());

  const count = async (key: string) =>
    Number(
      (await t.app.db.selectFrom('throttle').select('count').where('key', '=', key).executeTakeFirst())?.count ?? 0,
    );
  const register = (email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email, password: 'another123', confirm_password: 'another123' },
      remoteAddress: ip,
    });

  it('register: a confirmed address gets the answer a fresh one gets, after the same limits and hashing', async () => {
    const owner = await registerAndConfirm(t);
    const fresh = uniqueEmail('fresh');
    const hashes = vi.spyOn(hashQueue, 'run');
    const [ipA, ipB] = [otherIp(), otherIp()];

    const taken = await register(owner.email, ipA);
    expect(hashes).toHaveBeenCalledTimes(1);
    const free = await register(fresh, ipB);
    expect(hashes).toHaveBeenCalledTimes(2);

    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.statusCode).toBe(free.statusCode);
    // Each answer carries its own random registration string (decisions §13); everything else is equal.
    expect([typeof taken.json().registration, typeof free.json().registration]).toEqual(['string', 'string']);
    const same = (body: Record<string, unknown>, email: string) => ({
      ...body,
      email: body.email === email ? '<the address>' : body.email,
      registration: '<random>',
    });
    expect(same(taken.json(), owner.email)).toEqual(same(free.json(), fresh));
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(free.headers).sort());
    // The same limits were taken for both: the address's mails and the client's.
    // (The owner's address counted one mail already, its confirmation link.)
    expect([await count(`mail:${owner.email}`), await count(`mail:${fresh}`)]).toEqual([2, 1]);
    expect([await count(`mail:ip:${ipA}`), await count(`mail:ip:${ipB}`)]).toEqual([1, 1]);
    expect([await count(`signup:ip:${ipA}`), await count(`signup:ip:${ipB}`)]).toEqual([1, 1]);

    // The owner is told, with no link that changes anything; the password stays theirs.
    const notice = lastMailTo(t, owner.email);
    expect(notice.text).toMatch(/tried to register/i);
    expect(notice.text).toMatch(/sign in or reset your password/i);
    expect(notice.link.searchParams.get('token')).toBeNull();
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email: owner.email, password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(login.statusCode).toBe(200);
  });

  it('change-email from a wallet account: an address in use gets the answer a free one gets, after the same limits', async () => {
    const holder = await registerAndConfirm(t);
    const fresh = uniqueEmail('move');
    const a = await walletLogin(t);
    const b = await walletLogin(t);
    const before = mails(t).length;
    const [ipA, ipB] = [otherIp(), otherIp()];

    // Proof of each wallet account first (decisions §13), as the app asks for it.
    const [proofA, proofB] = [await reauthFor(t, a.access, a.account), await reauthFor(t, b.access, b.account)];
    const inUse = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/change-email/`,
      payload: { new_email: holder.email, reauth: proofA },
      headers: bearer(a.access),
      remoteAddress: ipA,
    });
    const free = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/change-email/`,
      payload: { new_email: fresh, reauth: proofB },
      headers: bearer(b.access),
      remoteAddress: ipB,
    });

    expect(inUse.statusCode, inUse.body).toBe(free.statusCode);
    expect(inUse.json()).toEqual(free.json());
    expect([await count(`mail:${holder.email}`), await count(`mail:${fresh}`)]).toEqual([2, 1]);
    expect([await count(`mail:ip:${ipA}`), await count(`mail:ip:${ipB}`)]).toEqual([1, 1]);
    // The holder gets a notice, not a link to move their address anywhere.
    const sent = mails(t)
      .slice(before)
      .filter((m) => !isAccountNotice(m));
    const toHolder = sent.filter((m) => m.to === holder.email);
    expect(toHolder).toHaveLength(1);
    expect(toHolder[0].link.searchParams.get('token')).toBeNull();
    expect(sent.filter((m) => m.to === fresh)).toHaveLength(1);
  });

  it('change-email refuses nothing sooner for an address in use: past the mail limit both answer 429', async () => {
    const holder = await registerAndConfirm(t);
    const wallet = await walletLogin(t);
    const ip = otherIp();
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) {
      const reauth = await reauthFor(t, wallet.access, wallet.account);
      answers.push(
        (
          await t.app.inject({
            method: 'POST',
            url: `${API}/auth/change-email/`,
            payload: { new_email: holder.email, reauth },
            headers: bearer(wallet.access),
            remoteAddress: ip,
          })
        ).statusCode,
      );
    }
    // One link mail counted when the holder registered, then four notices; the sixth call is over the limit of 5.
    expect(answers).toEqual([200, 200, 200, 200, 429, 429]);
  });
});
