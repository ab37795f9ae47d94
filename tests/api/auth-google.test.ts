import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, bearer, mailedToken, otherIp, PASSWORD, registerAndConfirm, uniqueEmail } from '../helpers/accounts';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

/** What the fake userinfo endpoint answers for each access token. */
type Answer = { status: number; body: unknown } | 'hang-up' | 'not-json';

const CLIENT_ID = 'pxt-test-client.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-test-secret';

describe.each(testDialects())('Google sign-in on %s', (dialect) => {
  let t: TestApp;
  let server: Server;
  const answers = new Map<string, Answer>();
  /** Tokens the fake Google issued to another app (tokeninfo names that app as the audience). */
  const foreignTokens = new Set<string>();
  /** Authorization codes the fake Google's token endpoint exchanges, for the access token it hands out. */
  const codes = new Map<string, string>();
  /** The forms the token endpoint received. */
  const exchanges: Record<string, string>[] = [];
  let tokenCounter = 0;
  let port = 0;

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/token') {
        // Google's token endpoint: a form POST; a code is good once, with our client and secret.
        let raw = '';
        for await (const chunk of req) raw += chunk;
        const form = Object.fromEntries(new URLSearchParams(raw));
        exchanges.push(form);
        const token = codes.get(form.code ?? '');
        const ours =
          req.method === 'POST' &&
          form.client_id === CLIENT_ID &&
          form.client_secret === CLIENT_SECRET &&
          form.grant_type === 'authorization_code' &&
          form.redirect_uri === 'postmessage';
        if (!token || !ours)
          return res
            .writeHead(400, { 'content-type': 'application/json' })
            .end('{"error":"invalid_grant","error_description":"Bad Request"}');
        codes.delete(form.code!);
        return res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            access_token: token,
            id_token: 'header.payload.signature',
            expires_in: 3599,
            token_type: 'Bearer',
            scope: 'openid email profile',
          }),
        );
      }
      if (url.pathname === '/tokeninfo') {
        const token = url.searchParams.get('access_token') ?? '';
        if (!answers.has(token))
          return res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_token"}');
        const aud = foreignTokens.has(token) ? 'someone-elses-app' : CLIENT_ID;
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ aud, azp: aud, scope: 'openid email profile' }));
      }
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
      const answer = answers.get(token) ?? { status: 401, body: { error: 'invalid_token' } };
      if (answer === 'hang-up') return req.socket.destroy();
      if (answer === 'not-json') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>oops</html>');
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    t = await createTestApp(dialect, googleEnv());
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const googleEnv = () => ({
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_USERINFO_URL: `http://127.0.0.1:${port}/v1/userinfo`,
    GOOGLE_TOKENINFO_URL: `http://127.0.0.1:${port}/tokeninfo`,
  });

  /** A token the fake Google knows, for this profile. */
  function googleToken(profile: Record<string, unknown> | Answer): string {
    const token = `ya29.token-${++tokenCounter}`;
    answers.set(
      token,
      typeof profile === 'string' || 'status' in profile ? (profile as Answer) : { status: 200, body: profile },
    );
    return token;
  }
  let sub = 0;
  const profile = (email: string, extra: Record<string, unknown> = {}) => ({
    sub: `google-${dialect}-${++sub}`,
    email,
    email_verified: true,
    name: 'Test',
    ...extra,
  });
  const signIn = (access_token: string) =>
    t.app.inject({ method: 'POST', url: `${API}/auth/google/`, payload: { access_token }, remoteAddress: otherIp() });
  const me = async (access: string) =>
    (await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) })).json();
  const failed = (res: { statusCode: number; json(): { detail: string } }) => {
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Failed to login with Google');
  };

  it('registers a new player with a free generated username and a confirmed e-mail, then logs them in', async () => {
    const p = profile(uniqueEmail('Jane.Doe').replace(/^[^@]+/, 'Jane.Doe+x'));
    const first = await signIn(googleToken(p));
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({ action: 'registered' });
    expect(body.username).toMatch(/^[A-Za-z0-9_]{5,15}$/);
    expect(body.username).toMatch(/^janedoex\d*$/);
    const record = await me(body.access);
    expect(record).toMatchObject({ email: p.email.toLowerCase(), username: body.username, password_set: false });

    const again = await signIn(googleToken(p));
    expect(again.json()).toMatchObject({ action: 'logged_in', username: body.username });
    // decisions §13: every sign-in also answers the browser's known-device string.
    expect(Object.keys(again.json()).sort()).toEqual(['access', 'action', 'device', 'refresh', 'username']);
  });

  it('gives every new player a distinct username, also for short or odd local parts', async () => {
    const names = new Set<string>();
    for (const local of ['ab', 'ab', 'ab', 'x.y-z', '____', 'émile']) {
      const res = await signIn(googleToken(profile(`${local}@${dialect}-${sub}.example.com`)));
      expect(res.statusCode).toBe(200);
      const { username } = res.json();
      expect(username.length).toBeGreaterThanOrEqual(5);
      expect(username.length).toBeLessThanOrEqual(15);
      names.add(username.toLowerCase());
    }
    expect(names.size).toBe(6);
  });

  it('links to the existing account with that e-mail', async () => {
    const { email, access } = await registerAndConfirm(t);
    const res = await signIn(googleToken(profile(email.toUpperCase())));
    expect(res.statusCode).toBe(200);
    expect(res.json().action).toBe('logged_in');
    const viaGoogle = await me(res.json().access);
    const viaPassword = await me(access);
    expect(viaGoogle).toEqual(viaPassword);
    const row = await t.app.db
      .selectFrom('users')
      .select('google_sub')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.google_sub).toMatch(/^google-/);
    // The password still works after linking.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `${API}/auth/login-by-email/`,
          payload: { email, password: PASSWORD },
          remoteAddress: otherIp(),
        })
      ).statusCode,
    ).toBe(200);
  });

  it('takes over a never-confirmed registration of that address and drops its unproven password', async () => {
    const email = uniqueEmail('squat');
    await t.app.inject({
      method: 'POST',
      url: `${API}/auth/register/`,
      payload: { email, password: PASSWORD, confirm_password: PASSWORD },
      remoteAddress: otherIp(),
    });
    const res = await signIn(googleToken(profile(email)));
    expect(res.json().action).toBe('logged_in');
    expect((await me(res.json().access)).password_set).toBe(false);
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login-by-email/`,
      payload: { email, password: PASSWORD },
      remoteAddress: otherIp(),
    });
    expect(login.statusCode).toBe(400);
    // The registration's link carries the squatter's password: it is void once Google proved the address.
    const link = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/confirm-email/${mailedToken(t, email, 'confirmRegistration')}/`,
    });
    expect(link.json().code).toBe('invalid_token');
    expect((await me(res.json().access)).password_set).toBe(false);
  });

  it('refuses an unverified e-mail, a rejected token, a broken answer and a failed connection, never with a 5xx', async () => {
    failed(await signIn(googleToken(profile(uniqueEmail(), { email_verified: false }))));
    failed(await signIn(googleToken(profile(uniqueEmail(), { email_verified: undefined }))));
    failed(await signIn('unknown-token'));
    failed(await signIn(googleToken({ status: 500, body: { error: 'server' } })));
    failed(await signIn(googleToken('not-json')));
    failed(await signIn(googleToken('hang-up')));
    failed(await signIn(googleToken({ status: 200, body: { sub: 'x', email: 'not-an-email', email_verified: true } })));
    failed(await signIn(googleToken({ status: 200, body: [1, 2] })));
    const unverified = await signIn(googleToken(profile(uniqueEmail(), { email_verified: false })));
    expect(unverified.json().code).toBe('google_email_not_verified');
  });

  it('refuses a second Google account for an e-mail already linked to another', async () => {
    const email = uniqueEmail('linked');
    expect((await signIn(googleToken(profile(email)))).statusCode).toBe(200);
    failed(await signIn(googleToken(profile(email))));
  });

  it('reports a userinfo endpoint that cannot be reached as a refusal', async () => {
    const other = await createTestApp(dialect, { ...googleEnv(), GOOGLE_USERINFO_URL: 'http://127.0.0.1:9/userinfo' });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `${API}/auth/google/`,
        payload: { access_token: googleToken(profile(uniqueEmail())) },
      });
      failed(res);
    } finally {
      await other.close();
    }
  });

  it('refuses a token Google issued to another app, even with a valid profile behind it', async () => {
    const token = googleToken(profile(uniqueEmail('foreign')));
    foreignTokens.add(token);
    const res = await signIn(token);
    failed(res);
    expect(res.json().code).toBe('google_wrong_audience');
  });

  it('refuses Google sign-in when the server has no Google client id', async () => {
    const { GOOGLE_CLIENT_ID: _unused, ...withoutClient } = googleEnv();
    const other = await createTestApp(dialect, withoutClient);
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: `${API}/auth/google/`,
        payload: { access_token: googleToken(profile(uniqueEmail())) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('google_not_configured');
    } finally {
      await other.close();
    }
  });

  describe('code flow (GOOGLE_CLIENT_SECRET set)', () => {
    let coded: TestApp;
    beforeAll(async () => {
      coded = await createTestApp(dialect, {
        ...googleEnv(),
        GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
        GOOGLE_TOKEN_URL: `http://127.0.0.1:${port}/token`,
      });
    });
    afterAll(() => coded.close());
    let codeCounter = 0;
    /** A code the fake Google exchanges for a token behind this profile (or answer). */
    const googleCode = (p: Record<string, unknown> | Answer) => {
      const code = `4/0A-code-${dialect}-${++codeCounter}`;
      codes.set(code, googleToken(p));
      return code;
    };
    const withCode = (app: TestApp, code: unknown) =>
      app.app.inject({ method: 'POST', url: `${API}/auth/google/`, payload: { code }, remoteAddress: otherIp() });

    it('tells the client to use the code flow', async () => {
      expect((await coded.app.inject({ method: 'GET', url: `${API}/config/` })).json().google_code_flow).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: `${API}/config/` })).json().google_code_flow).toBe(false);
    });

    it('exchanges the code with the client secret, then registers and logs in like the token flow', async () => {
      const p = profile(uniqueEmail('coded'));
      const first = await withCode(coded, googleCode(p));
      expect(first.statusCode).toBe(200);
      expect(first.json()).toMatchObject({ action: 'registered' });
      expect(exchanges.at(-1)).toMatchObject({
        grant_type: 'authorization_code',
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uri: 'postmessage',
      });
      const record = (
        await coded.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(first.json().access) })
      ).json();
      expect(record).toMatchObject({ email: p.email.toLowerCase(), username: first.json().username });
      const again = await withCode(coded, googleCode(p));
      expect(again.json()).toMatchObject({ action: 'logged_in', username: first.json().username });
      // The token flow still works on a server with a secret.
      expect(
        (
          await coded.app.inject({
            method: 'POST',
            url: `${API}/auth/google/`,
            payload: { access_token: googleToken(p) },
            remoteAddress: otherIp(),
          })
        ).json().action,
      ).toBe('logged_in');
    });

    it('refuses a bad, reused or foreign code and what the token behind it fails, with a 4xx, never a 5xx', async () => {
      failed(await withCode(coded, 'not-a-code-google-issued'));
      const once = googleCode(profile(uniqueEmail('once')));
      expect((await withCode(coded, once)).statusCode).toBe(200);
      failed(await withCode(coded, once));
      // The token behind the code is checked like the token flow's: verified e-mail, audience.
      const unverified = await withCode(coded, googleCode(profile(uniqueEmail(), { email_verified: false })));
      failed(unverified);
      expect(unverified.json().code).toBe('google_email_not_verified');
      const foreign = googleCode(profile(uniqueEmail('foreign-code')));
      foreignTokens.add(codes.get(foreign)!);
      expect((await withCode(coded, foreign)).json().code).toBe('google_wrong_audience');
      for (const junk of ['', 'x'.repeat(3000), 42, null]) {
        const res = await withCode(coded, junk);
        expect(res.statusCode).toBe(400);
      }
      const neither = await coded.app.inject({
        method: 'POST',
        url: `${API}/auth/google/`,
        payload: {},
        remoteAddress: otherIp(),
      });
      expect(neither.statusCode).toBe(400);
    });

    it('refuses when the token endpoint cannot be reached, and a code when no secret is set', async () => {
      const down = await createTestApp(dialect, {
        ...googleEnv(),
        GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
        GOOGLE_TOKEN_URL: 'http://127.0.0.1:9/token',
      });
      try {
        failed(await withCode(down, googleCode(profile(uniqueEmail()))));
      } finally {
        await down.close();
      }
      const res = await withCode(t, googleCode(profile(uniqueEmail())));
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('google_code_flow_not_configured');
    });
  });

  it('creates one account when the same new Google player signs in twice at once', async () => {
    const p = profile(uniqueEmail('twice'));
    const results = await Promise.all([signIn(googleToken(p)), signIn(googleToken(p))]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(results.map((r) => r.json().action).sort()).toEqual(['logged_in', 'registered']);
    expect(await t.app.db.selectFrom('users').select('id').where('google_sub', '=', p.sub).execute()).toHaveLength(1);
  });

  it('many sign-ins of one new Google player at once: one account, every answer a sign-in, none refused', async () => {
    // A racing sign-in can commit the account between another one's two reads (by Google id, then by
    // e-mail): the second read then found "another Google account on this e-mail" and answered 400.
    for (let round = 0; round < 6; round++) {
      const p = profile(uniqueEmail(`crowd${round}`));
      const results = await Promise.all(Array.from({ length: 8 }, () => signIn(googleToken(p))));
      expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
      expect(results.filter((r) => r.json().action === 'registered')).toHaveLength(1);
      expect(await t.app.db.selectFrom('users').select('id').where('google_sub', '=', p.sub).execute()).toHaveLength(1);
    }
  });

  it('counts new Google accounts against the sign-up limit of the client address; signing in again is not one', async () => {
    const limited = await createTestApp(dialect, { ...googleEnv(), SIGNUP_LIMIT_PER_HOUR: '2' });
    try {
      const ip = '198.51.100.40';
      const signInAt = (token: string, remoteAddress = ip) =>
        limited.app.inject({
          method: 'POST',
          url: `${API}/auth/google/`,
          payload: { access_token: token },
          remoteAddress,
        });
      const known = profile(uniqueEmail('limit'));
      expect((await signInAt(googleToken(known))).json().action).toBe('registered');
      expect((await signInAt(googleToken(profile(uniqueEmail('limit'))))).statusCode).toBe(200);
      const refused = await signInAt(googleToken(profile(uniqueEmail('limit'))));
      expect(refused.statusCode).toBe(429);
      expect(refused.json().code).toBe('throttled');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect((await signInAt(googleToken(known))).json().action).toBe('logged_in');
      expect((await signInAt(googleToken(profile(uniqueEmail('limit'))), '198.51.100.41')).json().action).toBe(
        'registered',
      );
    } finally {
      await limited.close();
    }
  });
});
