// Google sign-in against a stand-in for Google: the Identity Services script is answered by a stub
// (no internet here), and the server checks the token against a local tokeninfo/userinfo service.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';

const CLIENT_ID = 'pxt-e2e.apps.googleusercontent.com';
const google = createServer((req, res) => {
  const url = new URL(req.url!, 'http://google.test');
  const token = url.searchParams.get('access_token') ?? req.headers.authorization?.replace('Bearer ', '');
  res.setHeader('content-type', 'application/json');
  if (token !== 'google-access-token') return void res.writeHead(401).end('{"error":"invalid_token"}');
  if (url.pathname === '/tokeninfo') return void res.end(JSON.stringify({ aud: CLIENT_ID, azp: CLIENT_ID }));
  res.end(
    JSON.stringify({ sub: 'g-123456', email: 'neon.google@example.com', email_verified: true, name: 'Neon Google' }),
  );
});
await new Promise<void>((ok) => google.listen(0, '127.0.0.1', ok));
const googleBase = `http://127.0.0.1:${(google.address() as AddressInfo).port}`;
test.afterAll(() => google.close());

test.use({
  serverEnv: {
    GOOGLE_CLIENT_ID: CLIENT_ID,
    GOOGLE_USERINFO_URL: `${googleBase}/userinfo`,
    GOOGLE_TOKENINFO_URL: `${googleBase}/tokeninfo`,
  },
});

const GSI_STUB = `
window.__gsiRequests = [];
window.google = { accounts: { oauth2: { initTokenClient(config) {
  return { requestAccessToken() {
    window.__gsiRequests.push({ client_id: config.client_id, scope: config.scope });
    setTimeout(() => config.callback({ access_token: 'google-access-token' }), 10);
  } };
} } } };`;

test('Google sign-in: a new player is registered with the generated username and the referral link, then signed in', async ({
  page,
  baseURL,
}) => {
  let gsiLoads = 0;
  await page.route('https://accounts.google.com/gsi/client', (route) => {
    gsiLoads++;
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: GSI_STUB });
  });
  await page.goto('/?refCode=crew77');
  expect(gsiLoads).toBe(0); // loaded only when a dialog offering Google opens

  await page.getByRole('button', { name: 'Connect' }).click();
  const completion = page.waitForRequest(
    (r) => r.url().endsWith('/api/v1/auth/complete-registration/') && r.method() === 'PATCH',
  );
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Continue with Google' })
    .click();
  const body = (await completion).postDataJSON() as { username: string; referral_link: string };
  expect(body.referral_link).toBe(`${baseURL}/?refCode=crew77`);
  expect(body.username.length).toBeGreaterThanOrEqual(5);

  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('player-block')).toContainText(body.username);
  expect(gsiLoads).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { __gsiRequests: unknown[] }).__gsiRequests)).toEqual([
    { client_id: CLIENT_ID, scope: 'openid profile email' },
  ]);
});

test('a token Google does not vouch for is refused with the catalogue text', async ({ page }) => {
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: GSI_STUB.replace("'google-access-token'", "'forged-token'"),
    }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enter the PXT universe' });
  await dialog.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Failed to login with Google');
});

type TokenAnswer = { access_token?: string; error?: string; error_description?: string };
/** Replaces the loaded stub: Google answers `answer`, or (null) never answers (popup closed). */
function googleAnswers(answer: TokenAnswer | null) {
  type Config = { callback(r: TokenAnswer): void; error_callback(e: { type: string; message: string }): void };
  (window as unknown as { google: unknown }).google = {
    accounts: {
      oauth2: {
        initTokenClient: (config: Config) => ({
          requestAccessToken: () =>
            setTimeout(
              () =>
                answer
                  ? config.callback(answer)
                  : config.error_callback({ type: 'popup_closed', message: 'Popup window closed' }),
              10,
            ),
        }),
      },
    },
  };
}

test('Google errors show in the dialog that holds the button, with the catalogue texts (spec §8)', async ({ page }) => {
  await page.route('https://accounts.google.com/gsi/client', (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/javascript',
      body: GSI_STUB.replace("'google-access-token'", "'forged-token'"),
    }),
  );
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Continue with e-mail' })
    .click();
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByRole('button', { name: 'Continue with Google' }).click();
  // Our server refused the token: its catalogue text, in the Login (e-mail) dialog itself.
  await expect(login.getByRole('alert')).toHaveText('Failed to login with Google');

  // Google refused without a description, then with one: shown in the same dialog.
  await page.evaluate(googleAnswers, { error: 'access_denied' });
  await login.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(login.getByRole('alert')).toHaveText('Google auth error');
  await page.evaluate(googleAnswers, { error: 'access_denied', error_description: 'The user denied access' });
  await login.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(login.getByRole('alert')).toHaveText('The user denied access');

  // Google never answered (popup closed): 'Google login failed', here in the main login.
  await login.getByRole('button', { name: 'Go back' }).click();
  const main = page.getByRole('dialog', { name: 'Enter the PXT universe' });
  await page.evaluate(googleAnswers, null);
  await main.getByRole('button', { name: 'Continue with Google' }).click();
  await expect(main.getByRole('alert')).toHaveText('Google login failed');
});
