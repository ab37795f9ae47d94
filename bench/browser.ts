// The built app served by the real server, opened in Chromium: first paint and first contentful
// paint of the shell on a cold first visit, and on a visit offline, served by the service worker.
// Printed only: times on a shared machine are never asserted anywhere.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import playwrightConfig from '../playwright.config';
import { ROOT } from '../tests/helpers/server-process';
import { type BenchOptions, cleanup, median, ms, serverEnv, startServer, tempDir } from './context';
import type { Table } from './table';

const DIST = join(ROOT, 'dist');
const section = 'Browser (Chromium, loopback, no throttling)';
/** Issue 25: what a phone parses and runs before the first page answers a tap. */
const RUN_BEFORE_TAP_TARGET = 200 * 1024;

interface Paint {
  fp: number;
  fcp: number;
  /** Bytes over the network (transferSize: headers and compressed bodies) until the load event. */
  transferred: number;
}

/**
 * Paint timings of the page's current document, once the first contentful paint happened. Kept as
 * source text: a function here would be rewritten by tsx (name helpers the page does not have).
 */
const PAINT_SCRIPT = `new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no first contentful paint within 15 s')), 15000);
  const done = () => {
    const paints = performance.getEntriesByType('paint');
    const at = (name) => { const p = paints.find((e) => e.name === name); return p ? p.startTime : NaN; };
    if (Number.isNaN(at('first-contentful-paint'))) return false;
    clearTimeout(timer);
    const entries = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')];
    resolve({ fp: at('first-paint'), fcp: at('first-contentful-paint'), transferred: entries.reduce((sum, e) => sum + (e.transferSize || 0), 0) });
    return true;
  };
  if (!done()) new PerformanceObserver((list, observer) => { if (done()) observer.disconnect(); }).observe({ type: 'paint', buffered: true });
})`;

const paintOf = (page: Page) => page.evaluate(PAINT_SCRIPT) as Promise<Paint>;

async function firstVisit(browser: Browser, url: string): Promise<Paint> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return await paintOf(page);
  } finally {
    await context.close();
  }
}

async function offlineVisit(browser: Browser, url: string): Promise<Paint> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // Installed (precached) and active; then a reload so the page is under its control.
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    if (!(await page.evaluate('navigator.serviceWorker.controller !== null'))) await page.reload({ waitUntil: 'load' });
    await context.setOffline(true);
    const response = await page.goto(url, { waitUntil: 'load' });
    if (!response?.fromServiceWorker()) throw new Error('the offline visit was not answered by the service worker');
    return await paintOf(page);
  } finally {
    await context.close();
  }
}

/**
 * JavaScript run before the first tap: the uncompressed bytes of every script Chromium executed
 * (its precise coverage: a script counts, whole, once any of its code ran; one only preloaded or
 * downloaded and not run does not) from the navigation until the page is quiet — the network idle
 * for 500 ms (Playwright's `networkidle`), then an idle callback on the main thread — without any
 * input. Inline scripts count with the text of their <script>. Those are the scripts a phone
 * parses and runs before it can answer the visitor's first tap.
 */
async function scriptsRunBeforeTap(browser: Browser, url: string): Promise<{ bytes: number; files: string[] }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.coverage.startJSCoverage({ resetOnNavigation: false });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(true), { timeout: 5000 }))');
    const entries = await page.coverage.stopJSCoverage();
    const ran = entries.filter((e) => e.source && e.functions.some((f) => f.ranges.some((r) => r.count > 0)));
    const files = ran.map((e) => {
      const path = new URL(e.url).pathname;
      return `${path.startsWith('/assets/') ? path.slice(8) : `inline ${path}`} ${kb(Buffer.byteLength(e.source!))}`;
    });
    return { bytes: ran.reduce((sum, e) => sum + Buffer.byteLength(e.source!), 0), files };
  } finally {
    await context.close();
  }
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const summary = (paints: Paint[]) =>
  `first paint ${ms(median(paints.map((p) => p.fp)))}, first contentful paint ${ms(median(paints.map((p) => p.fcp)))}`;

export async function browserSection(table: Table, opts: BenchOptions): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) {
    table.add({ section, measure: 'paint', result: 'n/a (no build: run `npm run build` first)', verdict: 'info' });
    return;
  }
  const server = await startServer({ env: serverEnv(tempDir('browser'), { STATIC_DIR: DIST }) });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: playwrightConfig.use?.launchOptions?.args ?? [],
  });
  cleanup.add('close Chromium', () => browser.close());
  const runs = opts.quick ? 1 : 3;
  const url = `${server.baseURL}/`;
  const suffix = runs > 1 ? ` (median of ${runs})` : '';

  const online: Paint[] = [];
  for (let i = 0; i < runs; i++) online.push(await firstVisit(browser, url));
  table.add({
    section,
    measure: 'first visit online, cold cache',
    result: `${summary(online)}; ${(median(online.map((p) => p.transferred)) / 1024).toFixed(1)} KB transferred by the load event${suffix}`,
    verdict: 'info',
  });

  for (const path of ['/', '/blog']) {
    const run = await scriptsRunBeforeTap(browser, `${server.baseURL}${path}`);
    table.add({
      section,
      measure: `JavaScript run before the first tap on ${path} (uncompressed; scripts executed until the page is quiet)`,
      result: `${kb(run.bytes)}: ${run.files.join(', ')}`,
      target: `≤ ${kb(RUN_BEFORE_TAP_TARGET)}`,
      verdict: run.bytes <= RUN_BEFORE_TAP_TARGET ? 'met' : 'missed',
    });
  }

  if (!existsSync(join(DIST, 'sw.js'))) {
    table.add({
      section,
      measure: 'second visit offline',
      result: 'n/a (no service worker in this build)',
      verdict: 'info',
    });
  } else {
    try {
      const offline: Paint[] = [];
      for (let i = 0; i < runs; i++) offline.push(await offlineVisit(browser, url));
      table.add({
        section,
        measure: 'second visit offline, from the service worker',
        result: `${summary(offline)}${suffix}`,
        verdict: 'info',
      });
    } catch (err) {
      table.add({
        section,
        measure: 'second visit offline',
        result: `failed: ${(err as Error).message.split('\n')[0]}`,
        verdict: 'failed',
      });
    }
  }
  await browser.close();
  await server.stop();
}
