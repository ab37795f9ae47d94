// Offline-first (decisions §10) with the built app and its service worker against the real server,
// which these tests stop and start again (same port and DATA_DIR): the miner reloads with no server
// and no network (countdown and guide from Dexie and the precached shell), a claim made offline
// waits in the outbox and is paid exactly once when the server is back, an article read once opens
// offline, a claim that got no answer is replayed through Background Sync, and a new deploy shows
// the Reload prompt without reloading by itself.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { expect, STATIC_DIR, test, type RunningServer } from './fixtures';
import { createEmailAccount, deployNewWorker, signInPage } from './helpers';

const SESSION_SECONDS = 25;
test.use({ serverEnv: { MINING_SESSION_SECONDS: String(SESSION_SECONDS), WORKER_INTERVAL_MS: '500' } });
test.describe.configure({ timeout: 150_000 });

/** Waits for the worker, then reloads so it controls the page (what a second visit looks like). */
async function underServiceWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

const OFFLINE = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const stopKeepingOffline = new WeakMap<BrowserContext, () => Promise<void>>();

/**
 * Chromium 150 keeps the context's offline emulation for requests but drops it for navigator.onLine
 * on every navigation the service worker answers (a reload, a new tab), where a phone with no
 * network stays offline: each page's load puts it back, so the page hears `offline` as it would.
 */
async function keepOffline(context: BrowserContext): Promise<void> {
  const sessions = new Map<Page, CDPSession>();
  const apply = async (page: Page) => {
    if (page.isClosed()) return;
    let cdp = sessions.get(page);
    if (!cdp) sessions.set(page, (cdp = await context.newCDPSession(page)));
    await cdp.send('Network.emulateNetworkConditions', OFFLINE).catch(() => undefined);
  };
  const onLoad = (page: Page) => void apply(page);
  const watch = (page: Page) => page.on('domcontentloaded', onLoad);
  context.pages().forEach(watch);
  context.on('page', watch);
  stopKeepingOffline.set(context, async () => {
    context.off('page', watch);
    for (const page of context.pages()) page.off('domcontentloaded', onLoad);
    for (const [page, cdp] of sessions)
      if (!page.isClosed())
        await cdp.send('Network.emulateNetworkConditions', { ...OFFLINE, offline: false }).catch(() => undefined);
  });
}

/** No server and no network. */
async function goOffline(context: BrowserContext, server: RunningServer): Promise<void> {
  await context.setOffline(true);
  await keepOffline(context);
  await server.halt();
}

async function backOnline(context: BrowserContext, server: RunningServer): Promise<void> {
  await server.restart();
  await stopKeepingOffline.get(context)?.();
  await context.setOffline(false);
}

async function api<T>(server: RunningServer, path: string, access: string): Promise<T> {
  const r = await fetch(`${server.baseURL}/api/v1/${path}`, { headers: { authorization: `Bearer ${access}` } });
  if (!r.ok) throw new Error(`GET ${path}: ${r.status}`);
  return (await r.json()) as T;
}

function ledgerRows(server: RunningServer, username: string, reason: string): number {
  const db = new Database(join(server.dataDir, 'pxt.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare(
        'SELECT count(*) AS n FROM ledger l JOIN users u ON u.id = l.user_id WHERE lower(u.username) = lower(?) AND l.reason = ?',
      )
      .get(username, reason) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

const amount = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

test('offline, /miner reloads with the countdown and the guide; a claim made offline is paid once when the server is back', async ({
  page,
  context,
  server,
}) => {
  const account = await createEmailAccount(server, 'offlineMiner');
  await signInPage(page, account);
  await page.goto('/miner');
  await underServiceWorker(page);
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  // Claim reminders are offered once the player mines, not before.
  const reminders = page.getByRole('switch', { name: 'Remind me when my PXT is ready to claim' });
  await expect(reminders).toHaveCount(0);
  await page.getByRole('button', { name: 'Start mining' }).click();
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  await expect(reminders).toHaveAttribute('aria-checked', 'false');
  const reward = amount(await page.getByTestId('session-pays').textContent());
  expect(reward).toBeGreaterThan(0);

  await goOffline(context, server);
  await page.reload();
  // The shell came from the worker, the session from Dexie: the countdown runs with no server.
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  const countdown = page.getByTestId('countdown');
  const first = await countdown.textContent();
  expect(first).toMatch(/^\d\d:\d\d:\d\d$/);
  await expect(countdown).not.toHaveText(first!);
  await expect(page.getByTestId('offline-banner')).toContainText('You are offline');

  // The guide is a lazy modal: its chunk is precached too.
  await page.getByRole('button', { name: 'How mining works' }).click();
  const guide = page.getByRole('dialog', { name: 'Mining guide' });
  await expect(guide).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(guide).toBeHidden();

  // The session ends while offline; the claim waits in the outbox and the banner counts it.
  await expect(page.getByTestId('miner-status')).toHaveText('Ready to claim', {
    timeout: (SESSION_SECONDS + 15) * 1000,
  });
  await page.getByRole('button', { name: 'Claim', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Claim queued' })).toBeVisible();
  await expect(page.getByTestId('pending-calls')).toHaveText('Waiting to be sent: 1');
  const syncTags = await page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.getRegistration()) as
      (ServiceWorkerRegistration & { sync?: { getTags(): Promise<string[]> } }) | undefined;
    return reg?.sync ? reg.sync.getTags() : null;
  });
  if (syncTags !== null) expect(syncTags).toContain('outbox-replay');
  // A reload offline keeps the queued claim.
  await page.reload();
  await expect(page.getByTestId('pending-calls')).toHaveText('Waiting to be sent: 1');

  await backOnline(context, server);
  await expect(page.getByTestId('miner-status')).toHaveText('Idle', { timeout: 30_000 });
  await expect(page.getByTestId('offline-banner')).toBeHidden();
  await expect.poll(async () => amount(await page.getByTestId('balance-pxt').textContent())).toBeCloseTo(reward, 6);

  // Paid exactly once, whatever replayed it (online event, visibility, Background Sync).
  await page.reload();
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  expect(ledgerRows(server, account.username, 'mining_claim')).toBe(1);
  const me = await api<{ token: number; mining: boolean }>(server, 'auth/me/', account.access);
  expect(me.token).toBeCloseTo(reward, 6);
  expect(me.mining).toBe(false);
  const sessions = await api<{ results: { claimed: boolean }[] }>(server, 'mining/sessions/', account.access);
  expect(sessions.results.map((s) => s.claimed)).toEqual([true]);
});

test('a claim that got no answer waits; a Background Sync wakes the worker, which has the page replay it once', async ({
  page,
  context,
  server,
}) => {
  const account = await createEmailAccount(server, 'syncMiner');
  await signInPage(page, account);
  await page.goto('/miner');
  await underServiceWorker(page);
  await page.getByRole('button', { name: 'Start mining' }).click();
  await expect(page.getByTestId('miner-status')).toHaveText('Ready to claim', {
    timeout: (SESSION_SECONDS + 15) * 1000,
  });

  // The browser still thinks it is online, but the server is gone: the claim gets no answer.
  await server.halt();
  await page.getByRole('button', { name: 'Claim', exact: true }).click();
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toContainText('The server cannot be reached');
  await expect(page.getByTestId('pending-calls')).toHaveText('Waiting to be sent: 1');

  // Back up, with no online event and no tab switch: only the sync tag brings the claim over.
  await server.restart();
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) =>
    registrations.push(...e.registrations),
  );
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => registrations.find((r) => r.scopeURL === `${server.baseURL}/`)?.registrationId).toBeTruthy();
  const { registrationId } = registrations.find((r) => r.scopeURL === `${server.baseURL}/`)!;
  await cdp.send('ServiceWorker.dispatchSyncEvent', {
    origin: server.baseURL,
    registrationId,
    tag: 'outbox-replay',
    lastChance: false,
  });

  await expect(banner).toBeHidden();
  await expect(page.getByTestId('miner-status')).toHaveText('Idle');
  expect(ledgerRows(server, account.username, 'mining_claim')).toBe(1);
});

test('after one online visit, a cold start of / and /miner in a new tab works with no network and no server', async ({
  page,
  context,
  server,
}) => {
  const account = await createEmailAccount(server, 'coldStart');
  await signInPage(page, account);
  await page.goto('/miner');
  await underServiceWorker(page);
  await page.getByRole('button', { name: 'Start mining' }).click();
  await expect(page.getByTestId('miner-status')).toHaveText('Mining');
  await page.close();

  await goOffline(context, server);
  const cold = await context.newPage();
  await cold.goto('/');
  // The landing page, header and translations come from the precache; the player from Dexie.
  await expect(cold.getByRole('banner')).toContainText(account.username);
  await expect(cold.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(cold.locator('#root')).toHaveAttribute('data-prerendered', '/');
  await cold.goto('/miner');
  await expect(cold.getByTestId('miner-status')).toHaveText('Mining');
  // app.html from the precache, the shell without the landing (index.html would carry the landing's mark).
  await expect(cold.locator('#root')).not.toHaveAttribute('data-prerendered');
  await expect(cold.getByTestId('countdown')).toHaveText(/^\d\d:\d\d:\d\d$/);
  await expect(cold.getByTestId('offline-banner')).toContainText('You are offline');
  await backOnline(context, server);
});

test('an article read once opens offline, from Dexie and from the worker’s blog cache', async ({
  page,
  context,
  server,
}) => {
  const account = await createEmailAccount(server, 'offlineReader');
  await signInPage(page, account);
  await page.goto('/blog');
  await underServiceWorker(page);
  const firstLink = page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('link').first();
  await expect(firstLink).toBeVisible();
  await firstLink.click();
  await expect(page).toHaveURL(/\/article\/[^/]+$/);
  const title = page.getByRole('heading', { level: 1 });
  // The list stays on screen while the article's page loads (a navigation in a transition): its
  // heading is not the article's title.
  await expect(title).not.toHaveText('Blog');
  await expect(title).not.toBeEmpty();
  const articleTitle = (await title.textContent())!;
  const articleUrl = page.url();
  const articleId = articleUrl.split('/article/')[1];
  // The worker kept the article's API answer (stale-while-revalidate).
  await expect
    .poll(() =>
      page.evaluate(() =>
        caches
          .open('pxt-blog-v1')
          .then((c) => c.keys())
          .then((keys) => keys.map((k) => new URL(k.url).pathname)),
      ),
    )
    .toContain(`/api/v1/blog/${articleId}/`);

  await goOffline(context, server);
  await page.goto(articleUrl);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(articleTitle);
  await page.goto('/blog');
  await expect(page.getByRole('main').getByText(articleTitle).first()).toBeVisible();
  // The API answer itself comes from the worker's cache with no server at all.
  const cached = await page.evaluate(async (id) => {
    const r = await fetch(`/api/v1/blog/${id}/?lang=en`);
    return { ok: r.ok, title: ((await r.json()) as { title?: string }).title };
  }, articleId);
  expect(cached).toEqual({ ok: true, title: articleTitle });
  await backOnline(context, server);
});

test('a new deploy shows the Reload prompt; the page reloads only when the player chooses Reload', async ({
  page,
  server,
}) => {
  // Serve a copy of the build, so this test can change the worker's bytes like a deploy would.
  const copy = mkdtempSync(join(tmpdir(), 'pxt-deploy-'));
  try {
    cpSync(STATIC_DIR, copy, { recursive: true });
    await server.restart({ STATIC_DIR: copy });
    await page.goto('/');
    await underServiceWorker(page);
    const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);
    expect(firstWorker).toBe(`${server.baseURL}/sw.js`);
    await expect(page.getByText('A new version is available')).toBeHidden();

    // Something half-typed that a surprise reload would lose.
    await page.evaluate(() => ((window as unknown as { halfTyped: string }).halfTyped = 'gm, punk'));
    deployNewWorker(copy);
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));

    const prompt = page.getByRole('status').filter({ hasText: 'A new version is available' });
    await expect(prompt).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { halfTyped?: string }).halfTyped)).toBe('gm, punk');
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.waiting !== null))).toBe(
      true,
    );

    await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    expect(await page.evaluate(() => (window as unknown as { halfTyped?: string }).halfTyped)).toBeUndefined();
    // The new worker is the active one and nothing waits any more.
    await expect
      .poll(() =>
        page.evaluate(() =>
          navigator.serviceWorker
            .getRegistration()
            .then((r) => ({ waiting: r?.waiting !== null, active: r?.active?.state })),
        ),
      )
      .toEqual({ waiting: false, active: 'activated' });
    await expect(page.getByText('A new version is available')).toBeHidden();
  } finally {
    await server.restart();
    rmSync(copy, { recursive: true, force: true });
  }
});
