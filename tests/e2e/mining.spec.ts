// The mining client against the real server with short sessions: start, the live countdown, the
// welcome 1-hour boost through the force_apply question, the claim paying the session's reward,
// a claim made offline waiting in the outbox, the Gems top-up, the mining shop and the Auto Miner.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';

const SESSION_SECONDS = 20;
test.use({ serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS), WORKER_INTERVAL_MS: '500' } });
test.describe.configure({ timeout: 120_000 });

/** A displayed PXT amount ('0.009166 PXT', '0.000000') as a number. */
const amount = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

async function openMiner(page: Page) {
  await page.goto('/miner');
  await expect(page.getByRole('heading', { level: 1, name: 'Miner' })).toBeVisible();
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
}

async function waitForClaim(page: Page) {
  // The session is SESSION_SECONDS long: wait for the countdown to end and Claim to open.
  await expect(page.getByTestId('miner-status')).toHaveText('Ready to claim', {
    timeout: (SESSION_SECONDS + 15) * 1000,
  });
  await expect(page.getByRole('button', { name: 'Claim', exact: true })).toBeEnabled();
}

test('start, boost with the force_apply question, watch the countdown, claim the reward', async ({ page, server }) => {
  const account = await createEmailAccount(server, 'minerOne');
  await signInPage(page, account);
  await openMiner(page);
  await expect(page.getByTestId('balance-pxt')).toHaveText('0.000000');

  await page.getByRole('button', { name: 'Start mining' }).click();
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  const claimButton = page.getByRole('button', { name: 'Claim', exact: true });
  await expect(claimButton).toBeDisabled();

  // The countdown moves.
  const countdown = page.getByTestId('countdown');
  const first = await countdown.textContent();
  expect(first).toMatch(/^00:00:\d\d$/);
  await expect(countdown).not.toHaveText(first!);

  // The welcome 1-hour boost is longer than the 20-second session: the server asks first.
  await page.getByRole('button', { name: 'Use a boost' }).click();
  const select = page.getByRole('dialog', { name: '2x boosts' });
  await expect(select.getByTestId('boost-row-1')).toContainText('Owned: 1');
  await select.getByRole('button', { name: 'Use a 1 h boost' }).click();
  // First the Notice of spec §4 (no way to apply from it), then the confirmation with the server's
  // message and efficiency; Cancel there closes without applying.
  const notice = page.getByRole('dialog', { name: 'Boost longer than the session' });
  await expect(notice).toContainText(
    'The 1 h boost lasts longer than the time left in this mining session. Unused boost time expires.',
  );
  await expect(notice.getByRole('button', { name: 'Use it anyway' })).toHaveCount(0);
  await notice.getByRole('button', { name: 'Continue' }).click();
  let confirmation = page.getByRole('dialog', { name: 'Use the boost now?' });
  await expect(notice).toBeHidden();
  await expect(confirmation.getByTestId('boost-message')).toHaveText(
    'The boost lasts longer than the time left in this mining session. Unused boost time expires.',
  );
  await expect(confirmation.getByTestId('boost-efficiency')).toHaveText(/^Only \d+% of the boost will count\.$/);
  await confirmation.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('temporary-boost-state')).not.toContainText('Active until');

  await page.getByRole('button', { name: 'Use a boost' }).click();
  await page.getByRole('dialog', { name: '2x boosts' }).getByRole('button', { name: 'Use a 1 h boost' }).click();
  await notice.getByRole('button', { name: 'Continue' }).click();
  confirmation = page.getByRole('dialog', { name: 'Use the boost now?' });
  await confirmation.getByRole('button', { name: 'Use it anyway' }).click();
  await expect(confirmation).toBeHidden();
  await expect(page.getByTestId('temporary-boost-state')).toContainText('Active until');

  // The session now pays more than the plain 20 s at 1 PXT/h.
  const pays = page.getByTestId('session-pays');
  await expect.poll(async () => amount(await pays.textContent())).toBeGreaterThan(SESSION_SECONDS / 3600);
  const reward = amount(await pays.textContent());

  await waitForClaim(page);
  await claimButton.click();
  await expect(page.getByText(/\+[\d.]+ PXT claimed/)).toBeVisible();
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  await expect.poll(async () => amount(await page.getByTestId('balance-pxt').textContent())).toBeCloseTo(reward, 6);
  await page.screenshot({ path: '/tmp/mining-miner-desktop.png', fullPage: true });

  // The boost was used up.
  await page.getByRole('button', { name: 'Use a boost' }).click();
  await expect(page.getByRole('dialog', { name: '2x boosts' }).getByTestId('boost-row-1')).toContainText('Owned: 0');
});

test('a claim made offline waits in the outbox and is paid once back online', async ({ page, context, server }) => {
  const account = await createEmailAccount(server, 'minerTwo');
  await signInPage(page, account);
  await openMiner(page);
  await page.getByRole('button', { name: 'Start mining' }).click();
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  const reward = amount(await page.getByTestId('session-pays').textContent());
  expect(reward).toBeGreaterThan(0);
  await waitForClaim(page);

  await context.setOffline(true);
  await expect(page.getByTestId('offline-banner')).toContainText('You are offline');
  await page.getByRole('button', { name: 'Claim', exact: true }).click();
  const pending = page.getByRole('button', { name: 'Claim queued' });
  await expect(pending).toBeVisible();
  await expect(pending).toBeDisabled();
  // The countdown and the balances stay on screen from Dexie.
  await expect(page.getByTestId('countdown')).toHaveText('00:00:00');
  await expect(page.getByTestId('balance-pxt')).toHaveText('0.000000');

  await context.setOffline(false);
  await expect(pending).toBeHidden();
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  await expect.poll(async () => amount(await page.getByTestId('balance-pxt').textContent())).toBeCloseTo(reward, 6);

  // Paid once: the server's record agrees after a reload.
  await page.reload();
  await expect.poll(async () => amount(await page.getByTestId('balance-pxt').textContent())).toBeCloseTo(reward, 6);
});

test('top up Gems, buy a boost in the mining shop, subscribe to the Auto Miner once the Gems suffice', async ({
  page,
  server,
}) => {
  const account = await createEmailAccount(server, 'minerShop');
  await signInPage(page, account);
  await page.goto('/mining');
  await expect(page.getByRole('heading', { level: 1, name: 'Mining shop' })).toBeVisible();
  await expect(page.getByTestId('balance-gems')).toHaveText('0');
  await expect(page.getByTestId('shop-item-12')).toContainText('35 Gems');
  await expect(page.getByTestId('owned-1')).toHaveText('Owned: 1');

  // Not enough Gems: the shop says so before asking the server.
  await page.getByRole('button', { name: 'Buy a 1 h boost for 5 Gems' }).click();
  await expect(page.getByText('Not enough Gems: this boost costs 5.')).toBeVisible();

  // …and offers the top-up right there.
  await page.getByRole('alert').getByRole('button', { name: 'Top up' }).click();
  const topUp = page.getByRole('dialog', { name: 'Top up balance' });
  await expect(topUp).toContainText('50 Gems');
  await expect(topUp).toContainText('$4.99');
  const methods = topUp.getByRole('group', { name: 'Payment method' });
  await expect(methods.getByRole('radio')).toHaveCount(3);
  await methods.getByRole('radio', { name: 'SBP' }).check();
  await expect(methods.getByRole('radio', { name: 'SBP' })).toBeChecked();
  await topUp.getByRole('button', { name: 'Pay now' }).click();
  await expect(topUp).toContainText('+50 Gems');
  await topUp.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('balance-gems')).toHaveText('50');

  await page.getByRole('button', { name: 'Buy a 1 h boost for 5 Gems' }).click();
  await expect(page.getByText('Bought: a 1 h boost')).toBeVisible();
  await expect(page.getByTestId('balance-gems')).toHaveText('45');
  await expect(page.getByTestId('owned-1')).toHaveText('Owned: 2');
  await page.screenshot({ path: '/tmp/mining-shop-desktop.png', fullPage: true });

  // The Auto Miner costs 150 Gems: a clear message and the way to top up.
  await page.goto('/miner');
  await page.getByRole('button', { name: 'Subscribe' }).click();
  const auto = page.getByRole('dialog', { name: 'Auto Miner' });
  // Issue 16: what is missing, as progress rather than a red refusal.
  await expect(auto.getByTestId('auto-miner-progress')).toHaveText(
    'You have 45 of 150 Gems: 105 more and you can subscribe.',
  );
  // 105 Gems are missing: ONE order of 3 × 50 Gems, and the subscription once it is paid.
  await auto.getByRole('button', { name: 'Buy 150 Gems and subscribe' }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up balance' });
  await expect(dialog.getByLabel('Quantity')).toHaveValue('3');
  await expect(dialog.getByTestId('top-up-total')).toHaveText('150 Gems for $14.97');
  await dialog.getByRole('button', { name: 'Pay now' }).click();
  await expect(dialog).toContainText('+150 Gems');
  await expect(dialog).toContainText('The Auto Miner took 150 Gems and is on until');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('auto-miner-state')).toContainText('Active until');
  await expect(page.getByTestId('balance-gems')).toHaveText('45');
  // The period bought opens its detail (GET /subscriptions/{id}/).
  await page.getByRole('button', { name: /^Details of the period / }).click();
  const period = page.getByTestId('subscription-detail');
  await expect(period.getByRole('heading', { name: 'Auto Miner period' })).toBeVisible();
  await expect(period).toContainText('150 Gems');
  await expect(period).toContainText('Active');
  await period.getByRole('button', { name: 'Close' }).click();
  await expect(period).toHaveCount(0);
  // No session was running, so the Auto Miner started one; when it ends the server claims it and
  // starts the next, and the page fetches that by itself.
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  await expect
    .poll(async () => amount(await page.getByTestId('balance-pxt').textContent()), {
      timeout: (SESSION_SECONDS + 25) * 1000,
    })
    .toBeGreaterThan(0);
  // The balance and the sessions are read side by side: the balance may show the claim while the
  // sessions answer came just before it, and the page asks again every 6 s (refresh-when-ended.ts).
  await expect(page.getByTestId('miner-status')).toHaveText('Mining', { timeout: 15_000 });
});

test("select a boost before the start, then the guide's last step starts mining with it", async ({ page, server }) => {
  const account = await createEmailAccount(server, 'minerGuide');
  await signInPage(page, account);

  // /boost lists the temporary boosts; with no session, Use selects the boost for the next start.
  await page.goto('/boost');
  await expect(page.getByRole('heading', { level: 1, name: 'Boosts' })).toBeVisible();
  await expect(page.getByTestId('task-boost-total')).toHaveText('+0%');
  await expect(page.getByTestId('temp-boost-1')).toContainText('Owned: 1');
  await page.getByTestId('temp-boost-1').getByRole('button', { name: 'Use a 1 h boost' }).click();
  const select = page.getByRole('dialog', { name: '2x boosts' });
  await expect(select).toContainText('No session is running');
  await select.getByRole('button', { name: 'Use a 1 h boost' }).click();
  await expect(select).toContainText('Selected: your 1 h boost starts with your next session.');
  await expect(select.getByTestId('boost-row-1')).toContainText('Selected: 1');
  await page.keyboard.press('Escape');
  await expect(select).toBeHidden();

  // No referrals yet: the claim is not offered, and the card says why (issue 16).
  await expect(page.getByRole('button', { name: 'Claim referral boosts' })).toBeDisabled();
  await expect(page.getByTestId('referral-boost-waiting')).toHaveText(
    'Nothing to claim yet: a friend counts once they claim their first mining session.',
  );

  // The guide: 5 steps, back/next/dots, reset to step 1 on every opening.
  await page.goto('/miner');
  await page.getByRole('button', { name: 'How mining works' }).click();
  const guide = page.getByRole('dialog', { name: 'Mining guide' });
  await expect(guide).toContainText('Step 1 of 5');
  await expect(guide.getByRole('button', { name: 'Back' })).toBeDisabled();
  await guide.getByRole('button', { name: 'Next' }).click();
  await guide.getByRole('button', { name: 'Next' }).click();
  await expect(guide).toContainText('Step 3 of 5');
  await expect(guide.getByRole('button', { name: 'Go to step 3' })).toHaveAttribute('aria-current', 'step');
  await guide.getByRole('button', { name: 'Back' }).click();
  await expect(guide).toContainText('Step 2 of 5');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'How mining works' }).click();
  await expect(guide).toContainText('Step 1 of 5');
  await guide.getByRole('button', { name: 'Go to step 5' }).click();
  await expect(guide).toContainText('Step 5 of 5');
  await expect(guide.getByRole('button', { name: 'Next' })).toHaveCount(0);
  await guide.getByRole('button', { name: 'Earn PXT' }).click();
  await expect(guide).toBeHidden();

  // Mining started, and the selected boost was applied at the start.
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  await expect(page.getByTestId('temporary-boost-state')).toContainText('Active until');
  await expect(page.getByTestId('current-rate')).toHaveText('2 PXT/h');
});
