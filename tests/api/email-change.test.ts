// E-mail change with a stolen access token (issue 11, decisions §12 and §13): proof of the account
// (the password where it has one, failures counted like sign-ins; else a reauth string), the link
// confirmed only by that account signed in, every other session ended once the new address is
// confirmed, and the old address told with a link that undoes the change within 72 hours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_WRONG, REAUTH_REQUIRED } from '@shared/api/auth';
import { LOGIN_FAILURES_PER_ADDRESS } from '../../server/services/throttle';
import {
  API,
  bearer,
  lastMailTo,
  mailedToken,
  mails,
  newWallet,
  otherIp,
  PASSWORD,
  quickUser,
  reauthFor,
  registerAndConfirm,
  signLogin,
  uniqueEmail,
} from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('e-mail change on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}, ip = otherIp()) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers, remoteAddress: ip });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: `${API}${url}`, headers, remoteAddress: otherIp() });
  const login = (email: string, password = PASSWORD) => post('/auth/login-by-email/', { email, password });
  const refresh = (token: string) => post('/auth/refresh/', { refresh: token });
  // decisions §13: the link works only for the account that asked, signed in (its bearer token).
  const confirmChange = (to: string, access?: string) =>
    get(
      `/auth/confirm-email-change/${mailedToken(t, to, 'confirmEmailChange')}/?email=${encodeURIComponent(to)}`,
      access ? bearer(access) : {},
    );
  const undo = (token: string) => post('/auth/undo-email-change/', { token });

  it('refuses a stolen access token without the password, and a wrong password, counting failures like sign-ins', async () => {
    const victim = await registerAndConfirm(t);
    const target = uniqueEmail('thief');
    const ip = otherIp();

    // decisions §13: no proof at all is 403 reauth_required (was 400 password_required).
    const missing = await post('/auth/change-email/', { new_email: target }, bearer(victim.access), ip);
    expect(missing.statusCode).toBe(403);
    expect(missing.json()).toMatchObject({ code: 'reauth_required', detail: REAUTH_REQUIRED });

    for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
      const wrong = await post(
        '/auth/change-email/',
        { new_email: target, password: 'guess1234' },
        bearer(victim.access),
        ip,
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({
        code: 'invalid_password',
        errors: [{ field: 'password', message: PASSWORD_WRONG }],
      });
    }
    // Used up, on the same counter as e-mail sign-ins of the address: even the right password waits.
    const limited = await post(
      '/auth/change-email/',
      { new_email: target, password: PASSWORD },
      bearer(victim.access),
      otherIp(),
    );
    expect(limited.statusCode).toBe(429);
    expect((await login(victim.email)).statusCode).toBe(429);
    expect(mails(t).some((m) => m.to === target)).toBe(false);
    expect((await get('/auth/me', bearer(victim.access))).json().email).toBe(victim.email);
  });

  it('with the password: mails the new address; confirming ends every other session and mails the old address an undo link', async () => {
    const player = await registerAndConfirm(t);
    const second = (await login(player.email)).json() as { access: string; refresh: string };
    const next = uniqueEmail('next');
    const res = await post('/auth/change-email/', { new_email: next, password: PASSWORD }, bearer(player.access));
    expect(res.statusCode).toBe(200);
    // Nothing moves before the new address is proven.
    expect((await get('/auth/me', bearer(player.access))).json().email).toBe(player.email);
    expect((await refresh(player.refresh)).statusCode).toBe(200);

    // Opened signed out or by another account, the link changes nothing and stays usable.
    const stranger = await registerAndConfirm(t);
    for (const opened of [await confirmChange(next), await confirmChange(next, stranger.access)]) {
      expect(opened.statusCode).toBe(403);
      expect(opened.json().code).toBe('wrong_account');
    }
    expect((await get('/auth/me', bearer(player.access))).json().email).toBe(player.email);
    const confirmed = await confirmChange(next, player.access);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // No tokens: the confirming session goes on (decisions §13); every other session ends at once.
    expect(confirmed.json()).toEqual({ detail: expect.any(String), email: next, device: expect.any(String) });
    expect((await refresh(player.refresh)).statusCode).toBe(200);
    expect((await get('/auth/me', bearer(player.access))).json().email).toBe(next);
    expect((await refresh(second.refresh)).statusCode).toBe(401);
    expect((await get('/auth/me', bearer(second.access))).statusCode).toBe(401);
    const notice = lastMailTo(t, player.email);
    expect(notice.text).toContain(next);
    expect(`${notice.link.origin}${notice.link.pathname}`).toBe('http://app.test/');
    expect(notice.link.searchParams.get('modal')).toBe('undoEmailChange');
    expect((await login(next)).statusCode).toBe(200);
  });

  it('the undo link restores the old address, revokes refresh tokens and pending links, and works once', async () => {
    const player = await registerAndConfirm(t);
    const next = uniqueEmail('moved');
    await post('/auth/change-email/', { new_email: next, password: PASSWORD }, bearer(player.access));
    expect((await confirmChange(next, player.access)).statusCode).toBe(200);
    const token = mailedToken(t, player.email, 'undoEmailChange');
    const afterChange = (await login(next)).json() as { access: string; refresh: string };
    expect((await post('/auth/password-reset/', { email: next })).statusCode).toBe(200);
    const resetLink = mailedToken(t, next, 'restorePassword');

    const res = await undo(token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().email).toBe(player.email);
    // decisions §13: the undo ends every session, so the access tokens are refused at once too.
    expect((await get('/auth/me', bearer(afterChange.access))).statusCode).toBe(401);
    expect((await get('/auth/me', bearer(player.access))).statusCode).toBe(401);
    expect((await refresh(afterChange.refresh)).statusCode).toBe(401);
    expect((await refresh(player.refresh)).statusCode).toBe(401);
    expect(
      (await post('/auth/password-reset-confirm/', { token: resetLink, new_password: 'thief1234' })).json().code,
    ).toBe('invalid_token');
    const back = await login(player.email);
    expect(back.statusCode).toBe(200);
    expect((await get('/auth/me', bearer(back.json().access))).json().email).toBe(player.email);
    expect((await login(next)).json().code).toBe('invalid_credentials');
    expect((await undo(token)).json().code).toBe('invalid_token');
  });

  it('refuses an expired undo link', async () => {
    const player = await registerAndConfirm(t);
    const next = uniqueEmail('late');
    await post('/auth/change-email/', { new_email: next, password: PASSWORD }, bearer(player.access));
    expect((await confirmChange(next, player.access)).statusCode).toBe(200);
    const token = mailedToken(t, player.email, 'undoEmailChange');
    const user = await t.app.db.selectFrom('users').select('id').where('email', '=', next).executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('action_tokens')
      .set({ expires_at: Date.now() - 1 })
      .where('user_id', '=', user.id)
      .where('kind', '=', 'undo_email_change')
      .execute();
    const res = await undo(token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_token');
    expect((await get('/auth/me', bearer(player.access))).json().email).toBe(next);
  });

  it('takes back an account without a password whose address was moved and then used for a password reset', async () => {
    // A Google and wallet player has an e-mail and no password. A stolen access token alone can no
    // longer move the address (decisions §13); whoever also got a proof of the account (here the
    // wallet's reauth signature) can, but the old mailbox can undo it, and the password set through
    // the new address goes too.
    const victim = uniqueEmail('google');
    const wallet = newWallet();
    const { access } = await quickUser(t, {
      email: victim,
      emailConfirmed: true,
      googleSub: `sub-${victim}`,
      walletAddress: wallet.address,
    });
    const thief = uniqueEmail('thief');
    const bare = await post('/auth/change-email/', { new_email: thief }, bearer(access));
    expect(bare.statusCode).toBe(403);
    expect(bare.json().code).toBe('reauth_required');
    // Without a password, a password is no proof either.
    expect(
      (await post('/auth/change-email/', { new_email: thief, password: 'anything1' }, bearer(access))).json().code,
    ).toBe('reauth_required');
    const reauth = await reauthFor(t, access, wallet);
    expect((await post('/auth/change-email/', { new_email: thief, reauth }, bearer(access))).statusCode).toBe(200);
    // The reauth string is single-use.
    expect(
      (await post('/auth/change-email/', { new_email: uniqueEmail('again'), reauth }, bearer(access))).json().code,
    ).toBe('reauth_required');
    expect((await confirmChange(thief, access)).statusCode).toBe(200);
    await post('/auth/password-reset/', { email: thief });
    await post('/auth/password-reset-confirm/', {
      token: mailedToken(t, thief, 'restorePassword'),
      new_password: 'thief1234',
    });
    const stolen = await login(thief, 'thief1234');
    expect(stolen.statusCode).toBe(200);

    expect((await undo(mailedToken(t, victim, 'undoEmailChange'))).statusCode).toBe(200);
    expect((await refresh(stolen.json().refresh)).statusCode).toBe(401);
    expect((await login(thief, 'thief1234')).statusCode).toBe(400);
    expect((await login(victim, 'thief1234')).statusCode).toBe(400);
    // The reset ended every session, the old token with them; the owner's wallet signs in again.
    expect((await get('/auth/me', bearer(access))).statusCode).toBe(401);
    const owner = await post('/auth/login/', await signLogin(wallet, Date.now(), t.app.config.appName));
    expect(owner.statusCode).toBe(200);
    const me = (await get('/auth/me', bearer(owner.json().access))).json();
    expect(me).toMatchObject({ email: victim, password_set: false });
    expect(
      await t.app.db.selectFrom('users').select('google_sub').where('email', '=', victim).executeTakeFirstOrThrow(),
    ).toEqual({ google_sub: `sub-${victim}` });
  });

  it('undoes even when an unconfirmed registration took the freed address, and voids the undo links of later changes', async () => {
    const player = await registerAndConfirm(t);
    const a = uniqueEmail('first');
    const b = uniqueEmail('second');
    await post('/auth/change-email/', { new_email: a, password: PASSWORD }, bearer(player.access));
    expect((await confirmChange(a, player.access)).statusCode).toBe(200);
    const undoFirst = mailedToken(t, player.email, 'undoEmailChange');
    await post('/auth/change-email/', { new_email: b, password: PASSWORD }, bearer(player.access));
    expect((await confirmChange(b, player.access)).statusCode).toBe(200);
    const undoSecond = mailedToken(t, a, 'undoEmailChange');
    // Someone registers the old address (never confirmed) to block the undo.
    expect(
      (await post('/auth/register/', { email: player.email, password: 'blocker99', confirm_password: 'blocker99' }))
        .statusCode,
    ).toBe(201);
    const blockerLink = mailedToken(t, player.email, 'confirmRegistration');

    expect((await undo(undoFirst)).statusCode).toBe(200);
    // The undo ended every session (decisions §13); signed in again, the old address is back.
    expect((await get('/auth/me', bearer(player.access))).statusCode).toBe(401);
    expect((await undo(undoSecond)).json().code).toBe('invalid_token');
    expect((await get(`/auth/confirm-email/${blockerLink}/`)).json().code).toBe('invalid_token');
    const back = await login(player.email);
    expect(back.statusCode).toBe(200);
    expect((await get('/auth/me', bearer(back.json().access))).json().email).toBe(player.email);
  });
});
