// A phone that says it is online but carries nothing back (a tunnel, one bar, a portal's login
// page): the claim reaches the server, which pays it, and the answer never arrives. The call gives
// up after API_TIMEOUT_MS instead of spinning for minutes, waits in the outbox with its key, and the
// player's "Try again" is answered from the server's idempotency store: paid once.
import { API_TIMEOUT_MS } from '@shared/constants';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

const SESSION_SECONDS = 15;
// Without a service worker nothing replays by itself (no Background Sync): the player's tap does.
test.use({
  serviceWorkers: 'block',
  serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS), WORKER_INTERVAL_MS: '500' },
});
test.describe.configure({ timeout: 120_000 });

const amount = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

test('a claim whose answer never comes is queued after the timeout and paid once on "Try again"', async ({
  page,
  server,
}) => {
  const account = await createEmailAccount(server, 'tunnelMiner');
  await signInPage(page, account);
  await page.goto('/miner');
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  await page.getByRole('button', { name: 'Start mining' }).click();
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  const reward = amount(await page.getByTestId('session-pays').textContent());
  expect(reward).toBeGreaterThan(0);
  await expect(page.getByTestId('miner-status')).toHaveText('Ready to claim', {
    timeout: (SESSION_SECONDS + 15) * 1000,
  });

  // The first claim reaches the server and its answer is dropped on the way back; later ones pass.
  const keys: string[] = [];
  const paid: number[] = [];
  await page.route('**/api/v1/mining/claim/**', async (route) => {
    keys.push(route.request().headers()['idempotency-key']);
    if (keys.length > 1) return route.continue();
    paid.push((await route.fetch()).status());
    // Never fulfilled: the page's fetch waits as it would on a dead connection.
  });
  // Timers from here on run on a clock the test moves; time still flows as usual.
  await page.clock.install();
  await page.getByRole('button', { name: 'Claim', exact: true }).click();
  await expect.poll(() => paid).toEqual([200]);
  await expect(page.getByRole('button', { name: 'Claim', exact: true })).toBeDisabled();

  await page.clock.fastForward(API_TIMEOUT_MS);
  await expect(page.getByRole('button', { name: 'Claim queued' })).toBeVisible();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toContainText('The server cannot be reached');
  await expect(page.getByTestId('pending-calls')).toHaveText('Waiting to be sent: 1');

  await banner.getByRole('button', { name: 'Try again' }).click();
  await expect(banner).toBeHidden();
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  await expect.poll(async () => amount(await page.getByTestId('balance-pxt').textContent())).toBeCloseTo(reward, 6);
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);

  // Paid once: the server's own record.
  const me = await fetch(`${server.baseURL}/api/v1/auth/me/`, {
    headers: { authorization: `Bearer ${account.access}` },
  });
  expect(((await me.json()) as { token: number }).token).toBeCloseTo(reward, 6);
});
