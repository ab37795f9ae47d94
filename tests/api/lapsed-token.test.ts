// A signed-in player whose access token has lapsed (15 minutes after its last renewal, or its session
// ended) is not an anonymous caller (decisions §13). Where a player is optional but changes what the
// call does, a token sent that is no longer valid is a 401 token_not_valid, which the client answers
// by renewing the token and sending again. On the old server, linking Telegram or Google with a
// lapsed token signed in to (or registered) another account and answered 200, and the owner's own
// confirmation link said "wrong account".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '../helpers/account-calls';
import { mailedToken, PASSWORD, registerAndConfirm, uniqueEmail } from '../helpers/accounts';
import { signLoginWidget } from '../helpers/telegram-signing';
import { startTelegramStandIn, type TelegramStandIn } from '../helpers/telegram-stand-in';
import { type GoogleStandIn, startGoogleStandIn } from '../helpers/google-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const CLIENT_ID = 'pxt-lapsed-client.apps.googleusercontent.com';
let nextTelegramId = 7_500_000_000 + Math.floor(Math.random() * 1_000_000) * 100;

describe.each(testDialects())('calls made with a lapsed access token on %s', (dialect) => {
  let t: TestApp;
  let tg: TelegramStandIn;
  let google: GoogleStandIn;

  beforeAll(async () => {
    google = await startGoogleStandIn(CLIENT_ID);
    tg = await startTelegramStandIn();
    t = await createTestApp(dialect, { ...tg.env, ...google.env });
  });
  afterAll(async () => {
    await t?.close();
    await tg?.close();
    await google?.close();
  });

  const { call } = accountCalls(() => t);
  /** The owner's access token as it is 16 minutes after it was issued. */
  const lapsed = (access: string) => {
    const claims = JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString()) as {
      sub: number;
      sid: number;
    };
    return t.app.jwt.issueAccess(claims.sub, claims.sid, 900, Date.now() - 16 * 60_000);
  };
  const methodsOf = async (access: string) =>
    ((await call('GET', '/auth/methods/', { access })).json().methods as { kind: string }[]).map((m) => m.kind);
  /** The accounts holding this Telegram id or e-mail. */
  const holdersOf = async (column: 'telegram_id' | 'email', value: string) =>
    (await t.app.db.selectFrom('users').select('id').where(column, '=', value).execute()).map((r) => Number(r.id));

  it('linking Telegram with it answers 401 and registers nobody; renewed, the same data links', async () => {
    const owner = await registerAndConfirm(t);
    const user = { id: ++nextTelegramId, first_name: 'Ivan', username: `ivan_${nextTelegramId}` };
    const payload = { login: signLoginWidget(tg.botToken, { user }), password: PASSWORD };
    const refused = await call('POST', '/auth/telegram/', { access: lapsed(owner.access), payload });
    expect(refused.statusCode, refused.body).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'token_not_valid' });
    expect(await holdersOf('telegram_id', String(user.id))).toEqual([]);
    // The client renews the token and sends the same data again: the signature was not spent.
    const linked = await call('POST', '/auth/telegram/', { access: owner.access, payload });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(await methodsOf(owner.access)).toContain('telegram');
    // Without any token the call still signs in: to the owner, now that Telegram is linked.
    const signIn = await call('POST', '/auth/telegram/', {
      // Other signed data (a minute older): each hash signs in once.
      payload: { login: signLoginWidget(tg.botToken, { user, authDate: Number(payload.login.auth_date) - 60 }) },
    });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().action).toBe('logged_in');
  });

  it('linking Google with it answers 401 and registers nobody', async () => {
    const owner = await registerAndConfirm(t);
    const reauth = (
      await call('POST', '/auth/reauth/', { access: owner.access, payload: { password: PASSWORD } })
    ).json().reauth as string;
    const token = `ya29.lapsed-${Date.now()}`;
    const email = uniqueEmail('google');
    google.profiles.set(token, { sub: `g-${Date.now()}`, email, email_verified: true });
    const refused = await call('POST', '/auth/google/', {
      access: lapsed(owner.access),
      payload: { access_token: token, reauth },
    });
    expect(refused.statusCode, refused.body).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'token_not_valid' });
    expect(await holdersOf('email', email)).toEqual([]);
    expect(await methodsOf(owner.access)).not.toContain('google');
  });

  it("the owner's e-mail change link opened with it answers 401, not wrong_account, and still works once renewed", async () => {
    const owner = await registerAndConfirm(t);
    const next = uniqueEmail('moved');
    const asked = await call('POST', '/auth/change-email/', {
      access: owner.access,
      payload: { new_email: next, password: PASSWORD },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const link = `/auth/confirm-email-change/${mailedToken(t, next, 'confirmEmailChange')}/?email=${encodeURIComponent(next)}`;
    const refused = await call('GET', link, { access: lapsed(owner.access) });
    expect(refused.statusCode, refused.body).toBe(401);
    expect(refused.json()).toMatchObject({ code: 'token_not_valid' });
    const confirmed = await call('GET', link, { access: owner.access });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // Another account's valid token is still the wrong account.
    const stranger = await registerAndConfirm(t);
    const third = uniqueEmail('again');
    const again = await call('POST', '/auth/change-email/', {
      access: owner.access,
      payload: { new_email: third, password: PASSWORD },
    });
    expect(again.statusCode, again.body).toBe(200);
    const link2 = `/auth/confirm-email-change/${mailedToken(t, third, 'confirmEmailChange')}/?email=${encodeURIComponent(third)}`;
    const wrong = await call('GET', link2, { access: stranger.access });
    expect(wrong.statusCode, wrong.body).toBe(403);
    expect(wrong.json()).toMatchObject({ code: 'wrong_account' });
  });
});
