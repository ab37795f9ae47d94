// Buying Gems in the browser (decisions §8) against real counterparts: USDT on a local anvil node
// (the tests' 6-decimal ERC-20 deployed there) paid from an injected wallet that signs with viem,
// and a card through the local Stripe stand-in with a webhook signed by the `stripe` package. The
// server runs with the USDT and Stripe settings and without the test provider, so sbp is shown
// disabled with its reason. Each payment adds 50 Gems exactly once: in the page, in the order list
// of the API and in the ledger.
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { OrdersPage } from '@shared/api/payments';
import { type AnvilNode, startAnvil, USDT, usdtEnv } from '../helpers/anvil';
import { startStripeStandIn, type StripeStandIn } from '../helpers/stripe-stand-in';
import { startServer, type RunningServer } from './fixtures';
import { createEmailAccount, signInPage } from './helpers';
import { injectChainWallet } from './injected-wallet';

const CONFIRMATIONS = 3;
const PRICE = 4_990_000n;

interface PaymentWorld {
  node: AnvilNode;
  usdt: Address;
  treasury: Address;
  stripe: StripeStandIn;
  server: RunningServer;
}

const test = base.extend<{ server: RunningServer }, { world: PaymentWorld }>({
  world: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const node = await startAnvil();
      const stripe = await startStripeStandIn();
      let server: RunningServer | null = null;
      try {
        const usdt = await node.deployToken();
        const treasury = privateKeyToAccount(generatePrivateKey()).address;
        server = await startServer('payments.spec.ts', {
          ...usdtEnv(node, usdt, treasury, CONFIRMATIONS),
          STRIPE_SECRET_KEY: stripe.secretKey,
          STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
          STRIPE_API_BASE: stripe.url,
          // Real providers only: sbp is not configured here.
          PAYMENTS_PROVIDER: '',
        });
        await use({ node, usdt, treasury, stripe, server });
      } finally {
        await server?.stop();
        await stripe.close();
        await node.stop();
      }
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  server: async ({ world }, use, testInfo) => {
    await use(world.server);
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach('server.log', { body: world.server.log(), contentType: 'text/plain' });
  },
  baseURL: async ({ world }, use) => use(world.server.baseURL),
});

const accessToken = (page: Page) =>
  page.evaluate(() => JSON.parse(localStorage.getItem('pxt.accessToken') ?? 'null') as string);

async function ordersOf(page: Page, server: RunningServer): Promise<OrdersPage> {
  const r = await fetch(`${server.baseURL}/api/v1/payments/orders/`, {
    headers: { authorization: `Bearer ${await accessToken(page)}` },
  });
  expect(r.status).toBe(200);
  return (await r.json()) as OrdersPage;
}

/** The player's top-up ledger rows, read from the server's database file. */
function topUpLedger(server: RunningServer, username: string): { amount: number; unique_key: string }[] {
  const db = new Database(join(server.dataDir, 'pxt.sqlite'), { readonly: true });
  try {
    return db
      .prepare(
        "SELECT l.amount, l.unique_key FROM ledger l JOIN users u ON u.id = l.user_id WHERE lower(u.username) = lower(?) AND l.reason = 'top_up' ORDER BY l.id",
      )
      .all(username) as { amount: number; unique_key: string }[];
  } finally {
    db.close();
  }
}

test('tether: the linked wallet pays 4.99 USDT, the dialog follows the confirmations and shows +50 Gems once', async ({
  page,
  world,
  server,
}) => {
  const { node, usdt, treasury } = world;
  const payer = await node.fundedAccount(usdt, 10n * USDT);
  const wallet = await injectChainWallet(page, payer, node);

  // Sign in with the wallet (a new player picks a username).
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Connect wallet' })
    .click();
  const details = page.getByRole('dialog', { name: 'Choose your username' });
  await expect(details).toBeVisible({ timeout: 20_000 });
  await details.getByLabel('Username').fill('UsdtPayer');
  await details.getByRole('button', { name: 'Save and continue' }).click();
  await expect(details).toBeHidden();
  // A new player lands on the miner with its guide (issue 24).
  await page.getByRole('dialog', { name: 'Mining guide' }).getByRole('button', { name: 'Close dialog' }).click();

  await page.goto('/miner');
  await expect(page.getByTestId('balance-gems')).toHaveText('0');
  await page.getByRole('button', { name: 'Top up', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up balance' });
  const methods = dialog.getByRole('group', { name: 'Payment method' });
  // sbp has no provider on this server: shown, disabled, with the reason.
  await expect(methods.getByRole('radio', { name: 'SBP' })).toBeDisabled();
  await expect(dialog.getByTestId('method-reason-sbp')).toHaveText('Not available on this server');
  await expect(methods.getByRole('radio', { name: 'Tether (USDT)' })).toBeEnabled();
  await methods.getByRole('radio', { name: 'Tether (USDT)' }).check();
  await dialog.getByRole('button', { name: 'Pay now' }).click();

  // The wallet was moved to the payment chain and sent one transfer; the first block is its own.
  const status = dialog.getByTestId('order-status');
  await expect(status).toContainText(`confirmations: 1 of ${CONFIRMATIONS}`, { timeout: 20_000 });
  expect(wallet.calls).toContain('wallet_switchEthereumChain');
  expect(wallet.sent).toHaveLength(1);
  expect(await node.balanceOf(usdt, treasury)).toBe(PRICE);
  expect(await node.balanceOf(usdt, payer.address)).toBe(10n * USDT - PRICE);

  // The order stays pending until the confirmations are there.
  await expect(page.getByTestId('balance-gems')).toHaveText('0');
  await node.mine(CONFIRMATIONS - 1);
  await expect(status).toContainText('is paid: +50 Gems. Your balance: 50 Gems.', { timeout: 20_000 });
  await expect(status).toHaveAttribute('data-phase', 'paid');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('balance-gems')).toHaveText('50');

  // Once: one paid order, one ledger row, and the balance stays after a reload and more blocks.
  await node.mine(3);
  await page.reload();
  await expect(page.getByTestId('balance-gems')).toHaveText('50');
  const orders = await ordersOf(page, server);
  expect(orders.results.map((o) => [o.method, o.status, o.gems, o.tx_hash])).toEqual([
    ['tether', 'paid', 50, wallet.sent[0].toLowerCase()],
  ]);
  expect(topUpLedger(server, 'UsdtPayer')).toEqual([{ amount: 50, unique_key: `order:${orders.results[0].id}` }]);
  expect(wallet.sent).toHaveLength(1);

  // With nothing open the dialog offers a new payment.
  await page.getByRole('button', { name: 'Top up', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  await expect(dialog.getByTestId('order-status')).toHaveCount(0);
});

test('card (in Russian): Stripe Checkout, back to /miner?order=id waiting, paid after the signed webhook; the open order shows after a reload', async ({
  page,
  world,
  server,
}) => {
  const { stripe } = world;
  const account = await createEmailAccount(server, 'CardPayer');
  await signInPage(page, account);
  await page.addInitScript(() => localStorage.setItem('i18nextLng', 'ru'));
  // Stripe's hosted page: the stand-in's checkout address, answered here.
  await page.route('https://checkout.stripe.test/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Stripe Checkout</title><h1>Stripe Checkout</h1>',
    }),
  );

  await page.goto('/miner');
  await expect(page.getByTestId('balance-gems')).toHaveText('0');
  await page.getByRole('button', { name: 'Пополнить', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Пополнение баланса' });
  const methods = dialog.getByRole('group', { name: 'Способ оплаты' });
  await expect(dialog.getByTestId('method-reason-sbp')).toHaveText('Недоступно на этом сервере');
  await methods.getByRole('radio', { name: 'Банковская карта' }).check();
  await dialog.getByRole('button', { name: 'Оплатить' }).click();

  // Sent to Stripe's page for this order's Checkout Session.
  await page.waitForURL(/^https:\/\/checkout\.stripe\.test\/c\/pay\//);
  const sessionId = page.url().split('/').pop()!;
  const session = stripe.session(sessionId);
  const orderId = Number(session.client_reference_id);
  expect(session.success_url).toBe(`${server.baseURL}/miner?order=${orderId}`);

  // Back before the payment went through: waiting, and the dialog shows the open order.
  await page.goto(`/miner?order=${orderId}`);
  const outcome = page.getByTestId('order-outcome').getByTestId('order-status');
  await expect(outcome).toHaveText(`Заказ №${orderId}: ждём оплату. Завершите её на странице оплаты.`);
  await page.getByRole('button', { name: 'Пополнить', exact: true }).click();
  await expect(dialog.getByTestId('order-status')).toContainText(`Заказ №${orderId}: ждём оплату`);
  await expect(dialog.getByRole('link', { name: 'Перейти к оплате' })).toHaveAttribute('href', session.url!);
  await dialog.getByRole('button', { name: 'Закрыть окно' }).click();
  await expect(dialog).toBeHidden();

  // The customer pays on Stripe; Stripe delivers the signed webhook (twice: a repeat changes nothing).
  const body = stripe.event('checkout.session.completed', stripe.pay(sessionId));
  for (let i = 0; i < 2; i++) {
    const r = await fetch(`${server.baseURL}/api/v1/payments/webhooks/stripe/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(body) },
      body,
    });
    expect(r.status).toBe(200);
  }

  // The page was still looking: it turns paid by itself.
  await expect(outcome).toHaveText(`Заказ №${orderId} оплачен: +50 гемов. Ваш баланс: 50 гемов.`, { timeout: 20_000 });
  await expect(page.getByTestId('balance-gems')).toHaveText('50');
  await page.reload();
  await expect(outcome).toHaveAttribute('data-phase', 'paid');
  await expect(page.getByTestId('balance-gems')).toHaveText('50');
  const orders = await ordersOf(page, server);
  expect(orders.results.map((o) => [o.id, o.method, o.status, o.gems])).toEqual([[orderId, 'card', 'paid', 50]]);
  expect(topUpLedger(server, 'CardPayer')).toEqual([{ amount: 50, unique_key: `order:${orderId}` }]);
});

test('without a linked wallet USDT asks to link one first; offline the Pay button says payments need a connection, and nothing is queued', async ({
  page,
  server,
  context,
}) => {
  const account = await createEmailAccount(server, 'OfflinePayer');
  await signInPage(page, account);
  await page.goto('/miner');
  await page.getByRole('button', { name: 'Top up', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Top up balance' });
  await expect(dialog.getByRole('button', { name: 'Pay now' })).toBeEnabled();

  // An e-mail player has no wallet: tether asks to link one (the wallet quest's dialog) before Pay now
  // (issue 24), no order is made.
  await dialog.getByRole('group', { name: 'Payment method' }).getByRole('radio', { name: 'Tether (USDT)' }).check();
  await expect(dialog.getByRole('button', { name: 'Pay now' })).toHaveCount(0);
  await expect(
    dialog.getByText('USDT is paid from the wallet linked to your account. Link a wallet first.'),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Link a wallet' }).click();
  await expect(page.getByRole('dialog', { name: 'Connect wallet' })).toBeVisible();
  expect((await ordersOf(page, server)).count).toBe(0);
  await page.getByRole('dialog', { name: 'Connect wallet' }).getByRole('button', { name: 'Close dialog' }).click();
  await page.getByRole('button', { name: 'Top up', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  await context.setOffline(true);
  const pay = dialog.getByRole('button', { name: 'Payments need a connection' });
  await expect(pay).toBeDisabled();
  await context.setOffline(false);
  await expect(dialog.getByRole('button', { name: 'Pay now' })).toBeEnabled();
  expect((await ordersOf(page, server)).count).toBe(0);
  expect(
    await page.evaluate(
      () =>
        new Promise<number>((ok) => {
          const open = indexedDB.open('pxt-companion');
          open.onsuccess = () => {
            const tx = open.result.transaction('outbox', 'readonly');
            const req = tx.objectStore('outbox').count();
            req.onsuccess = () => ok(req.result);
          };
        }),
    ),
  ).toBe(0);
});
