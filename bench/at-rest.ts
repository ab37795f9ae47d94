// Pages at rest: the CPU Chromium spends (all its processes: browser, renderer, GPU/compositor,
// service worker) while a page sits on screen untouched, after it settled (loaded, the worker
// installed). A page that rests should cost a phone nearly nothing; a decorative animation under a
// blurring filter cost the landing half a core here, drawn in software as on a phone without GPU
// raster (Chromium runs with --disable-gpu, as the browser tests do).
// Printed with a target, never asserted in a test: CPU time on a shared machine is noisy.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import playwrightConfig from '../playwright.config';
import { ROOT } from '../tests/helpers/server-process';
import { seedPlayers } from '../tests/helpers/bulk-players';
import { type BenchOptions, cleanup, serverEnv, startServer, tempDir, tokenFor } from './context';
import { openBenchDatabase } from './players';
import type { Table } from './table';

const DIST = join(ROOT, 'dist');
const section = 'Pages at rest (Chromium, software raster, phone size)';
/** A page that rests: at most this share of one core (a static page such as /blog costs about 1%). */
const AT_REST_TARGET = 0.15;
const PHONE = { viewport: { width: 412, height: 823 }, hasTouch: true, isMobile: true };

/** CPU seconds of every Chromium process so far (Chromium's own accounting, through CDP). */
async function cpuSeconds(browser: Browser): Promise<number> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { cpuTime: number }[] };
    return processInfo.reduce((sum, p) => sum + p.cpuTime, 0);
  } finally {
    await cdp.detach();
  }
}

interface Scene {
  name: string;
  path: string;
  /** Tokens stored before the page loads: a signed-in player. */
  access?: string;
  /** What the player did before leaving the page alone. */
  then?: (page: Page) => Promise<void>;
}

async function shareOfCore(browser: Browser, baseURL: string, scene: Scene, seconds: number): Promise<number> {
  const context: BrowserContext = await browser.newContext(PHONE);
  try {
    if (scene.access)
      await context.addInitScript(
        (token) => localStorage.setItem('pxt.accessToken', JSON.stringify(token)),
        scene.access,
      );
    const page = await context.newPage();
    await page.goto(`${baseURL}${scene.path}`, { waitUntil: 'networkidle' });
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await scene.then?.(page);
    // Settled: the worker's precache and the page's own calls are done.
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(2000);
    const before = await cpuSeconds(browser);
    await page.waitForTimeout(seconds * 1000);
    return ((await cpuSeconds(browser)) - before) / seconds;
  } finally {
    await context.close();
  }
}

export async function atRestSection(table: Table, opts: BenchOptions): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) {
    table.add({
      section,
      measure: 'pages at rest',
      result: 'n/a (no build: run `npm run build` first)',
      verdict: 'info',
    });
    return;
  }
  const dataDir = tempDir('at-rest');
  const server = await startServer({ env: serverEnv(dataDir, { STATIC_DIR: DIST }) });
  const database = await openBenchDatabase({ dataDir });
  const { ids } = await seedPlayers(database.db, 'sqlite', { count: 1, tag: 'resting', session: 'none' });
  const access = await tokenFor(database.db, ids[0]);
  await database.close();
  const started = await fetch(`${server.baseURL}/api/v1/mining/start/`, {
    headers: { authorization: `Bearer ${access}`, 'idempotency-key': randomUUID() },
  });
  if (!started.ok) throw new Error(`mining/start/: ${started.status} ${await started.text()}`);

  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: playwrightConfig.use?.launchOptions?.args ?? [],
  });
  cleanup.add('close Chromium', () => browser.close());
  const seconds = opts.quick ? 3 : 10;
  const scenes: Scene[] = [
    { name: '/ a visitor’s landing page', path: '/' },
    {
      name: '/ with the sign-in dialog open',
      path: '/',
      then: async (page) => {
        await page.getByRole('banner').getByRole('button', { name: 'Connect' }).tap();
        await page.getByRole('dialog').waitFor();
      },
    },
    { name: '/blog', path: '/blog' },
    { name: '/miner, a session mining', path: '/miner', access },
    { name: '/tasks', path: '/tasks', access },
  ];
  for (const scene of scenes) {
    const share = await shareOfCore(browser, server.baseURL, scene, seconds);
    table.add({
      section,
      measure: `${scene.name}: CPU while untouched for ${seconds} s`,
      result: `${Math.round(share * 100)}% of one core`,
      target: `≤ ${AT_REST_TARGET * 100}%`,
      verdict: share <= AT_REST_TARGET ? 'met' : 'missed',
    });
  }
  await browser.close();
  await server.stop();
}
