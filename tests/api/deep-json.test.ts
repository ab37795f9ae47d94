// Deeply nested JSON bodies (issue 21): a body of 32 000 `[` (and their `]`) fits in the 64 KiB limit, and every
// walk over it by recursion (the idempotency hash, the NUL guard, a validator) would overflow the
// stack and answer 500. Bad input is never a 5xx: a body nested deeper than the API's limit is
// refused with 400 before anything walks it, signed in or not, with or without an Idempotency-Key.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, bearer, otherIp, quickUser } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const arrays = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const objects = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
/** Deep, inside an ordinary-looking body. */
const wrapped = (depth: number) => `{"email":"a@b.c","password":"x","extra":${arrays(depth)}}`;

const BODIES: [string, string][] = [
  ['32 000 nested arrays', arrays(32_000)],
  ['10 000 nested objects', objects(10_000)],
  ['deep arrays inside a field', wrapped(30_000)],
  ['65 nested arrays', arrays(65)],
];

const ROUTES: { method: 'POST' | 'PATCH'; url: string; signedIn: boolean }[] = [
  { method: 'POST', url: `${API}/mining/auto-start/`, signedIn: true },
  { method: 'POST', url: `${API}/mining/shop/buy/`, signedIn: true },
  { method: 'PATCH', url: `${API}/auth/complete-registration/`, signedIn: true },
  { method: 'POST', url: `${API}/payments/top-up/`, signedIn: true },
  { method: 'POST', url: `${API}/auth/password-reset/`, signedIn: false },
  { method: 'POST', url: `${API}/push/subscribe/`, signedIn: true },
  { method: 'POST', url: `${API}/auth/login/`, signedIn: false },
  { method: 'POST', url: `${API}/auth/register/`, signedIn: false },
  { method: 'POST', url: `${API}/no-such-route/`, signedIn: false },
];

describe.each(testDialects())('deeply nested JSON on %s', (dialect) => {
  let t: TestApp;
  let access: string;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ access } = await quickUser(t));
  });
  afterAll(() => t.close());

  for (const [name, body] of BODIES) {
    it(`refuses ${name} with 400 invalid on every route, with and without an Idempotency-Key`, async () => {
      expect(body.length).toBeLessThan(64 * 1024);
      const wrong: string[] = [];
      for (const route of ROUTES) {
        for (const key of [undefined, `deep-${Math.random()}`]) {
          const res = await t.app.inject({
            method: route.method,
            url: route.url,
            payload: body,
            remoteAddress: otherIp(),
            headers: {
              'content-type': 'application/json',
              ...(route.signedIn ? bearer(access) : {}),
              ...(key ? { 'idempotency-key': key } : {}),
            },
          });
          const what = `${res.statusCode} ${route.method} ${route.url} key=${key !== undefined}: ${res.body.slice(0, 120)}`;
          // Unknown routes answer 404 before any body is read; everything else refuses the body.
          const expected = route.url.includes('no-such-route')
            ? res.statusCode < 500
            : res.statusCode === 400 && res.json().code === 'invalid' && typeof res.json().detail === 'string';
          if (!expected) wrong.push(what);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  it('still takes a body nested to the limit (32 levels)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/mining/auto-start/`,
      payload: `{"x":${arrays(31)}}`,
      headers: { 'content-type': 'application/json', ...bearer(access), 'idempotency-key': 'at-the-limit' },
    });
    // Not enough Gems: the body was read and the call ran.
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('not_enough_gems');
  });

  it('a deep query string is no 5xx either', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/me/?${'a'.repeat(1)}${'[b]'.repeat(2000)}=1`,
      headers: bearer(access),
    });
    expect(res.statusCode, res.body).toBeLessThan(500);
  });
});
