// The real server as a child process (`tsx server/main.ts`, or the compiled one) for the fault
// tests, the shutdown test and the bench: a free loopback port, the caller's environment, stopped
// gracefully or killed with SIGKILL.
// tsx is loaded into node itself (`node --import tsx`, what `npx tsx` runs) so the child is ONE
// process: a SIGKILL hits the server itself, not a launcher in front of it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

export interface ServerProcess {
  baseURL: string;
  port: number;
  pid: number;
  /** Everything the process printed so far. */
  log(): string;
  /** SIGTERM (graceful: requests in flight finish), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once: no shutdown hook runs, transactions in flight are cut off. */
  kill(): Promise<void>;
  /** Resolves when the process has ended, with its exit code (null when a signal ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface StartOptions {
  /** Environment on top of process.env; PORT and HOST are set here. */
  env: Record<string, string>;
  /** Script to run instead of server/main.ts (relative to the repository). */
  script?: string;
  /** Run this JavaScript with plain node (the compiled server) instead of `script` through tsx. */
  compiled?: string;
  port?: number;
  /** A path answering 200 once the server is ready. */
  readyPath?: string;
  timeoutMs?: number;
}

async function waitUntilReady(url: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${log()}`);
    try {
      const r = await fetch(url);
      await r.arrayBuffer();
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms:\n${log()}`);
}

export async function startServerProcess(opts: StartOptions): Promise<ServerProcess> {
  const port = opts.port ?? (await freePort());
  let output = '';
  const args = opts.compiled
    ? ['--enable-source-maps', opts.compiled]
    : ['--import', 'tsx', opts.script ?? 'server/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    // Tests sign up many players from one address, and hammer the server from it; a test of the
    // sign-up limit or of the request-rate limits sets them.
    env: {
      ...process.env,
      SIGNUP_LIMIT_PER_HOUR: '0',
      RATE_LIMITS: 'off',
      ...opts.env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output = (output + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (output = (output + d).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    child.once('exit', (code, signal) => r({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  const signal = (s: NodeJS.Signals) => {
    try {
      child.kill(s);
    } catch {
      /* gone already */
    }
  };
  const proc: ServerProcess = {
    baseURL: `http://127.0.0.1:${port}`,
    port,
    pid: child.pid!,
    log: () => output,
    exited,
    async stop(graceMs = 5000) {
      if (!running()) return;
      signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (!running()) return;
      signal('SIGKILL');
      await exited;
    },
  };
  try {
    await waitUntilReady(
      `${proc.baseURL}${opts.readyPath ?? '/api/v1/config/'}`,
      child,
      proc.log,
      opts.timeoutMs ?? 60_000,
    );
  } catch (err) {
    await proc.kill();
    throw err;
  }
  return proc;
}
