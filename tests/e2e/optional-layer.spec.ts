// The PWA layer (update, install and offline notices, reminders) loads when the page is idle. When
// its chunk cannot arrive (offline before the service worker had it: content.spec's offline claim on
// a loaded CI machine), the page must go on without it, not turn into "Something went wrong".
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

test('a PWA layer that cannot load leaves the page working', async ({ page, server }) => {
  const account = await createEmailAccount(server, 'NoLayer');
  await signInPage(page, account);
  const refused: string[] = [];
  await page.route('**/assets/pwa-layer-*.js', (route) => {
    refused.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  await page.goto('/arcade');
  await expect.poll(() => refused.length).toBeGreaterThan(0);
  await expect(page.getByTestId('tier-1')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Something went wrong' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Blog' }).first().click();
  await expect(page.getByRole('heading', { level: 1, name: 'Blog' })).toBeVisible();
});
