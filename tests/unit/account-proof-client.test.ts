// The browser side of decisions §13 against a scripted fetch: device strings kept and sent as
// X-Device, the registration string sent as X-Registration, and the reauth retry (403
// reauth_required → the prompt → the same call once more with `reauth`).
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as contract from '@shared/api/auth';
import { DEVICE_HEADER_MAX } from '@shared/auth-headers';

type Call = { url: string; method: string; headers: Record<string, string>; body: unknown };
const calls: Call[] = [];
let script: ((c: Call) => Response)[] = [];
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((v, k) => (headers[k] = v));
  const call = {
    url: String(input),
    method: init.method ?? 'GET',
    headers,
    body: init.body ? JSON.parse(String(init.body)) : undefined,
  };
  calls.push(call);
  const next = script.shift();
  if (!next) throw new Error(`unexpected call ${call.method} ${call.url}`);
  return next(call);
});

const devices = await import('@/lib/devices');
const session = await import('@/lib/session');
const { store } = await import('@/lib/store');
const reauth = await import('@/lib/reauth');
const reauthRequest = await import('@/lib/reauth-request');
const authApi = await import('@/features/auth/api/auth-api');
const securityApi = await import('@/features/profile/api/security-api');

/** An access token whose `sub` is the account id (the signature is never checked by the browser). */
const accessOf = (sub: number) => `h.${btoa(JSON.stringify({ sub, sid: 1, typ: 'access' })).replace(/=+$/, '')}.s`;
const device = (user: number, n: number) => `${user}.${'d'.repeat(21)}${n}.mac${n}`;

beforeEach(() => {
  calls.length = 0;
  script = [];
  localStorage.clear();
  store.set(session.accessTokenAtom, null);
  store.set(session.refreshTokenAtom, null);
});
afterEach(() => expect(script).toEqual([]));

describe('device strings (X-Device)', () => {
  it('keeps them newest first, one per account, at most DEVICE_HEADER_MAX', () => {
    for (let user = 1; user <= 10; user++) devices.rememberDevice(device(user, 0), String(user));
    expect(devices.storedDevices()).toHaveLength(DEVICE_HEADER_MAX);
    expect(devices.storedDevices()[0]).toBe(device(10, 0));
    expect(devices.storedDevices()).not.toContain(device(1, 0));
    // A new string of account 5 replaces its old one and moves to the front.
    devices.rememberDevice(device(5, 1), '5');
    const list = devices.storedDevices();
    expect(list[0]).toBe(device(5, 1));
    expect(list).not.toContain(device(5, 0));
    expect(list).toHaveLength(DEVICE_HEADER_MAX);
    expect(devices.deviceHeaders()).toEqual({ 'x-device': list.join(',') });
  });

  it('refuses strings that would break the header', () => {
    devices.rememberDevice('a,b', '1');
    devices.rememberDevice('with space', '2');
    devices.rememberDevice('', '3');
    expect(devices.storedDevices()).toEqual([]);
    expect(devices.deviceHeaders()).toEqual({});
  });

  it('every sign-in sends the kept strings, and the answer’s string is kept for its account', async () => {
    devices.rememberDevice(device(3, 0), '3');
    script = [
      (c) => (
        expect(c.headers['x-device']).toBe(device(3, 0)),
        json(200, { access: accessOf(7), refresh: 'r7', device: device(7, 0) })
      ),
    ];
    session.setTokens(await authApi.loginByEmail('a@example.com', 'secret123'));
    expect(devices.storedDevices()).toEqual([device(7, 0), device(3, 0)]);
    expect(session.currentAccount()).toBe('7');

    script = [
      (c) => (
        expect(c.headers['x-device']).toBe(`${device(7, 0)},${device(3, 0)}`),
        json(200, { access: accessOf(7), refresh: 'r8', device: device(7, 1) })
      ),
    ];
    session.setTokens(
      await authApi.loginWithWallet({
        address: `0x${'a'.repeat(40)}`,
        signature: `0x${'b'.repeat(130)}`,
        timestamp: 1,
      }),
    );
    expect(devices.storedDevices()).toEqual([device(7, 1), device(3, 0)]);

    script = [
      (c) => (
        expect(c.headers['x-device']).toBe(`${device(7, 1)},${device(3, 0)}`),
        json(200, { access: accessOf(9), refresh: 'r9', device: device(9, 0), action: 'logged_in', username: 'x' })
      ),
    ];
    await authApi.loginWithGoogle({ access_token: 'g' });
    // The sign-in call itself keeps the answer's string (a visitor's first page loads no device code).
    script = [
      (c) => (
        expect(c.headers['x-device']).toBe(`${device(9, 0)},${device(7, 1)},${device(3, 0)}`),
        json(200, { reauth: 'ra', expires_at: 'x' })
      ),
    ];
    await authApi.reauthenticate({ password: 'secret123' });
  });

  it('keeps the new-generation string a password reset or an added password answers, in its account’s place', async () => {
    devices.rememberDevice(device(4, 0), '4');
    devices.rememberDevice(device(5, 0), '5');
    script = [() => json(200, { detail: 'reset', email: 'a@example.com', device: device(4, 1) })];
    await authApi.confirmPasswordReset('t', 'another123');
    // No access token names the account: the string is kept as one more (a sign-in then labels it).
    expect(devices.storedDevices()).toEqual([device(4, 1), device(5, 0), device(4, 0)]);

    session.setTokens({ access: accessOf(5), refresh: 'r5' });
    script = [() => json(200, { detail: 'added', password_set: true, device: device(5, 1) })];
    await authApi.confirmAddedEmail('t1');
    // The signed-in account's: it replaces that account's old string.
    expect(devices.storedDevices()).toEqual([device(5, 1), device(4, 1), device(4, 0)]);
  });

  it('keeps the new-generation string that signing the other browsers out answers, in the account’s place', async () => {
    devices.rememberDevice(device(5, 0), '5');
    devices.rememberDevice(device(6, 0), '6');
    session.setTokens({ access: accessOf(5), refresh: 'r5' });
    script = [() => json(200, { detail: 'out', device: device(5, 1) })];
    await securityApi.logoutEverywhereElse();
    expect(devices.storedDevices()).toEqual([device(5, 1), device(6, 0)]);
    script = [() => json(200, { detail: 'removed', device: device(5, 2) })];
    await securityApi.removeMethod('wallet', { password: 'secret123' });
    expect(devices.storedDevices()).toEqual([device(5, 2), device(6, 0)]);
    script = [() => json(200, { detail: 'moved', email: 'n@example.com', device: device(5, 3) })];
    await authApi.confirmEmailChange('t', 'n@example.com');
    expect(devices.storedDevices()).toEqual([device(5, 3), device(6, 0)]);
  });
});

describe('registration string (X-Registration)', () => {
  it('is kept from the register answer and sent with the registration link', async () => {
    script = [
      (c) => (
        expect(c.headers['x-registration']).toBeUndefined(),
        json(201, { detail: 'sent', email: 'a@example.com', registration: 'reg-1' })
      ),
    ];
    await authApi.register({ email: 'a@example.com', password: 'secret123', confirm_password: 'secret123' });
    // "Send again" registers again: both are kept, newest first, so the first mail's link still counts.
    script = [() => json(201, { detail: 'sent', email: 'b@example.com', registration: 'reg-2' })];
    await authApi.register({ email: 'b@example.com', password: 'secret123', confirm_password: 'secret123' });
    devices.rememberDevice(device(4, 0), '4');
    script = [
      (c) => {
        expect(c.url).toBe('/api/v1/auth/confirm-email/tok/');
        expect(c.headers['x-registration']).toBe('reg-2,reg-1');
        expect(c.headers['x-device']).toBe(device(4, 0));
        expect(c.headers.authorization).toBeUndefined();
        return json(200, { access: accessOf(4), refresh: 'r', device: device(4, 1), password_set: true });
      },
    ];
    expect(await authApi.confirmRegistration('tok')).toMatchObject({ password_set: true });
    devices.forgetRegistration();
    script = [
      (c) => (
        expect(c.headers['x-registration']).toBeUndefined(),
        json(200, { access: accessOf(4), refresh: 'r', password_set: false, password_token: 'pt' })
      ),
    ];
    expect(await authApi.confirmRegistration('tok2')).toMatchObject({ password_set: false, password_token: 'pt' });
  });

  it('an added address and an e-mail change are confirmed with the bearer of the signed-in account', async () => {
    session.setTokens({ access: accessOf(5), refresh: 'r5' });
    script = [
      (c) => (
        expect(c.headers.authorization).toBe(`Bearer ${accessOf(5)}`),
        json(200, { detail: 'ok', password_set: true })
      ),
    ];
    await authApi.confirmAddedEmail('t1');
    script = [
      (c) => (
        expect(c.headers.authorization).toBe(`Bearer ${accessOf(5)}`),
        expect(c.url).toMatch(/email=n(@|%40)example\.com/),
        json(200, { detail: 'ok', email: 'n@example.com' })
      ),
    ];
    await authApi.confirmEmailChange('t2', 'n@example.com');
  });
});

describe('withReauth (403 reauth_required → prompt → one retry with reauth)', () => {
  /** Answers the prompt as soon as it opens. */
  const answerPrompt = (value: string | null) => {
    const stop = store.sub(reauthRequest.reauthRequestAtom, () => {
      const pending = store.get(reauthRequest.reauthRequestAtom);
      if (pending) queueMicrotask(() => pending.settle(value));
    });
    return stop;
  };
  const refused = () => json(403, { detail: contract.REAUTH_REQUIRED, code: 'reauth_required' });

  beforeEach(() => session.setTokens({ access: accessOf(5), refresh: 'r5' }));

  it('sends the call, opens the prompt on reauth_required and sends it again once with the reauth string', async () => {
    const stop = answerPrompt('reauth-xyz');
    script = [
      (c) => (expect(c.body).toEqual({ new_email: 'n@example.com' }), refused()),
      (c) => (
        expect(c.body).toEqual({ new_email: 'n@example.com', reauth: 'reauth-xyz' }),
        json(200, { detail: 'sent' })
      ),
    ];
    await expect(reauth.withReauth((proof) => authApi.changeEmail('n@example.com', proof))).resolves.toEqual({
      detail: 'sent',
    });
    expect(calls).toHaveLength(2);
    expect(store.get(reauthRequest.reauthRequestAtom)).toBeNull();
    stop();
  });

  it('sends the password typed up front, and never asks when the server takes it', async () => {
    let opened = 0;
    const stop = store.sub(reauthRequest.reauthRequestAtom, () => opened++);
    script = [
      (c) => (
        expect(c.body).toEqual({ new_email: 'n@example.com', password: 'pw12345678' }),
        json(200, { detail: 'sent' })
      ),
    ];
    await reauth.withReauth((proof) => authApi.changeEmail('n@example.com', proof), { password: 'pw12345678' });
    expect(opened).toBe(0);
    stop();
  });

  it('retries only once: a second refusal is the caller’s error', async () => {
    const stop = answerPrompt('spent');
    script = [refused, refused];
    await expect(
      reauth.withReauth((proof) =>
        authApi.addEmailPassword({
          email: 'n@example.com',
          password: 'secret123',
          confirm_password: 'secret123',
          ...proof,
        }),
      ),
    ).rejects.toMatchObject({ status: 403 });
    expect(calls).toHaveLength(2);
    stop();
  });

  it('a closed prompt sends nothing more and throws ReauthCancelled', async () => {
    const stop = answerPrompt(null);
    script = [refused];
    await expect(
      reauth.withReauth((proof) =>
        authApi.bindWallet({ address: `0x${'a'.repeat(40)}`, signature: `0x${'b'.repeat(130)}`, timestamp: 1 }, proof),
      ),
    ).rejects.toBeInstanceOf(reauth.ReauthCancelled);
    expect(calls).toHaveLength(1);
    stop();
  });

  it('other refusals (a wrong password, the last method) pass through without a prompt', async () => {
    let opened = 0;
    const stop = store.sub(reauthRequest.reauthRequestAtom, () => opened++);
    script = [
      () =>
        json(400, {
          detail: 'Wrong password',
          code: 'invalid_password',
          errors: [{ field: 'password', message: 'Wrong password' }],
        }),
    ];
    await expect(
      reauth.withReauth((proof) => authApi.changeEmail('n@example.com', proof), { password: 'bad' }),
    ).rejects.toMatchObject({ status: 400 });
    expect(opened).toBe(0);
    stop();
  });
});

describe('what the prompt and the Security section offer', async () => {
  const { reauthChoices } = await import('@/features/auth/lib/reauth-choices');
  const { addableMethods } = await import('@/features/profile/state/security-view');

  it('the prompt offers the proofs the account has (Google only where configured, Telegram only inside it)', () => {
    const none = { password: false, wallet: false, google: false, telegram: false };
    expect(reauthChoices(['password', 'wallet'], false)).toEqual({ ...none, password: true, wallet: true });
    expect(reauthChoices(['wallet', 'google'], true)).toEqual({ ...none, wallet: true, google: true });
    expect(reauthChoices(['google', 'discord'], false)).toEqual(none);
    expect(reauthChoices(['telegram'], false)).toEqual(none);
    expect(reauthChoices(['telegram'], false, true)).toEqual({ ...none, telegram: true });
    expect(reauthChoices(['password'], false, true)).toEqual({ ...none, password: true });
  });

  it('the Security section offers to add what is missing', () => {
    expect(addableMethods(['wallet'], { googleConfigured: true, hasEmail: false })).toEqual({
      wallet: false,
      emailPassword: true,
      google: true,
    });
    expect(addableMethods(['password'], { googleConfigured: false, hasEmail: true })).toEqual({
      wallet: true,
      emailPassword: false,
      google: false,
    });
    // An e-mail account without a password sets one through the password link, not here.
    expect(addableMethods(['google'], { googleConfigured: true, hasEmail: true })).toEqual({
      wallet: true,
      emailPassword: false,
      google: false,
    });
  });

  it('the Security section offers Remove for every method but the last way to sign in', async () => {
    const { methodRemovable } = await import('@shared/sign-in-methods');
    expect(methodRemovable(['password'], 'password')).toBe(false);
    expect(methodRemovable(['password', 'wallet'], 'password')).toBe(true);
    // Discord signs nobody in: it never keeps an account, and can always go.
    expect(methodRemovable(['telegram', 'discord'], 'telegram')).toBe(false);
    expect(methodRemovable(['telegram', 'discord'], 'discord')).toBe(true);
  });
});
