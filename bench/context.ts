// What every bench section shares: the run's options, a cleanup stack (servers, temp folders, the
// PostgreSQL cluster) emptied at the end even after a failure or Ctrl-C, the server environment,
// and small statistics helpers.
import { openSessions } from '../tests/helpers/bulk-players';
import type { Db } from '../server/db/schema';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ACCESS_TOKEN_SECONDS } from '@shared/constants';
import { createJwt } from '../server/services/jwt';
import { ROOT, startServerProcess, type ServerProcess, type StartOptions } from '../tests/helpers/server-process';
import { buildServer } from '../scripts/build-server.mjs';

export interface BenchOptions {
  /** 1 s per throughput figure and one claim burst instead of three. */
  quick: boolean;
  /** Seconds per autocannon figure. */
  duration: number;
  connections: number;
  /** Claim bursts per database size (the median is reported). */
  rounds: number;
  /** Players in the big PostgreSQL database. */
  pgUsers: number;
  /** Sections to run (all by default). */
  only: Set<string> | null;
}

export class Cleanup {
  private steps: { label: string; run: () => Promise<void> | void }[] = [];
  add(label: string, run: () => Promise<void> | void): void {
    this.steps.push({ label, run });
  }
  /** Runs (and forgets) the steps, newest first; failures are reported, not thrown. */
  async run(): Promise<void> {
    while (this.steps.length > 0) {
      const step = this.steps.pop()!;
      try {
        await step.run();
      } catch (err) {
        console.error(`cleanup (${step.label}) failed: ${String(err)}`);
      }
    }
  }
}

export const cleanup = new Cleanup();

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `pxt-bench-${prefix}-`));
  cleanup.add(`rm ${dir}`, () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The API server as production runs it, with background work off unless asked for. */
export function serverEnv(dataDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    DATA_DIR: dataDir,
    STATIC_DIR: '',
    WORKER_INTERVAL_MS: '0',
    // Load from one machine: the per-address sign-up limit would refuse the simulated players.
    SIGNUP_LIMIT_PER_HOUR: '0',
    // …and the request-rate limits would refuse the load itself (decisions §12).
    RATE_LIMITS: 'off',
    JWT_SECRET: BENCH_JWT_SECRET,
    // No mail server in the bench: production refuses to start without SMTP_URL unless told so (decisions §15).
    MAIL_TRANSPORT: 'outbox',
    ...extra,
  };
}

export const BENCH_JWT_SECRET = randomBytes(32).toString('base64url');
const jwt = createJwt(BENCH_JWT_SECRET);
/** Access tokens of new sessions (decisions §13) for `userIds`, minted as the servers would: user id → token. */
export async function tokensFor(db: Db, userIds: number[]): Promise<Map<number, string>> {
  const sessions = await openSessions(db, userIds);
  return new Map(userIds.map((id) => [id, jwt.issueAccess(id, sessions.get(id)!, ACCESS_TOKEN_SECONDS)]));
}
export const tokenFor = async (db: Db, userId: number) => (await tokensFor(db, [userId])).get(userId)!;

/** The bench's servers, compiled as `npm run build:server` compiles the app: source → output name. */
const BENCH_ENTRIES: Record<string, string> = {
  'server/main.ts': 'main',
  'bench/bare-server.ts': 'bare-server',
  'bench/profiled-server.ts': 'profiled-server',
};
let compiling: Promise<string> | null = null;
/**
 * The folder of the compiled servers, built once per run (inside the repository, so their packages
 * resolve from node_modules). The servers run as production runs them: through tsx, esbuild's
 * transform keeps every function's name with a helper call, so each closure the request path makes
 * cost a property definition (about 3 µs of CPU per GET /auth/me, 7 µs per /mining/boosts/, issue 25).
 */
function compiledServers(): Promise<string> {
  compiling ??= (async () => {
    const outdir = join(ROOT, '.tmp', `bench-servers-${process.pid}`);
    // Emptied after each section with the rest: the next section that starts a server builds again.
    cleanup.add(`rm ${outdir}`, () => {
      compiling = null;
      rmSync(outdir, { recursive: true, force: true });
    });
    await buildServer(outdir, Object.fromEntries(Object.entries(BENCH_ENTRIES).map(([src, name]) => [name, src])));
    return outdir;
  })();
  return compiling;
}

/**
 * Starts a server child process that the cleanup stack stops: `script` (default server/main.ts)
 * compiled, run with `node --enable-source-maps` as `npm run serve` runs the app.
 */
export async function startServer(opts: StartOptions): Promise<ServerProcess> {
  const script = opts.script ?? 'server/main.ts';
  const name = BENCH_ENTRIES[script];
  if (!name) throw new Error(`the bench compiles only ${Object.keys(BENCH_ENTRIES).join(', ')}, not ${script}`);
  const server = await startServerProcess({ ...opts, compiled: join(await compiledServers(), `${name}.js`) });
  cleanup.add(`stop server ${server.port}`, () => server.stop());
  return server;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const median = (values: readonly number[]) => percentile(values, 50);

/** Milliseconds; autocannon records whole milliseconds, so its 0 means under one. */
export const ms = (n: number) =>
  !Number.isFinite(n) ? 'n/a' : n === 0 ? '< 1 ms' : `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
export const perSecond = (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`;
export const ratio = (n: number) => `${n.toFixed(2)}×`;
