// A day of play compressed into a minute (issue 25): the mix of bench/day-mix.ts (its model is
// written there) at 300 claims per second on SQLite for 60 s, every call's p99 against 100 ms, every
// claim paid once. After the minute, short steps at rising rates (falling, if the minute missed)
// find where the server saturates, and a missed target is profiled.
import { cpus } from 'node:os';
import { type BenchOptions, ms, percentile, serverEnv, startServer, tempDir } from './context';
import {
  BOOST_EVERY,
  BUY_EVERY,
  CALLS_PER_CLAIM,
  KINDS,
  type KindFigures,
  ME_PER_CLAIM,
  ROUTE,
  runStep,
  SESSIONS_PER_CLAIM,
  type StepResult,
} from './day-mix';
import { openBenchDatabase } from './players';
import { describeProfile, percent, profileWhileLoading } from './profile';
import { stealPercent } from './steal';
import type { Table } from './table';

const CLAIMS_PER_SECOND = 300;
const P99_TARGET_MS = 100;
/** Saturation steps: the rate multiplied (or divided, after a miss) by this, at most this many times. */
const STEP_FACTOR = 1.5;

// --- reading a step -----------------------------------------------------------------------------

const errorCount = (f: KindFigures) => [...f.errors.values()].reduce((s, n) => s + n, 0);
const allErrors = (r: StepResult) => KINDS.reduce((s, k) => s + errorCount(r.byKind[k]), 0);
const p99 = (f: KindFigures) => percentile(f.latencies, 99);
const worst = (r: StepResult) =>
  KINDS.filter((k) => r.byKind[k].latencies.length).reduce((a, b) => (p99(r.byKind[a]) >= p99(r.byKind[b]) ? a : b));
const meets = (r: StepResult) =>
  allErrors(r) === 0 && r.problems.length === 0 && KINDS.every((k) => !(p99(r.byKind[k]) >= P99_TARGET_MS));
const callsPerSecond = (r: StepResult) => KINDS.reduce((s, k) => s + r.byKind[k].latencies.length, 0) / r.seconds;
const core = (share: number) => `${Math.round(share * 100)} % of one core`;
const claimRate = (n: number) => `${Math.round(n)} claims/s`;

/** What held a step back: errors, the server's one core, the generator, or the machine. */
function whatBroke(r: StepResult): string {
  const parts: string[] = [];
  const k = worst(r);
  if (p99(r.byKind[k]) >= P99_TARGET_MS) parts.push(`p99 ${ms(p99(r.byKind[k]))} on ${ROUTE[k]}`);
  const errors = allErrors(r);
  if (errors) parts.push(`${errors} errors`);
  if (r.problems.length) parts.push(r.problems.join('; '));
  const why: string[] = [];
  if (r.serverCpu >= 0.85) why.push(`the server at ${core(r.serverCpu)} (one process: its limit)`);
  if (r.generatorCpu >= 0.85 || r.sendLagP99 >= 20)
    why.push(`the generator at ${core(r.generatorCpu)}, sending ${ms(r.sendLagP99)} late (p99)`);
  if (r.serverWaited >= 0.2 || r.generatorWaited >= 0.2)
    why.push(
      `the machine: other processes held the cores (load ${r.load.toFixed(1)} on ${cpus().length}); the server's thread waited for one ${percent(r.serverWaited)} of the step, the generator's ${percent(r.generatorWaited)}`,
    );
  if (r.stolen >= 0.1) why.push(`the host: its hypervisor took ${percent(r.stolen)} of the cores' time (steal)`);
  if (!why.length)
    why.push(`neither process near one core (server ${core(r.serverCpu)}, generator ${core(r.generatorCpu)})`);
  return `${parts.join(', ')}; ${why.join(' and ')}`;
}

function describeKinds(r: StepResult): string {
  return KINDS.map((k) => {
    const f = r.byKind[k];
    const errors = errorCount(f);
    const detail = errors ? ` (${[...f.errors].map(([what, n]) => `${n} × ${what}`).join(', ')})` : '';
    return `${ROUTE[k]} ${f.latencies.length.toLocaleString('en-US')}: p50 ${ms(percentile(f.latencies, 50))}, p99 ${ms(p99(f))}, max ${ms(Math.max(...f.latencies))}, ${errors} errors${detail}`;
  }).join('; ');
}

const stepLine = (r: StepResult) =>
  `${claimRate(r.claimsPerSecond)} (${Math.round(callsPerSecond(r)).toLocaleString('en-US')} calls/s): worst p99 ${ms(p99(r.byKind[worst(r)]))} (${ROUTE[worst(r)]}), ${allErrors(r)} errors, server ${core(r.serverCpu)}, generator ${core(r.generatorCpu)}, steal ${stealPercent(r.stolen)}`;

// --- the section --------------------------------------------------------------------------------

export async function daySection(table: Table, opts: BenchOptions): Promise<void> {
  const seconds = opts.quick ? 10 : 60;
  const stepSeconds = opts.quick ? 5 : 10;
  const maxSteps = opts.quick ? 1 : 4;
  const dataDir = tempDir('day');
  const database = await openBenchDatabase({ dataDir });
  const server = await startServer({ env: serverEnv(dataDir) });
  const section = 'Day of play (SQLite)';

  // A few seconds at a third of the rate first: the JIT compiles the paths, as in a server in service.
  await runStep(server, database.db, CLAIMS_PER_SECOND / 3, opts.quick ? 2 : 5, 'dayw');
  const day = await runStep(server, database.db, CLAIMS_PER_SECOND, seconds, 'day');
  const met = meets(day);
  table.add({
    section,
    measure: `${seconds} s at ${claimRate(CLAIMS_PER_SECOND)}, per call: count, p50/p99/max, errors`,
    result: describeKinds(day),
    verdict: 'info',
  });
  table.add({
    section,
    measure: `${claimRate(CLAIMS_PER_SECOND)} for ${seconds} s (model: ${ME_PER_CLAIM} /auth/me and ${SESSIONS_PER_CLAIM} /mining/sessions/ per claim, a start after each, a boost every ${BOOST_EVERY}th, a purchase every ${BUY_EVERY}th)`,
    result: `worst p99 ${ms(p99(day.byKind[worst(day)]))} (${ROUTE[worst(day)]}), ${allErrors(day)} errors, ${Math.round(callsPerSecond(day)).toLocaleString('en-US')} calls/s`,
    target: `p99 < ${P99_TARGET_MS} ms for every call, no error`,
    verdict: met ? 'met' : 'missed',
  });
  table.add({
    section,
    measure: 'every claim paid once (ledger: one mining_claim row per claim, no unique_key twice)',
    result: day.problems.length
      ? `NO — ${day.problems.join('; ')}`
      : `yes: ${day.byKind.claim.latencies.length - errorCount(day.byKind.claim)} claims, as many rows`,
    target: 'every claim paid once',
    verdict: day.problems.length ? 'failed' : 'met',
  });
  table.add({
    section,
    measure: 'CPU during the run',
    result: `server ${core(day.serverCpu)}, ${Math.round(day.serverMicrosPerCall)} µs per call = ${Math.round(day.serverMicrosPerCall * CALLS_PER_CLAIM).toLocaleString('en-US')} µs per claim with its ${(CALLS_PER_CLAIM - 1).toFixed(1)} other calls (one core's worth: ${claimRate(1e6 / (day.serverMicrosPerCall * CALLS_PER_CLAIM))} of this mix), waited for a core ${percent(day.serverWaited)} of the run; load generator ${core(day.generatorCpu)} (${Math.round(day.generatorMicrosPerCall)} µs per call), sending ${ms(day.sendLagP99)} late at p99; machine load ${day.load.toFixed(1)} on ${cpus().length} cores, ${stealPercent(day.stolen)} of their time taken by the hypervisor (steal)`,
    verdict: 'info',
  });

  // Where it saturates: up from the target while steps meet it, or down from it after a miss.
  const steps: StepResult[] = [];
  let rate = CLAIMS_PER_SECOND;
  for (let i = 0; i < maxSteps; i++) {
    rate = met ? rate * STEP_FACTOR : rate / STEP_FACTOR;
    const step = await runStep(server, database.db, rate, stepSeconds, `days${i}_`);
    steps.push(step);
    console.log(`    step ${stepLine(step)}${meets(step) ? '' : ' — missed'}`);
    if (meets(step) !== met) break;
  }
  const all = [day, ...steps];
  const highestMet = all.filter(meets).sort((a, b) => b.claimsPerSecond - a.claimsPerSecond)[0];
  const lowestMissed = all.filter((r) => !meets(r)).sort((a, b) => a.claimsPerSecond - b.claimsPerSecond)[0];
  table.add({
    section,
    measure: `where it saturates (${stepSeconds} s steps, ×${STEP_FACTOR} ${met ? 'up' : 'down'} from ${claimRate(CLAIMS_PER_SECOND)})`,
    result: `highest met: ${highestMet ? stepLine(highestMet) : `none down to ${claimRate(rate)}`}; lowest missed: ${lowestMissed ? `${stepLine(lowestMissed)}; what broke: ${whatBroke(lowestMissed)}` : `none up to ${claimRate(rate)}`}`,
    verdict: 'info',
  });
  await server.stop();

  if (!met) {
    // Where the time goes: the same mix again on a server under V8's sampling profiler.
    const profileFile = `${dataDir}/day.cpuprofile`;
    const profiled = await startServer({
      env: serverEnv(dataDir, { PROFILE_FILE: profileFile }),
      script: 'bench/profiled-server.ts',
    });
    await runStep(profiled, database.db, CLAIMS_PER_SECOND / 3, 2, 'dayprofw');
    const summary = await profileWhileLoading(profiled.pid, profileFile, () =>
      runStep(profiled, database.db, CLAIMS_PER_SECOND, stepSeconds, 'dayprof'),
    );
    await profiled.stop();
    table.add({
      section,
      measure: `where the time goes at ${claimRate(CLAIMS_PER_SECOND)}`,
      result: `${whatBroke(day)}; profile: ${describeProfile(summary)}`,
      verdict: 'info',
    });
  }
  await database.close();
}
