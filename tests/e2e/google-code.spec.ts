// Google sign-in, code flow (spec §7): with GOOGLE_CLIENT_SECRET set the client asks Google's
// popup for an authorization code (GIS initCodeClient) and the server exchanges it at the token
// endpoint of the local Google stand-in, then checks the token behind it as in the token flow.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';

const CLIENT_ID = 'pxt-e2e.apps.googleusercontent.com';
const CLIENT_SECRET = 'GOCSPX-e2e-secret';
const exchanged: Record<string, string>[] = [];
const google = createServer(async (req, res) => {
  const url = new URL(req.url!, 'http://google.test');
  res.setHeader('content-type', 'application/json');
  if (url.pathname === '/token') {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const form = Object.fromEntries(new URLSearchParams(raw));
    exchanged.push(form);
    if (form.code !== 'google-auth-code' || form.client_secret !== CLIENT_SECRET)
      return void res.writeHead(400).end('{"error":"invalid_grant"}');
    return void res.end(
      JSON.stringify({
        access_token: 'google-access-token',
        id_token: 'h.p.s',
        token_type: 'Bearer',
        expires_in: 3599,
      }),
    );
  }
  const token = url.searchParams.get('access_token') ?? req.headers.authorization?.replace('Bearer ', '');
  if (token !== 'google-access-token') return void res.writeHead(401).end('{"error":"invalid_token"}');
  if (url.pathname === '/tokeninfo') return void res.end(JSON.stringify({ aud: CLIENT_ID, azp: CLIENT_ID }));
  res.end(
    JSON.stringify({ sub: 'g-code-1', email: 'code.google@example.com', email_verified: true, name: 'Code Google' }),
  );
});
await new Promise<void>((ok) => google.listen(0, '127.0.0.1', ok));
const googleBase = `http://127.0.0.1:${(google.address() as AddressInfo).port}`;
test.afterAll(() => google.close());

test.use({
  serverEnv: {
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_CLIENT_SECRET: CLIENT_SECRET,
    GOOGLE_TOKEN_URL: `${googleBase}/token`,
    GOOGLE_USERINFO_URL: `${googleBase}/userinfo`,
    GOOGLE_TOKENINFO_URL: `${googleBase}/tokeninfo`,
  },
});

/** GIS with only the code client: a client that asks for a token instead fails here. */
const gsiCodeStub = (code: string) => `
window.__gsiRequests = [];
window.google = { accounts: { oauth2: { initCodeClient(config) {
  return { requestCode() {
    window.__gsiRequests.push({ client_id: config.client_id, scope: config.scope, ux_mode: config.ux_mode });
    setTimeout(() => config.callback({ code: '${code}' }), 10);
  } };
} } } };`;

test('with a client secret, the player signs in through the code flow', async ({ page }) => {
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: gsiCodeStub('google-auth-code') }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/v1/auth/google/'));
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Continue with Google' })
    .click();
  expect((await sent).postDataJSON()).toEqual({ code: 'google-auth-code' });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('player-block')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __gsiRequests: unknown[] }).__gsiRequests)).toEqual([
    { client_id: CLIENT_ID, scope: 'openid profile email', ux_mode: 'popup' },
  ]);
  expect(exchanged.at(-1)).toMatchObject({
    code: 'google-auth-code',
    client_id: CLIENT_ID,
    grant_type: 'authorization_code',
    redirect_uri: 'postmessage',
  });
});

test('a code Google does not exchange is refused with the catalogue text', async ({ page }) => {
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: gsiCodeStub('stale-code') }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter the PXT universe' });
  await dialog.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Failed to login with Google');
});
