// Browser-test fixture: each test FILE gets its own real server (`tsx server/main.ts`) on a free
// port, a throw-away DATA_DIR and the built app (STATIC_DIR=dist; run `npm run build` first).
// Extra environment per file: `test.use({ serverEnv: { MINING_SESSION_SECONDS: '5' } })`.
// Tests get `baseURL` (so page.goto('/') works), `dataDir`, and `outbox()` (mails as .eml text).
// E2E_STATIC_DIR=<folder> serves a private build instead of dist/ (e.g. `npx vite build --outDir
// /tmp/my-dist`), for when other work rebuilds dist/ while the tests run.
// Offline tests stop the server with `server.halt()` and bring it back with `server.restart()`
// (same port and DATA_DIR); the next test of the file always gets a running server.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base, expect } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '../..');
export const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface RunningServer {
  baseURL: string;
  dataDir: string;
  file: string;
  env: Record<string, string>;
  /** Everything the server printed, for failure reports. */
  log: () => string;
  /** Stops the server for good and deletes its DATA_DIR. */
  stop: () => Promise<void>;
  /** Stops the server process only: DATA_DIR and the port stay, for `restart` (offline tests). */
  halt: () => Promise<void>;
  /** Starts the server again on the same port and DATA_DIR (halting it first if it runs), with
   * `envOverrides` on top of its environment for this run only (e.g. another STATIC_DIR). */
  restart: (envOverrides?: Record<string, string>) => Promise<void>;
  /** False between `halt` and `restart`. */
  running: () => boolean;
  /** True while it runs with `restart` overrides. */
  overridden: () => boolean;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => ok(port));
    });
  });
}

async function waitForServer(url: string, child: ChildProcess, log: () => string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${log()}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms:\n${log()}`);
}

/** The build the servers serve: dist/, or E2E_STATIC_DIR (a build made elsewhere, e.g. `vite build --outDir`). */
export const STATIC_DIR = process.env.E2E_STATIC_DIR ? resolve(process.env.E2E_STATIC_DIR) : join(ROOT, 'dist');

export async function startServer(file: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  if (!existsSync(join(STATIC_DIR, 'index.html')))
    throw new Error(`${STATIC_DIR} is missing: run \`npm run build\` before the browser tests`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-e2e-'));
  const baseURL = `http://127.0.0.1:${port}`;
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    STATIC_DIR,
    APP_URL: baseURL,
    SCRYPT_LOG_N: '14',
    // Every player of a file signs up from 127.0.0.1; a test of the sign-up limit sets it.
    SIGNUP_LIMIT_PER_HOUR: '0',
    // …and sign in, refresh and load the app from it many times a minute.
    RATE_LIMITS: 'off',
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    ...extraEnv,
  };
  let output = '';
  const log = () => output;
  let child: ChildProcess | null = null;
  let withOverrides = false;

  const spawnProcess = async (runEnv: Record<string, string>) => {
    // tsx itself, not through npx: npm's start-up would add most of a second to every boot.
    const proc = spawn(TSX, ['server/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...runEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // own process group: tsx → node, both stopped together
    });
    proc.stdout!.on('data', (d) => (output += d));
    proc.stderr!.on('data', (d) => (output += d));
    child = proc;
    await waitForServer(`${baseURL}/api/v1/config/`, proc, log);
  };
  const halt = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || !proc.pid) return;
    const exited = new Promise((r) => proc.once('exit', r));
    try {
      process.kill(-proc.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-proc.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
  const stop = async () => {
    await halt();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const restart = async (envOverrides: Record<string, string> = {}) => {
    await halt();
    withOverrides = Object.keys(envOverrides).length > 0;
    await spawnProcess({ ...env, ...envOverrides });
  };
  const running = () => child !== null && child.exitCode === null;
  const overridden = () => withOverrides;
  try {
    await spawnProcess(env);
  } catch (err) {
    await stop();
    throw err;
  }
  return { baseURL, dataDir, file, env, log, stop, halt, restart, running, overridden };
}

/** Mails the server wrote so far (DATA_DIR/outbox/*.eml), oldest first. */
export function readOutbox(dataDir: string): string[] {
  const dir = join(dataDir, 'outbox');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => readFileSync(join(dir, f), 'utf8'));
}

/** The outbox once it holds more than `before` mails (the server mails after it answers), else throws after ~5 s. */
export async function outboxAfter(dataDir: string, before: number): Promise<string[]> {
  for (let tries = 0; ; tries++) {
    const mails = readOutbox(dataDir);
    if (mails.length > before) return mails;
    if (tries >= 100) throw new Error('no mail written');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The first app link in a mail (base64 parts decoded: Russian mails come so; quoted-printable soft breaks and =3D undone). */
export function linkFromMail(eml: string, baseURL: string): string {
  const text = eml
    .replace(/Content-Transfer-Encoding: base64\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/g, (_, b64: string) =>
      Buffer.from(b64.replace(/\s+/g, ''), 'base64').toString('utf8'),
    )
    .replace(/=\r?\n/g, '')
    .replace(/=3D/gi, '=')
    .replace(/&amp;/g, '&');
  const escaped = baseURL.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = text.match(new RegExp(`${escaped}/\\?[^\\s"'<>]+`));
  if (!m) throw new Error(`no link to ${baseURL} in mail:\n${eml}`);
  return m[0];
}

/**
 * The app links, oldest first, of the mails to `to` that open `modal` (e.g. `confirmEmailChange`).
 * Account notices (new device, method added) now go to the same address, carry no such link and
 * may land after the mail a test waits for (decisions §13), so "the newest mail" is not enough.
 */
export function mailedLinks(dataDir: string, baseURL: string, to: string, modal: string): string[] {
  return readOutbox(dataDir)
    .filter((m) => m.includes(`To: ${to}`))
    .flatMap((m) => {
      try {
        return [linkFromMail(m, baseURL)];
      } catch {
        return [];
      }
    })
    .filter((link) => new URL(link).searchParams.get('modal') === modal);
}

/** The newest of mailedLinks, waiting ~5 s for one. */
export async function mailedLink(dataDir: string, baseURL: string, to: string, modal: string): Promise<string> {
  for (let tries = 0; ; tries++) {
    const link = mailedLinks(dataDir, baseURL, to, modal).at(-1);
    if (link) return link;
    if (tries >= 100) throw new Error(`no ${modal} link mailed to ${to}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Starts one server per test file and stops the previous file's server when the next file begins. */
class ServerPool {
  private current: (RunningServer & { extra: Record<string, string> }) | null = null;
  async forFile(file: string, env: Record<string, string>): Promise<RunningServer> {
    const key = JSON.stringify(env);
    if (
      this.current &&
      this.current.file === file &&
      JSON.stringify(this.current.env) === JSON.stringify({ ...this.current.env, ...env }) &&
      key
    ) {
      // A test that halted the server (offline tests) or restarted it with other settings and
      // stopped early: the next test of the file gets it back as the file configured it.
      if (!this.current.running() || this.current.overridden()) await this.current.restart();
      return this.current;
    }
    await this.stop();
    this.current = Object.assign(await startServer(file, env), { extra: env });
    return this.current;
  }
  async stop(): Promise<void> {
    const s = this.current;
    this.current = null;
    await s?.stop();
  }
}

interface TestFixtures {
  serverEnv: Record<string, string>;
  server: RunningServer;
  dataDir: string;
  outbox: () => string[];
}
interface WorkerFixtures {
  serverPool: ServerPool;
}

export const test = base.extend<TestFixtures, WorkerFixtures>({
  serverPool: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const pool = new ServerPool();
      await use(pool);
      await pool.stop();
    },
    { scope: 'worker' },
  ],
  serverEnv: [{}, { option: true }],
  server: async ({ serverPool, serverEnv }, use, testInfo) => {
    const server = await serverPool.forFile(testInfo.file, serverEnv);
    await use(server);
    if (testInfo.status !== testInfo.expectedStatus)
      await testInfo.attach('server.log', { body: server.log(), contentType: 'text/plain' });
  },
  baseURL: async ({ server }, use) => use(server.baseURL),
  dataDir: async ({ server }, use) => use(server.dataDir),
  outbox: async ({ server }, use) => use(() => readOutbox(server.dataDir)),
});

export { expect };
