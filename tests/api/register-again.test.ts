// Registering an address that is not confirmed yet (issue 11, "Account takeover"): each link sets the
// password given with it, nothing changes on the account until a link is opened, earlier links keep
// working, and the answer does not tell a new address from a pending one. A link sets its password
// only in the browser that registered it (decisions §13: it sends back the answer's `registration`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, lastMailTo, mailedToken, otherIp, PASSWORD, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('registering a pending address again on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, remoteAddress: otherIp() });
  /** Opens a registration link, in the registering browser when given its `registration` string (decisions §13). */
  const confirm = (token: string, registration?: string) =>
    t.app.inject({
      method: 'GET',
      url: `${API}/auth/confirm-email/${token}/`,
      headers: registration ? { 'x-registration': registration } : {},
      remoteAddress: otherIp(),
    });
  const register = (email: string, password = PASSWORD) =>
    post('/auth/register/', { email, password, confirm_password: password });
  const login = (email: string, password = PASSWORD) => post('/auth/login-by-email/', { email, password });
  const account = (email: string) =>
    t.app.db
      .selectFrom('users')
      .select(['password_hash', 'email_confirmed'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();

  it("a second registrant cannot take the account: the owner's own link still works and sets the owner's password", async () => {
    const email = uniqueEmail('owner');
    const owner = await register(email, PASSWORD);
    expect(owner.statusCode).toBe(201);
    const ownerLink = mailedToken(t, email, 'confirmRegistration');

    // The attacker registers the same address with a password of their own.
    const attackerRegistration = await register(email, 'attacker99');
    expect(attackerRegistration.statusCode).toBe(201);
    const attackerLink = mailedToken(t, email, 'confirmRegistration');
    expect(attackerLink).not.toBe(ownerLink);
    // Nothing on the account changed: no password is set until a link is opened.
    expect(await account(email)).toMatchObject({ password_hash: null, email_confirmed: 0 });
    expect((await login(email, 'attacker99')).json().code).toBe('email_not_confirmed');

    // The owner opens their own (older) link in their browser: it confirms with the owner's password.
    const confirmed = await confirm(ownerLink, owner.json().registration);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      password_set: true,
      access: expect.any(String),
      refresh: expect.any(String),
      device: expect.any(String),
    });
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
    const attacker = await login(email, 'attacker99');
    expect(attacker.statusCode).toBe(400);
    expect(attacker.json().code).toBe('invalid_credentials');

    // The other registration links are void now, so the attacker's password never gets in.
    const late = await confirm(attackerLink, attackerRegistration.json().registration);
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('invalid_token');
    expect((await login(email, 'attacker99')).statusCode).toBe(400);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });

  it('the second link sets its own password only when it is opened, and then the first is void', async () => {
    const email = uniqueEmail('twice');
    const firstRegistration = (await register(email, PASSWORD)).json().registration as string;
    const first = mailedToken(t, email, 'confirmRegistration');
    const secondRegistration = (await register(email, 'second123')).json().registration as string;
    const second = mailedToken(t, email, 'confirmRegistration');
    expect((await confirm(second, secondRegistration)).statusCode).toBe(200);
    expect((await login(email, 'second123')).statusCode).toBe(200);
    expect((await login(email, PASSWORD)).json().code).toBe('invalid_credentials');
    expect((await confirm(first, firstRegistration)).json().code).toBe('invalid_token');
    expect((await login(email, 'second123')).statusCode).toBe(200);
  });

  it('answers a new and a pending address with the same status and body; the repeated mail says someone asked again', async () => {
    const email = uniqueEmail('same');
    const fresh = await register(email);
    const again = await register(email, 'other1234');
    expect(again.statusCode).toBe(fresh.statusCode);
    // Each answer carries its own random registration string (decisions §13); the rest is the same.
    const { registration: freshRegistration, ...freshRest } = fresh.json();
    const { registration: againRegistration, ...againRest } = again.json();
    expect(againRest).toEqual(freshRest);
    expect(freshRegistration).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(againRegistration).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(againRegistration).not.toBe(freshRegistration);
    expect(lastMailTo(t, email).text).toMatch(/Someone asked again .* If it was not you, ignore this e-mail/s);
  });

  it('refuses sign-in with an earlier link\'s password as wrong, and says "not confirmed" for the newest one', async () => {
    const email = uniqueEmail('pending');
    await register(email, PASSWORD);
    await register(email, 'newest123');
    expect((await login(email, 'newest123')).json().code).toBe('email_not_confirmed');
    expect((await login(email, PASSWORD)).json().code).toBe('invalid_credentials');
  });

  it('voids the registration links when a password reset confirms the address', async () => {
    const email = uniqueEmail('reset');
    await register(email, 'attacker99');
    const registration = mailedToken(t, email, 'confirmRegistration');
    await post('/auth/password-reset/', { email });
    const reset = mailedToken(t, email, 'restorePassword');
    expect((await post('/auth/password-reset-confirm/', { token: reset, new_password: 'owner1234' })).statusCode).toBe(
      200,
    );
    expect((await confirm(registration)).json().code).toBe('invalid_token');
    expect((await login(email, 'owner1234')).statusCode).toBe(200);
    expect((await login(email, 'attacker99')).statusCode).toBe(400);
  });
});
