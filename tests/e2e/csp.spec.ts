// The built app under its real Content Security Policy: the inline script of index.html runs (its
// hash is allowed), Google's script loads when a dialog offers Google, and signing in reports no
// violation — a blocked script, style, font or fetch would show up as `securitypolicyviolation`.
import { expect, test } from './fixtures';
import { createEmailAccount } from './helpers';

test.use({ serverEnv: { GOOGLE_CLIENT_ID: 'pxt-e2e.apps.googleusercontent.com' } });

const GSI_STUB = 'window.google = { accounts: { oauth2: { initTokenClient: () => ({ requestAccessToken() {} }) } } };';

test('the built app loads and signs in with no CSP violation', async ({ page, server }) => {
  const violations: string[] = [];
  await page.exposeFunction('__pxtCspViolation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __pxtCspViolation: (v: string) => void }).__pxtCspViolation(
        `${e.effectiveDirective} ${e.blockedURI} ${e.sample}`,
      );
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  let gsiLoads = 0;
  await page.route('https://accounts.google.com/gsi/client', (route) => {
    gsiLoads++;
    return route.fulfill({ status: 200, contentType: 'text/javascript', body: GSI_STUB });
  });
  const account = await createEmailAccount(server, 'StrictCsp');

  const shell = await page.goto('/');
  const scriptSrc = /script-src ([^;]*)/.exec(shell!.headers()['content-security-policy'] ?? '')?.[1] ?? '';
  expect(scriptSrc).not.toContain("'unsafe-inline'");
  expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/]+=*'/);
  // index.html's inline scripts ran: they set the language and, a visitor's page being loaded, asked
  // for the translations (and the app) ahead of the first tap (src/lib/start-on-intent.ts).
  for (const ns of ['common', 'errors', 'landing'])
    await expect(page.locator(`head link[rel="prefetch"][href="/locales/en/${ns}.json"]`)).toHaveCount(1);

  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Continue with Google' })).toBeVisible();
  await expect.poll(() => gsiLoads).toBe(1);
  // The script was not only fetched but ran.
  await expect
    .poll(() => page.evaluate(() => typeof (window as unknown as { google?: unknown }).google))
    .toBe('object');
  await page.getByRole('button', { name: 'Continue with e-mail' }).click();
  const login = page.getByRole('dialog', { name: 'Log in' });
  await login.getByLabel('E-mail').fill(account.email);
  await login.getByLabel('Password', { exact: true }).fill(account.password);
  await login.getByRole('button', { name: 'Log in' }).click();
  await expect(login).toBeHidden();
  await expect(page.getByTestId('player-block')).toContainText('StrictCsp');
  await page.goto('/miner');
  await expect(page.getByTestId('player-block')).toContainText('StrictCsp');

  expect(violations).toEqual([]);
});
