// Wallet sign-in with an injected EIP-1193 provider whose signatures are real: the page asks
// `window.ethereum`, which forwards personal_sign to a Node function signing with a test key.
import type { Page } from '@playwright/test';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { shortWallet } from '@shared/validation';
import { expect, test } from './fixtures';
import { injectTwoWallets } from './injected-wallet';

interface WalletLog {
  signed: string[];
  rejections: number;
}

async function injectWallet(page: Page, opts: { rejectFirst?: number } = {}) {
  const account = privateKeyToAccount(generatePrivateKey());
  const log: WalletLog = { signed: [], rejections: 0 };
  let toReject = opts.rejectFirst ?? 0;
  await page.exposeFunction('__pxtTestSign', async (hex: `0x${string}`) => {
    if (toReject > 0) {
      toReject--;
      log.rejections++;
      return { error: { code: 4001, message: 'User rejected the request.' } };
    }
    log.signed.push(Buffer.from(hex.slice(2), 'hex').toString('utf8'));
    return { signature: await account.signMessage({ message: { raw: hex } }) };
  });
  await page.addInitScript((address: string) => {
    const sign = (
      window as unknown as {
        __pxtTestSign: (hex: string) => Promise<{ signature?: string; error?: { code: number; message: string } }>;
      }
    ).__pxtTestSign;
    (window as unknown as { ethereum: unknown }).ethereum = {
      isMetaMask: true,
      async request({ method, params }: { method: string; params?: unknown[] }) {
        if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [address];
        if (method === 'eth_chainId') return '0x1';
        if (method === 'personal_sign') {
          const r = await sign(String(params?.[0]));
          if (r.error) throw Object.assign(new Error(r.error.message), { code: r.error.code });
          return r.signature;
        }
        throw Object.assign(new Error(`unsupported ${method}`), { code: 4200 });
      },
      on() {},
      removeListener() {},
    };
  }, account.address);
  return { account, log };
}

test('wallet sign-in: the new player signs the login text, picks a username and sees the wallet in the header', async ({
  page,
}) => {
  const { account, log } = await injectWallet(page, { rejectFirst: 1 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Connect wallet' })
    .click();

  // The first prompt is turned down; the flow asks again by itself and the second one is signed.
  const details = page.getByRole('dialog', { name: 'Choose your username' });
  await expect(details).toBeVisible({ timeout: 20_000 });
  expect(log.rejections).toBe(1);
  expect(log.signed).toHaveLength(1);
  expect(log.signed[0]).toMatch(/^Authorization in the PXT Companion\. Timestamp: \d{13}$/);

  // Came from the wallet confirmation: the back arrow is there, closing is not.
  await expect(details.getByRole('button', { name: 'Go back' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Close dialog' })).toHaveCount(0);
  await details.getByLabel('Username').fill('PixelPunk');
  await details.getByRole('button', { name: 'Save and continue' }).click();
  await expect(details).toBeHidden();
  // A new player lands on the miner with its guide (issue 24).
  await expect(page).toHaveURL(/\/miner$/);
  await page.getByRole('dialog', { name: 'Mining guide' }).getByRole('button', { name: 'Close dialog' }).click();

  const player = page.getByTestId('player-block');
  await expect(player).toContainText('PixelPunk');
  await expect(player).toContainText(shortWallet(account.address));

  // A second sign-in of the same wallet (after logout) goes straight in: the username is set.
  await player.click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('button', { name: 'Connect' })).toBeVisible();
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  await expect(page.getByTestId('player-block')).toContainText('PixelPunk', { timeout: 20_000 });
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(log.signed).toHaveLength(2);
});

test('without any wallet a desktop browser says MetaMask is not installed (and loads no SDK by itself)', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
  await page.goto('/');
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Connect wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Confirm in your wallet' });
  await expect(dialog.getByText('MetaMask is not installed.', { exact: false })).toBeVisible();
  await expect(dialog.getByRole('link', { name: 'Install MetaMask' })).toHaveAttribute(
    'href',
    'https://metamask.io/download/',
  );
  expect(scripts.filter((u) => /metamask/i.test(u))).toEqual([]);
});

test('two wallets announce themselves: the player picks the second and signs in with its address (a referral link to /miner kept)', async ({
  page,
  baseURL,
}) => {
  const { accounts, signed } = await injectTwoWallets(page);
  // A referral link to a signed-in-only page: the visitor lands on / with the main login, code kept.
  await page.goto('/miner?refCode=crew77');
  await expect(page).toHaveURL(`${baseURL}/`);
  await page
    .getByRole('dialog', { name: 'Enter the PXT universe' })
    .getByRole('button', { name: 'Connect wallet' })
    .click();

  const confirm = page.getByRole('dialog', { name: 'Confirm in your wallet' });
  const list = confirm.getByRole('list', { name: 'Installed wallets' });
  await expect(list.getByRole('button')).toHaveText(['Alpha Wallet', 'Beta Wallet']);
  // The wallets' own icons (data: URIs) are shown: the page's CSP lets them load.
  const icons = list.locator('img');
  await expect(icons).toHaveCount(2);
  expect(
    await icons.evaluateAll((imgs) =>
      imgs.map((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0),
    ),
  ).toEqual([true, true]);

  const completion = page.waitForRequest(
    (r) => r.url().endsWith('/api/v1/auth/complete-registration/') && r.method() === 'PATCH',
  );
  await list.getByRole('button', { name: 'Beta Wallet' }).click();
  const details = page.getByRole('dialog', { name: 'Choose your username' });
  await expect(details).toBeVisible({ timeout: 20_000 });
  expect(signed[0]).toEqual([]);
  expect(signed[1]).toHaveLength(1);
  await details.getByLabel('Username').fill('BetaRider');
  await details.getByRole('button', { name: 'Save and continue' }).click();
  expect((await completion).postDataJSON()).toMatchObject({
    username: 'BetaRider',
    referral_link: expect.stringContaining('refCode=crew77'),
  });
  await expect(page.getByTestId('player-block')).toContainText(shortWallet(accounts[1].address));
});
