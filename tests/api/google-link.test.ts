// decisions §13 with Google: linking Google to a signed-in account needs proof of the account (a
// stolen access token cannot add the thief's Google), and a linked Google account is a proof for
// /auth/reauth/ only when it is this account's own. A local stand-in speaks Google's tokeninfo and
// userinfo protocol.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, bearer, otherIp, PASSWORD, registerAndConfirm, uniqueEmail, walletLogin } from '../helpers/accounts';
import { type GoogleStandIn, startGoogleStandIn } from '../helpers/google-stand-in';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const CLIENT_ID = 'pxt-link-client.apps.googleusercontent.com';

describe.each(testDialects())('linking Google on %s', (dialect) => {
  let t: TestApp;
  let google: GoogleStandIn;
  let counter = 0;

  beforeAll(async () => {
    google = await startGoogleStandIn(CLIENT_ID);
    t = await createTestApp(dialect, google.env);
  });
  afterAll(async () => {
    await t.close();
    await google.close();
  });

  const googleToken = (email = uniqueEmail('g')) => {
    const token = `ya29.link-${dialect}-${++counter}`;
    google.profiles.set(token, { sub: `g-${dialect}-${counter}`, email, email_verified: true, name: 'Test' });
    return token;
  };
  const post = (url: string, payload: object, access?: string) =>
    t.app.inject({
      method: 'POST',
      url: `${API}${url}`,
      payload,
      headers: access ? bearer(access) : {},
      remoteAddress: otherIp(),
    });
  const methods = async (access: string) =>
    (
      (await t.app.inject({ method: 'GET', url: `${API}/auth/methods/`, headers: bearer(access) })).json().methods as {
        kind: string;
      }[]
    )
      .map((m) => m.kind)
      .sort();

  it("a bearer token alone cannot link the thief's Google; with the password it links, and Google then signs in", async () => {
    const owner = await registerAndConfirm(t);
    const thief = googleToken();
    const res = await post('/auth/google/', { access_token: thief }, owner.access);
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().code).toBe('reauth_required');
    expect(await methods(owner.access)).toEqual(['password']);

    const reauth = (await post('/auth/reauth/', { password: PASSWORD }, owner.access)).json().reauth as string;
    const mine = googleToken();
    const linked = await post('/auth/google/', { access_token: mine, reauth }, owner.access);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toEqual({ detail: expect.any(String), action: 'linked' });
    expect(await methods(owner.access)).toEqual(['google', 'password']);
    const signedIn = await post('/auth/google/', { access_token: mine });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().action).toBe('logged_in');
  });

  it("reauth with Google works only with the account's own Google account", async () => {
    const token = googleToken();
    const player = (await post('/auth/google/', { access_token: token })).json() as { access: string };
    expect((await post('/auth/reauth/', { access_token: googleToken() }, player.access)).statusCode).toBe(400);
    const ok = await post('/auth/reauth/', { access_token: token }, player.access);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ reauth: expect.any(String), expires_at: expect.any(String) });
    // A wallet account has no Google to prove with.
    const wallet = await walletLogin(t);
    expect((await post('/auth/reauth/', { access_token: token }, wallet.access)).statusCode).toBe(400);
  });
});
