// 200 players claiming at the same moment, each with a finished session seeded straight into the
// database: every claim must be paid (one `mining_claim` ledger row per player, no duplicate), and
// the latency each player saw is recorded. Used on SQLite here and on PostgreSQL by bench/scale.ts.
import { randomBytes } from 'node:crypto';
import type { Db, Dialect } from '../server/db/schema';
import { seedPlayers } from '../tests/helpers/bulk-players';
import type { ServerProcess } from '../tests/helpers/server-process';
import { type BenchOptions, median, ms, percentile, serverEnv, startServer, tempDir, tokensFor } from './context';
import { cpuSeconds } from './load';
import { openBenchDatabase } from './players';
import { describeProfile, profileWhileLoading } from './profile';
import type { Table } from './table';

export const CLAIMERS = 200;
const SQLITE_P99_TARGET_MS = 300;

export interface Burst {
  p50: number;
  p99: number;
  max: number;
  /** Server CPU time per claim (user + system), microseconds. */
  cpuMicros: number;
  /** Everything that is wrong with the outcome (empty when all were paid exactly once). */
  problems: string[];
}

/** The server answers a few calls first, so start-up work (JIT, pool connections) is not measured. */
async function warmUp(server: ServerProcess, userIds: number[], tokens: Map<number, string>): Promise<void> {
  for (let i = 0; i < 3; i++) {
    await Promise.all(
      userIds.slice(0, 20).map(async (id) => {
        const r = await fetch(`${server.baseURL}/api/v1/auth/me`, {
          headers: { authorization: `Bearer ${tokens.get(id)}` },
        });
        await r.arrayBuffer();
      }),
    );
  }
}

export async function claimBurst(server: ServerProcess, db: Db, dialect: Dialect, tag: string): Promise<Burst> {
  const { ids } = await seedPlayers(db, dialect, { count: CLAIMERS, tag, session: 'ended' });
  const tokens = await tokensFor(db, ids);
  await warmUp(server, ids, tokens);
  const requests = ids.map((id) => ({ id, token: tokens.get(id)!, key: `bench-${randomBytes(8).toString('hex')}` }));
  const cpuBefore = cpuSeconds(server.pid);
  const answers = await Promise.all(
    requests.map(async (r) => {
      const started = performance.now();
      try {
        const res = await fetch(`${server.baseURL}/api/v1/mining/claim/`, {
          headers: { authorization: `Bearer ${r.token}`, 'idempotency-key': r.key },
        });
        await res.arrayBuffer();
        return { status: res.status, ms: performance.now() - started };
      } catch (err) {
        return { status: 0, ms: performance.now() - started, err };
      }
    }),
  );

  const cpuMicros = ((cpuSeconds(server.pid) - cpuBefore) * 1e6) / CLAIMERS;
  const problems: string[] = [];
  const notOk = answers.filter((a) => a.status !== 200);
  if (notOk.length)
    problems.push(`${notOk.length} claims not answered 200 (${[...new Set(notOk.map((a) => a.status))].join(', ')})`);
  const rows = await db
    .selectFrom('ledger')
    .select(['user_id', 'unique_key'])
    .where('reason', '=', 'mining_claim')
    .where('user_id', 'in', ids)
    .execute();
  const users = new Set(rows.map((r) => Number(r.user_id)));
  if (rows.length !== CLAIMERS) problems.push(`${rows.length} mining_claim ledger rows for ${CLAIMERS} players`);
  if (users.size !== CLAIMERS) problems.push(`${CLAIMERS - users.size} players unpaid`);
  if (new Set(rows.map((r) => r.unique_key)).size !== rows.length) problems.push('duplicate payments');
  const latencies = answers.map((a) => a.ms);
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: Math.max(...latencies),
    cpuMicros,
    problems,
  };
}

/**
 * Several bursts in a row; the medians of their p50 and p99 are the figure (a loaded machine is
 * noisy). A first burst is not counted: it measures the JIT compiling the claim path, which a
 * server in service has done long ago.
 */
export async function claimRounds(
  server: ServerProcess,
  db: Db,
  dialect: Dialect,
  tag: string,
  rounds: number,
): Promise<Burst> {
  const warmUpBurst = await claimBurst(server, db, dialect, `${tag}w_`);
  if (warmUpBurst.problems.length) return warmUpBurst;
  const bursts: Burst[] = [];
  for (let i = 0; i < rounds; i++) bursts.push(await claimBurst(server, db, dialect, `${tag}${i}_`));
  return {
    p50: median(bursts.map((b) => b.p50)),
    p99: median(bursts.map((b) => b.p99)),
    max: Math.max(...bursts.map((b) => b.max)),
    cpuMicros: median(bursts.map((b) => b.cpuMicros)),
    problems: bursts.flatMap((b) => b.problems),
  };
}

export const burstResult = (b: Burst, rounds: number) =>
  `all paid once: ${b.problems.length ? `NO — ${b.problems.join('; ')}` : 'yes'}; p50 ${ms(b.p50)}, p99 ${ms(b.p99)}, max ${ms(b.max)}; server CPU ${Number.isFinite(b.cpuMicros) ? `${Math.round(b.cpuMicros)} µs` : 'n/a'}/claim${rounds > 1 ? ` (median of ${rounds} bursts)` : ''}`;

export async function claimsSection(table: Table, opts: BenchOptions): Promise<void> {
  const dataDir = tempDir('claims');
  const database = await openBenchDatabase({ dataDir });
  await seedPlayers(database.db, 'sqlite', { count: 1000, tag: 'crowd', session: 'claimed' });
  const server = await startServer({ env: serverEnv(dataDir) });
  const burst = await claimRounds(server, database.db, 'sqlite', 'claim', opts.rounds);
  await server.stop();
  const missed = !burst.problems.length && burst.p99 >= SQLITE_P99_TARGET_MS;
  table.add({
    section: 'Claims (SQLite)',
    measure: `${CLAIMERS} players claim at once`,
    result: burstResult(burst, opts.rounds),
    target: `p99 < ${SQLITE_P99_TARGET_MS} ms`,
    verdict: burst.problems.length ? 'failed' : missed ? 'missed' : 'met',
  });
  if (missed) {
    // Where the time goes: one process answers every claim, so the burst needs at least its CPU
    // time on one core; and the same burst again under V8's sampling profiler.
    const loadAverage = (await import('node:os')).loadavg()[0];
    const profileFile = `${dataDir}/claims.cpuprofile`;
    const profiled = await startServer({
      env: serverEnv(dataDir, { PROFILE_FILE: profileFile }),
      script: 'bench/profiled-server.ts',
    });
    await claimBurst(profiled, database.db, 'sqlite', 'profw_');
    const summary = await profileWhileLoading(profiled.pid, profileFile, () =>
      claimBurst(profiled, database.db, 'sqlite', 'prof_'),
    );
    await profiled.stop();
    table.add({
      section: 'Claims (SQLite)',
      measure: 'where the claims’ time goes',
      result: `${CLAIMERS} × ${Math.round(burst.cpuMicros)} µs = ${ms((CLAIMERS * burst.cpuMicros) / 1000)} of one core's CPU (machine load ${loadAverage.toFixed(1)}); profile: ${describeProfile(summary)}`,
      verdict: 'info',
    });
  }
  await database.close();
}
