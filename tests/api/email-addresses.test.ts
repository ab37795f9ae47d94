// E-mail fields take one plain address, never a list: `a@x.com,b@y.com` was mailed to both and
// `x<c@z.com>@y.com` went to c@z.com. Every call that mails refuses such input with a field error
// before anything is mailed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, bearer, otherIp, PASSWORD, quickUser, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** Each passed the old pattern `^\S+@\S+\.\S+$` or a mail library reads it as more than one plain address. */
const NOT_ONE_ADDRESS = [
  'a@x.com,b@y.com',
  'x<c@z.com>@y.com',
  '"a b"@x.com',
  'a@x.com b@y.com',
  'a@x.com;b@y.com',
  'Eve <eve@x.com>',
  '<eve@x.com>',
  'group:a@x.com;',
  'a@b@x.com',
  '(note)a@x.com',
  'a@[127.0.0.1]',
  'a\\@b@x.com',
  'a@x.com\nbcc:b@y.com',
  'a\u0085@x.com',
  'a\u200b@x.com',
  'a\u202e@x.com',
  'a@x\u3000.com',
  'a@x..com',
  `${'a'.repeat(64)}@${'b'.repeat(186)}.com`, // 255 characters
];

describe.each(testDialects())('one plain e-mail address on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, access?: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}${url}`,
      payload,
      headers: access ? bearer(access) : {},
      remoteAddress: otherIp(),
    });

  /** Every call of the API that mails a link to an address the caller gives. */
  const mailingCalls: {
    name: string;
    field: string;
    call: (email: string) => Promise<{ statusCode: number; json(): any }>;
  }[] = [
    {
      name: 'register',
      field: 'email',
      call: (email) => post('/auth/register/', { email, password: PASSWORD, confirm_password: PASSWORD }),
    },
    { name: 'password reset', field: 'email', call: (email) => post('/auth/password-reset/', { email }) },
    {
      name: 'add e-mail and password',
      field: 'email',
      call: async (email) =>
        post(
          '/auth/add-email-password/',
          { email, password: PASSWORD, confirm_password: PASSWORD },
          (await quickUser(t, { walletAddress: null })).access,
        ),
    },
    {
      name: 'change e-mail',
      field: 'new_email',
      call: async (email) =>
        post(
          '/auth/change-email/',
          { new_email: email, password: PASSWORD },
          (await quickUser(t, { email: uniqueEmail('old'), emailConfirmed: true })).access,
        ),
    },
  ];

  for (const { name, field, call } of mailingCalls) {
    it(`${name}: refuses anything but one plain address with a 400 on "${field}" and mails nothing`, async () => {
      const before = t.outbox().length;
      for (const email of NOT_ONE_ADDRESS) {
        const res = await call(email);
        expect(res.statusCode, `${name} ${JSON.stringify(email)}`).toBe(400);
        expect(
          res.json().errors.map((e: { field: string }) => e.field),
          JSON.stringify(email),
        ).toContain(field);
      }
      expect(t.outbox().length).toBe(before);
    });
  }

  it('still mails a plain address, including an apostrophe and a non-ASCII one, to that address only', async () => {
    for (const email of [uniqueEmail("o'brien"), `jõgeva.${Date.now()}@example.com`]) {
      const before = t.outbox().length;
      const res = await post('/auth/register/', { email, password: PASSWORD, confirm_password: PASSWORD });
      expect(res.statusCode, res.body).toBe(201);
      expect(t.outbox().length).toBe(before + 1);
    }
  });

  it('refuses a list at sign-in and in the e-mail change link as field errors too', async () => {
    const login = await post('/auth/login-by-email/', { email: 'a@x.com,b@y.com', password: PASSWORD });
    expect(login.statusCode).toBe(400);
    expect(login.json().errors[0].field).toBe('email');
    const link = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/confirm-email-change/${'a'.repeat(43)}/?email=${encodeURIComponent('x<c@z.com>@y.com')}`,
    });
    expect(link.statusCode).toBe(400);
  });
});
