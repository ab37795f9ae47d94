// What the account tests share: calls as a given client (bearer, headers, address), and the e-mail
// flows' calls.
import { expect } from 'vitest';
import type { TestApp } from './test-app';
import { API, bearer, noticesTo, otherIp, PASSWORD } from './accounts';

export function accountCalls(t: () => TestApp) {
  const call = (
    method: 'GET' | 'POST' | 'DELETE',
    url: string,
    opts: { access?: string; payload?: object; headers?: Record<string, string>; ip?: string } = {},
  ) =>
    t().app.inject({
      method,
      url: `${API}${url}`,
      ...(opts.payload ? { payload: opts.payload } : {}),
      headers: { ...(opts.access ? bearer(opts.access) : {}), ...opts.headers },
      remoteAddress: opts.ip ?? otherIp(),
    });
  return { call, me: (access: string) => call('GET', '/auth/me', { access }) };
}

/**
 * The e-mail account flows' calls (tests/api/auth-email*.test.ts), each from an address of its own:
 * those tests are about the flows, not the per-address limits.
 */
export function emailCalls(t: () => TestApp) {
  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t().app.inject({ method: 'POST', url: `${API}${url}`, payload, headers, remoteAddress: otherIp() });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t().app.inject({ method: 'GET', url: `${API}${url}`, headers, remoteAddress: otherIp() });
  const register = (email: string, password = PASSWORD) =>
    post('/auth/register/', { email, password, confirm_password: password });
  const login = (email: string, password = PASSWORD) => post('/auth/login-by-email/', { email, password });
  /** Every mailed link of the account's expires now. */
  const expireTokensOf = async (email: string) => {
    const { db } = t().app;
    const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
    await db
      .updateTable('action_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', user.id)
      .execute();
  };
  return { post, get, register, login, expireTokensOf };
}

/**
 * Known-device checks (decisions §13): a sign-in that carries a device string, the new-device mails
 * an address got, and an address locked by five wrong passwords (after which only a known device
 * has attempts left).
 */
export function deviceProbes(t: () => TestApp) {
  const { call } = accountCalls(t);
  return {
    signInFrom: (email: string, password: string, device: string) =>
      call('POST', '/auth/login-by-email/', { payload: { email, password }, headers: { 'x-device': device } }),
    newDeviceNotices: async (email: string) => {
      await t().app.afterReplySettled();
      return noticesTo(t(), email).filter((m) => /new device/.test(m.subject)).length;
    },
    lockAddress: async (email: string) => {
      for (let i = 0; i < 5; i++)
        expect(
          (await call('POST', '/auth/login-by-email/', { payload: { email, password: `wrong${i}123` } })).statusCode,
        ).toBe(400);
    },
  };
}
