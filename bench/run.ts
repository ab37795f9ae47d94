// `npm run bench`: PXT Companion's speed and robustness figures in one table (Markdown, for the
// README). Servers run compiled (as `npm run serve` runs them) as child processes on loopback with
// production settings; everything the run starts (servers, PostgreSQL cluster, Chromium, temp
// folders, the compiled servers) is removed at the end.
//   npm run bench                       full run (5 s per throughput figure, 3 claim bursts, a 60 s day, 1 M players)
//   npm run bench -- --quick            1 s per figure, one burst, a 10 s day (for checking the bench itself)
//   npm run bench -- --pg-users=100000  a smaller "big" PostgreSQL database
//   npm run bench -- --only=api,claims  some sections: api, claims, day, scale, bytes, browser, at-rest, lighthouse, telegram, bot
// The bytes and browser sections measure the build in dist/; a clone without one is built first.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { apiSection } from './api';
import { atRestSection } from './at-rest';
import { botSection } from './bot';
import { browserSection } from './browser';
import { bytesSection } from './bytes';
import { claimsSection } from './claims';
import { daySection } from './day';
import { lighthouseSection } from './lighthouse';
import { type BenchOptions, cleanup } from './context';
import { scaleSection } from './scale';
import { cpuTimes, stealPercent, stolenShare } from './steal';
import { telegramSection } from './telegram';
import { Table } from './table';

const SECTIONS: Record<string, (table: Table, opts: BenchOptions) => Promise<void> | void> = {
  api: apiSection,
  claims: claimsSection,
  day: daySection,
  scale: scaleSection,
  bytes: (table) => bytesSection(table),
  browser: browserSection,
  'at-rest': atRestSection,
  lighthouse: lighthouseSection,
  telegram: telegramSection,
  bot: botSection,
};

function parseArgs(argv: string[]): BenchOptions {
  const value = (name: string) => argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  const quick = argv.includes('--quick');
  const only = value('only');
  const unknown = only?.split(',').filter((s) => !(s in SECTIONS)) ?? [];
  if (unknown.length)
    throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${Object.keys(SECTIONS).join(', ')}`);
  const pgUsers = Number(value('pg-users') ?? 1_000_000);
  if (!Number.isInteger(pgUsers) || pgUsers < 2000) throw new Error('--pg-users must be an integer ≥ 2000');
  return {
    quick,
    duration: quick ? 1 : 5,
    connections: 10,
    rounds: quick ? 1 : 3,
    pgUsers,
    only: only ? new Set(only.split(',')) : null,
  };
}

const opts = parseArgs(process.argv.slice(2));
const BUILT_SECTIONS = ['bytes', 'browser', 'at-rest', 'lighthouse'];
const needsBuild = !opts.only || BUILT_SECTIONS.some((s) => opts.only!.has(s));
if (needsBuild && !existsSync('dist/index.html')) {
  console.log('no build in dist/: running npm run build first');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Debian's Chromium for the sections that drive a browser, installed now rather than failing minutes in.
const BROWSER_SECTIONS = ['browser', 'at-rest', 'lighthouse'];
if (!opts.only || BROWSER_SECTIONS.some((s) => opts.only!.has(s))) {
  const args = ['scripts/debian-package.sh', '/usr/bin/chromium', 'chromium', "the bench's browser sections"];
  const install = spawnSync('bash', args, { stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const table = new Table();
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    console.error(`\n${signal}: cleaning up`);
    void cleanup.run().finally(() => process.exit(130));
  });
}

const started = Date.now();
const benchTimes = cpuTimes();
let failure: unknown = null;
try {
  for (const [name, run] of Object.entries(SECTIONS)) {
    if (opts.only && !opts.only.has(name)) continue;
    console.log(`\n${name}…`);
    const t = Date.now();
    await run(table, opts);
    await cleanup.run();
    console.log(`  (${((Date.now() - t) / 1000).toFixed(0)} s)`);
  }
} catch (err) {
  failure = err;
} finally {
  await cleanup.run();
}
if (!interrupted) {
  console.log(`\n${table.markdown()}\n`);
  console.log(
    `bench: ${((Date.now() - started) / 1000).toFixed(0)} s${opts.quick ? ' (--quick)' : ''}; machine: ${(await import('node:os')).cpus().length} cores, load ${(await import('node:os')).loadavg()[0].toFixed(1)}, ${stealPercent(stolenShare(benchTimes))} of the cores' time taken by the hypervisor (steal)`,
  );
  if (failure) {
    console.error('bench failed:', failure);
    process.exit(1);
  }
  if (table.failed) process.exit(1);
}
