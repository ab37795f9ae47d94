// Issue 25: a cold start on a signed-in page asks the server for the player's record once. The app
// fetches it at start-up, and /miner, /tasks and /profile each fetched it again when they opened:
// two /auth/me calls (and two renders of the record) for one page on a modest phone.
import { expect, test } from './fixtures';
import { apiAs, createEmailAccount, signInPage } from './helpers';

test.use({ serviceWorkers: 'block' });

const PAGES = [
  { path: '/miner', heading: 'Miner' },
  { path: '/tasks', heading: 'Quests' },
  { path: '/profile', heading: 'Profile' },
];

for (const { path, heading } of PAGES) {
  test(`a cold start on ${path} asks for the player's record once`, async ({ page, server }) => {
    const account = await createEmailAccount(server, `open${path.slice(1, 4)}${Date.now().toString(36).slice(-5)}`);
    // Its nickname and e-mail quests paid already: /tasks pays quests met on opening, and a payment
    // rightly asks for the new balance (a second call that is not the one this test is about).
    for (const check of ['check-username/', 'check-email-password/']) await apiAs(server, account, 'GET', check);
    await signInPage(page, account);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/v1/auth/me') asked.push(r.url());
    });
    await page.goto(path, { waitUntil: 'networkidle' });
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
    expect(asked).toHaveLength(1);
  });
}
