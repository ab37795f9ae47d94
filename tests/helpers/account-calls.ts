// What the account tests of issue 21 share: calls as a given client (bearer, headers, address).
import type { TestApp } from './test-app';
import { API, bearer, otherIp } from './accounts';

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
