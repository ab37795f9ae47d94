// What a first visit to / really downloads, measured in the browser (scripts/check-budgets.mjs checks
// the same budget from the build manifest; this one also sees anything imported at start).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Response as PageResponse } from '@playwright/test';
import { expect, test } from './fixtures';

/** Brotli 11, what Chromium is sent (the build's .br files), of every script until the network is idle
 * (the PWA layer and the service-worker registration too): 98.8 KB measured after issues 23 and 24
 * (98.4 KB before them; the PWA cards' slot on the miner loads at idle), 98.9 KB after issue 25's
 * start on intent, 99.1 KB after the fixes of the fourth release's review, 98.5 KB once Jotai's hooks
 * and the card slot joined the first file (vite.config.ts). Issue 14's ceiling is 100 KB.
 * Since issue 25 a visitor's landing starts the app at the first sign of intent, its files
 * prefetched after load meanwhile (src/lib/start-on-intent.ts): the test presses the page's text
 * (no control) to start it, and counts every script file once, prefetched or loaded as a module. */
const BUDGET_BYTES = 99 * 1024;

test('a first visit to / loads at most 99 KB of brotli JavaScript, without the MetaMask SDK or Google script', async ({
  page,
  baseURL,
}) => {
  const scripts: { url: string; body: Promise<Buffer> }[] = [];
  const collect = (r: PageResponse) => {
    const script = r.request().resourceType() === 'script' || new URL(r.url()).pathname.endsWith('.js');
    if (script && !scripts.some((s) => s.url === r.url())) scripts.push({ url: r.url(), body: r.body() });
  };
  page.on('response', collect);
  await page.goto('/', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('head link[rel="prefetch"][href^="/assets/index-"]')).toHaveCount(1);
  await page.getByRole('heading', { level: 1 }).click();
  // The PWA layer is imported once the page is idle (requestIdleCallback, up to 2 s), which on a busy
  // machine comes after the network's first quiet half-second: wait for its dock, so its scripts
  // have all arrived and are counted, rather than missed and their bodies left to fail at the end.
  await expect(page.locator('.pwa-dock')).toBeAttached({ timeout: 15_000 });
  await page.waitForLoadState('networkidle');
  page.off('response', collect);

  let gzip = 0;
  let brotli = 0;
  const rows: string[] = [];
  for (const s of scripts) {
    expect(s.url.startsWith(baseURL!), `${s.url} is not from the app's origin`).toBe(true);
    expect(s.url).not.toMatch(/metamask|accounts\.google\.com/i);
    const body = await s.body;
    expect(body.toString('utf8')).not.toMatch(/MetaMaskSDK|sdk-communication-layer/);
    const gz = gzipSync(body, { level: 9 }).length;
    const br = brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    gzip += gz;
    brotli += br;
    rows.push(`${new URL(s.url).pathname} raw ${body.length} gzip ${gz} brotli ${br}`);
  }
  console.log(
    `first visit to /: ${scripts.length} scripts, gzip ${(gzip / 1024).toFixed(1)} KB, brotli ${(brotli / 1024).toFixed(1)} KB\n  ${rows.join('\n  ')}`,
  );
  expect(brotli).toBeLessThanOrEqual(BUDGET_BYTES);
});
