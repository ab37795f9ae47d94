// The built app served by the real server, opened in Chromium: first paint and first contentful
// paint of the shell on a cold first visit, and on a visit offline, served by the service worker;
// the JavaScript run before the first tap; and what that first tap costs now that a visitor's
// prerendered page starts the app only at it (src/lib/start-on-intent.ts).
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
/** A mid-range phone's CPU against this machine's, as Lighthouse's mobile preset simulates it. */
const CPU_SLOWDOWN = 4;

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
 * parses and runs before it can answer the visitor's first tap. On a visitor's `/` and `/blog` the
 * app's own files are only prefetched by then (downloaded, not run): the inline start script runs
 * them at the first tap, whose cost the row below measures.
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

/**
 * In the page, before the tap: resolves with the milliseconds from the tap (the pointerdown's time)
 * to the frame after the sign-in dialog, with its title, entered the page (a frame, then a task: it
 * has been painted). Source text, like PAINT_SCRIPT.
 */
const TAP_TO_DIALOG_SCRIPT = `void (window.__tapToDialog = new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error('no sign-in dialog within 30 s of the tap')), 30000);
  let tappedAt = 0;
  addEventListener('pointerdown', (e) => { tappedAt = tappedAt || e.timeStamp; }, { capture: true });
  const shown = () => [...document.querySelectorAll('[role="dialog"]')].some((d) => d.textContent.includes('Enter the PXT universe'));
  new MutationObserver((records, observer) => {
    if (!tappedAt || !shown()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => { clearTimeout(timer); resolve(performance.now() - tappedAt); }, 0));
  }).observe(document.body, { childList: true, subtree: true, attributes: true });
}))`;

/**
 * The first tap on Connect, on a phone-sized page with the CPU slowed CPU_SLOWDOWN× (Chromium's
 * Emulation.setCPUThrottlingRate, once the page is loaded and idle), to the sign-in dialog painted.
 * `path` `/` is a visitor's page, the app waiting for that tap (its files prefetched); `/?bench=1`
 * starts it at load as before (any query does), so the tap finds it running: the difference is what
 * the wait costs the first tap. The dialog's own chunks and translations load on the tap either way.
 */
async function tapToDialog(browser: Browser, url: string): Promise<{ ms: number; startedBy: string }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(true), { timeout: 5000 }))');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.evaluate(TAP_TO_DIALOG_SCRIPT);
    await page.getByRole('banner').getByRole('button', { name: 'Connect' }).tap();
    const ms = (await page.evaluate('window.__tapToDialog')) as number;
    const startedBy = (await page.evaluate('String(window.__pxtStart && window.__pxtStart.started)')) as string;
    return { ms, startedBy };
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

  try {
    const lazy: number[] = [];
    const atLoad: number[] = [];
    const reasons = new Set<string>();
    for (let i = 0; i < runs; i++) {
      const tap = await tapToDialog(browser, `${server.baseURL}/`);
      lazy.push(tap.ms);
      reasons.add(tap.startedBy);
      atLoad.push((await tapToDialog(browser, `${server.baseURL}/?bench=1`)).ms);
    }
    table.add({
      section,
      measure: `first tap on / to the sign-in dialog painted (Connect, phone size, CPU ${CPU_SLOWDOWN}× slower)`,
      result: `${ms(median(lazy))} with the app started by the tap (${[...reasons].join(', ')}; its files prefetched) · ${ms(median(atLoad))} with the app started at load (/?bench=1) · the ${runs} runs: ${lazy.map(ms).join('/')} and ${atLoad.map(ms).join('/')}${suffix}`,
      verdict: 'info',
    });
  } catch (err) {
    table.add({
      section,
      measure: 'first tap on / to the sign-in dialog painted',
      result: `failed: ${(err as Error).message.split('\n')[0]}`,
      verdict: 'failed',
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
