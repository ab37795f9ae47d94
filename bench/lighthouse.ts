// Lighthouse (the `lighthouse` package with Debian's Chromium) on the built app served by the real
// server: `/`, `/blog` and, signed in, `/miner`, with the mobile and desktop presets. Prints the four
// category scores and LCP, TBT and CLS with ✓/✗ against issue 14's goals (performance ≥ 95 and
// accessibility 100 on mobile `/`; layout shift < 0.05 on every page). Printed, never asserted:
// scores move with the machine; the byte budget is what `npm test` asserts.
import { existsSync } from 'node:fs';
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
const section = 'Lighthouse 12 (Chromium, loopback, simulated throttling)';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const CLS_GOAL = 0.05;

interface Result {
  /** Where the page ended (a guard that redirected shows here). */
  finalPath: string;
  scores: Record<(typeof CATEGORIES)[number], number>;
  lcp: number;
  tbt: number;
  cls: number;
  /** The elements that moved, with their share of CLS (Lighthouse's layout-shifts audit). */
  shifts: string[];
}

type ShiftItem = { score?: number; node?: { selector?: string } };
type Lhr = {
  finalDisplayedUrl: string;
  categories: Record<string, { score: number | null }>;
  audits: Record<string, { numericValue?: number; details?: { items?: ShiftItem[] } }>;
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
    shifts: (lhr.audits['layout-shifts']?.details?.items ?? []).map(
      (i) => `${i.node?.selector ?? '?'} ${(i.score ?? 0).toFixed(3)}`,
    ),
  };
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
    const pages: { path: string; signedIn: boolean }[] = [
      { path: '/', signedIn: false },
      { path: '/blog', signedIn: false },
      { path: '/miner', signedIn: true },
    ];
    const presets = opts.quick ? (['mobile'] as const) : (['mobile', 'desktop'] as const);
    for (const { path, signedIn } of pages) {
      if (signedIn) {
        // The tokens where the app keeps them (as the e2e helpers do), in this Chromium's profile.
        const cdp = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        const page = await cdp.contexts()[0].newPage();
        await page.goto(`${server.baseURL}/blog`);
        await page.evaluate((token) => localStorage.setItem('pxt.accessToken', JSON.stringify(token)), access);
        await page.close();
        await cdp.close();
      }
      for (const preset of presets) {
        const measure = `${path}${signedIn ? ' (signed in)' : ''}, ${preset}`;
        try {
          const r = await audit(chrome.port, `${server.baseURL}${path}`, preset, signedIn);
          const goalPage = path === '/' && preset === 'mobile';
          const met = r.cls < CLS_GOAL && (!goalPage || (r.scores.performance >= 95 && r.scores.accessibility === 100));
          table.add({
            section,
            measure,
            result: `${r.finalPath === path ? '' : `ended at ${r.finalPath}: `}performance ${r.scores.performance}, accessibility ${r.scores.accessibility}, best practices ${r.scores['best-practices']}, SEO ${r.scores.seo}; LCP ${ms(r.lcp)}, TBT ${ms(r.tbt)}, CLS ${r.cls.toFixed(3)}${r.cls >= CLS_GOAL && r.shifts.length ? ` (moved: ${r.shifts.join(', ')})` : ''}`,
            target: goalPage ? 'performance ≥ 95, accessibility 100, CLS < 0.05' : 'CLS < 0.05',
            verdict: met ? 'met' : 'missed',
          });
        } catch (err) {
          table.add({
            section,
            measure,
            result: `failed: ${(err as Error).message.split('\n')[0]}`,
            verdict: 'failed',
          });
        }
      }
    }
  } finally {
    chrome.kill();
    await server.stop();
  }
}
