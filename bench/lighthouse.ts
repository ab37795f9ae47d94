// Lighthouse (the `lighthouse` package with Debian's Chromium) on the built app served by the real
// server: `/`, `/blog` and, signed in as a player with a history (seedBusyPlayer), `/miner` and
// `/tasks`. Mobile three times per page, the median run reported (by performance score, then TBT)
// with each run's benchmarkIndex beside it, so a faster machine's figures are never mistaken for
// this one's; desktop once per page (info). Targets from issue 25 on every mobile page:
// performance ≥ 95, TBT ≤ 200 ms, LCP ≤ 2.0 s, accessibility 100, CLS 0. Where one is missed, a row
// says where the main thread's time went (bootup-time, mainthread-work-breakdown, long-tasks).
// Printed, never asserted: scores move with the machine; the byte budget is what `npm test` asserts.
// LIGHTHOUSE_PAGES=/miner,/tasks limits the pages (for checking one page while working on it).
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import playwrightConfig from '../playwright.config';
import { seedBusyPlayer } from '../tests/helpers/bulk-players';
import { ROOT } from '../tests/helpers/server-process';
import { type BenchOptions, cleanup, ms, serverEnv, startServer, tempDir, tokenFor } from './context';
import { openBenchDatabase } from './players';
import type { Table } from './table';

const DIST = join(ROOT, 'dist');
const section = 'Lighthouse 13 (Chromium, loopback, simulated throttling)';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const MOBILE_RUNS = 3;
const GOAL = { performance: 95, tbt: 200, lcp: 2000, accessibility: 100, cls: 0 };
const TARGET = 'performance ≥ 95, TBT ≤ 200 ms, LCP ≤ 2.0 s, accessibility 100, CLS 0 (median of 3)';

interface Result {
  /** Where the page ended (a guard that redirected shows here). */
  finalPath: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcp: number;
  tbt: number;
  cls: number;
  /** Lighthouse's runtime error (a page that never painted, a hung page), when the run has one. */
  error?: string;
  /** Lighthouse's measure of this machine's speed at the time of the run (higher is faster). */
  benchmarkIndex: number;
  /** The elements that moved, with their share of CLS (Lighthouse's layout-shifts audit). */
  shifts: string[];
  /** Where the main thread's time went, for a missed target. */
  scripts: { url: string; total: number; scripting: number; parse: number }[];
  categories: { label: string; ms: number }[];
  longTasks: { url: string; start: number; duration: number }[];
}

type Item = Record<string, unknown> & { node?: { selector?: string } };
type Lhr = {
  finalDisplayedUrl: string;
  runtimeError?: { code?: string };
  environment: { benchmarkIndex: number };
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: Item[] } }>;
};

async function audit(port: number, url: string, preset: 'mobile' | 'desktop', signedIn: boolean): Promise<Result> {
  const flags = {
    port,
    output: 'json' as const,
    logLevel: 'error' as const,
    onlyCategories: [...CATEGORIES],
    disableStorageReset: signedIn,
  };
  const run = await lighthouse(url, flags, preset === 'desktop' ? desktopConfig : undefined);
  const lhr = run?.lhr as unknown as Lhr | undefined;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const value = (a: string) => lhr.audits[a]?.numericValue ?? NaN;
  const items = (a: string) => lhr.audits[a]?.details?.items ?? [];
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    finalPath: new URL(lhr.finalDisplayedUrl).pathname,
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    error: lhr.runtimeError?.code,
    benchmarkIndex: Math.round(lhr.environment.benchmarkIndex),
    shifts: items('layout-shifts').map((i) => `${i.node?.selector ?? '?'} ${num(i.score).toFixed(3)}`),
    scripts: items('bootup-time').map((i) => ({
      url: String(i.url),
      total: num(i.total),
      scripting: num(i.scripting),
      parse: num(i.scriptParseCompile),
    })),
    categories: items('mainthread-work-breakdown').map((i) => ({ label: String(i.groupLabel), ms: num(i.duration) })),
    longTasks: items('long-tasks').map((i) => ({
      url: String(i.url),
      start: num(i.startTime),
      duration: num(i.duration),
    })),
  };
}

/**
 * The run in the middle by performance score (then by TBT, the figure that moves it most here);
 * a run Lighthouse could not complete (its runtime error is printed) is left out.
 */
function medianRun(runs: Result[]): Result {
  const complete = runs.filter((r) => !r.error);
  const sorted = [...(complete.length ? complete : runs)].sort(
    (a, b) => a.scores.performance - b.scores.performance || b.tbt - a.tbt,
  );
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

const meets = (r: Result) =>
  r.scores.performance >= GOAL.performance &&
  r.tbt <= GOAL.tbt &&
  r.lcp <= GOAL.lcp &&
  r.scores.accessibility === GOAL.accessibility &&
  r.cls <= GOAL.cls;

/** A script's address without the server's origin (`/assets/miner-page-abc.js`). */
const shortUrl = (url: string) => {
  try {
    const u = new URL(url);
    return u.protocol.startsWith('http') ? u.pathname : url;
  } catch {
    return url;
  }
};

function describe(r: Result): string {
  return `performance ${r.scores.performance}, accessibility ${r.scores.accessibility}, best practices ${r.scores['best-practices']}, SEO ${r.scores.seo}; LCP ${ms(r.lcp)}, TBT ${ms(r.tbt)}, CLS ${r.cls.toFixed(3)}${r.cls > GOAL.cls && r.shifts.length ? ` (moved: ${r.shifts.join(', ')})` : ''}`;
}

function whereTimeGoes(r: Result): string {
  const scripts = r.scripts
    .slice(0, 5)
    .map((s) => `${shortUrl(s.url)} ${ms(s.total)} (script ${ms(s.scripting)}, parse ${ms(s.parse)})`)
    .join('; ');
  const groups = r.categories
    .slice(0, 5)
    .map((c) => `${c.label} ${ms(c.ms)}`)
    .join(', ');
  const tasks = r.longTasks
    .slice(0, 6)
    .map((t) => `${ms(t.duration)} at ${ms(t.start)} (${shortUrl(t.url)})`)
    .join(', ');
  return `main thread (simulated 4× slower CPU): ${groups || 'none'} · scripts by execution time: ${scripts || 'none'} · long tasks: ${r.longTasks.length ? `${r.longTasks.length}: ${tasks}` : 'none'}`;
}

export async function lighthouseSection(table: Table, opts: BenchOptions): Promise<void> {
  if (!existsSync(join(DIST, 'index.html'))) {
    table.add({ section, measure: 'scores', result: 'n/a (no build: run `npm run build` first)', verdict: 'info' });
    return;
  }
  const dataDir = tempDir('lighthouse');
  const database = await openBenchDatabase({ dataDir });
  const userId = await seedBusyPlayer(database.db, 'lighthouse');
  const access = await tokenFor(database.db, userId);
  await database.close();
  const server = await startServer({ env: serverEnv(dataDir, { STATIC_DIR: DIST }) });
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH || '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...(playwrightConfig.use?.launchOptions?.args ?? [])],
  });
  cleanup.add('stop Lighthouse Chromium', () => chrome.kill());
  try {
    const only = process.env.LIGHTHOUSE_PAGES?.split(',');
    const pages = [
      { path: '/', signedIn: false },
      { path: '/blog', signedIn: false },
      { path: '/miner', signedIn: true },
      { path: '/tasks', signedIn: true },
    ].filter((p) => !only || only.includes(p.path));
    let signedInYet = false;
    for (const { path, signedIn } of pages) {
      if (signedIn && !signedInYet) {
        // The tokens where the app keeps them (as the e2e helpers do), in this Chromium's profile; then
        // each signed-in page once, so every measured run is a returning player's (the answers already
        // in Dexie, the service worker installed), not the first run alone.
        const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        const page = await cdp.contexts()[0].newPage();
        await page.goto(`${server.baseURL}/blog`);
        await page.evaluate((token) => localStorage.setItem('pxt.accessToken', JSON.stringify(token)), access);
        for (const warm of pages.filter((p) => p.signedIn)) {
          await page.goto(`${server.baseURL}${warm.path}`, { waitUntil: 'networkidle' });
        }
        await page.close();
        await cdp.close();
        signedInYet = true;
      }
      const label = `${path}${signedIn ? ' (signed in)' : ''}`;
      const load = loadavg()[0].toFixed(1);
      try {
        const runs: Result[] = [];
        // Three complete runs: one Lighthouse could not complete (NO_NAVSTART now and then on this
        // machine) is printed and replaced, at most twice.
        const wanted = opts.quick ? 1 : MOBILE_RUNS;
        while (runs.filter((x) => !x.error).length < wanted && runs.length < wanted + 2) {
          runs.push(await audit(chrome.port, `${server.baseURL}${path}`, 'mobile', signedIn));
        }
        const r = medianRun(runs);
        const ended = runs.find((x) => !x.error && x.finalPath !== path);
        table.add({
          section,
          measure: `${label}, mobile`,
          result: `${ended ? `ended at ${ended.finalPath}: ` : ''}${describe(r)} · the ${runs.length} runs: performance ${runs.map((x) => x.error ?? x.scores.performance).join('/')}, TBT ${runs.map((x) => ms(x.tbt)).join('/')}, LCP ${runs.map((x) => ms(x.lcp)).join('/')}, benchmarkIndex ${runs.map((x) => x.benchmarkIndex).join('/')}; load ${load}`,
          target: TARGET,
          verdict: !ended && meets(r) ? 'met' : 'missed',
        });
        if (!meets(r)) {
          table.add({
            section,
            measure: `${label}, mobile: where the time goes (median run)`,
            result: whereTimeGoes(r),
            verdict: 'info',
          });
        }
      } catch (err) {
        table.add({
          section,
          measure: `${label}, mobile`,
          result: `failed: ${(err as Error).message.split('\n')[0]}`,
          verdict: 'failed',
        });
      }
      if (opts.quick) continue;
      try {
        const d = await audit(chrome.port, `${server.baseURL}${path}`, 'desktop', signedIn);
        table.add({
          section,
          measure: `${label}, desktop`,
          result: `${d.finalPath === path ? '' : `ended at ${d.finalPath}: `}${describe(d)}, benchmarkIndex ${d.benchmarkIndex}`,
          verdict: 'info',
        });
      } catch (err) {
        table.add({
          section,
          measure: `${label}, desktop`,
          result: `failed: ${(err as Error).message.split('\n')[0]}`,
          verdict: 'failed',
        });
      }
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
}
