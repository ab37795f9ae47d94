// SIGTERM ends the server within SHUTDOWN_TIMEOUT_MS whatever state its stdout is in (decisions
// §15, issue 22): a log reader that stopped reading (the pipe fills up) or went away. Before, a
// full stdout pipe blocked the process in a log write, and SIGTERM never ran: only SIGKILL ended it.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from '../helpers/server-process';
import { createPgDatabase, testDialects } from '../helpers/test-app';

const SHUTDOWN_TIMEOUT_MS = 3000;

describe.each(testDialects())('SIGTERM with a stuck stdout on %s', (dialect) => {
  const dirs: string[] = [];
  const drops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['stops reading', 'is closed'] as const)(
    'exits in time when the log reader %s',
    async (reader) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'pxt-stdout-'));
      dirs.push(dataDir);
      let databaseUrl: Record<string, string> = {};
      if (dialect === 'postgres') {
        const pg = await createPgDatabase();
        drops.push(pg.drop);
        databaseUrl = { DATABASE_URL: pg.url };
      }
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATA_DIR: dataDir,
          STATIC_DIR: '',
          WORKER_INTERVAL_MS: '0',
          RATE_LIMITS: 'off',
          SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
          PORT: String(port),
          HOST: '127.0.0.1',
          ...databaseUrl,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
        child.once('exit', (code, signal) => r({ code, signal })),
      );
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      child.stdout!.on('data', () => {});
      try {
        // Ready: read stdout as a journal does until then.
        for (let ready = false; !ready;) {
          if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
          ready = await fetch(`${base}/healthz`).then(
            (r) => r.ok,
            () => false,
          );
          if (!ready) await new Promise((r) => setTimeout(r, 100));
        }
        // stdout and stderr alike: nothing on the way to exit may wait for either.
        if (reader === 'stops reading') {
          child.stdout!.pause();
          child.stderr!.pause();
        } else {
          child.stdout!.destroy();
          child.stderr!.destroy();
        }
        // Each request logs two lines: far more than the pipe holds (64 KiB).
        const requests = Array.from({ length: 600 }, (_, i) =>
          fetch(`${base}/api/v1/config/?filler=${'x'.repeat(200)}-${i}`, { signal: AbortSignal.timeout(8000) }).then(
            (r) => r.arrayBuffer(),
            () => null,
          ),
        );
        await new Promise((r) => setTimeout(r, 1500));
        const sent = Date.now();
        process.kill(child.pid!, 'SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), SHUTDOWN_TIMEOUT_MS + 5000);
        const end = await exited;
        clearTimeout(timer);
        const took = Date.now() - sent;
        await Promise.all(requests);
        expect({ end, stderr }).not.toMatchObject({ end: { signal: 'SIGKILL' } });
        expect(took, stderr).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 1000);
      } finally {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
    },
    40_000,
  );

  // Log lines are written off the event loop, so the process waits (briefly) for them before exit.
  it('still writes its last log line before exiting: a port already in use', async () => {
    const taken = createServer();
    const port = await new Promise<number>((r) =>
      taken.listen(0, '127.0.0.1', () => r((taken.address() as { port: number }).port)),
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'pxt-stdout-'));
    dirs.push(dataDir);
    try {
      const run = spawnSync(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
        cwd: ROOT,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'info',
          DATA_DIR: dataDir,
          STATIC_DIR: '',
          WORKER_INTERVAL_MS: '0',
          PORT: String(port),
          HOST: '127.0.0.1',
        },
        encoding: 'utf8',
        timeout: 30_000,
        killSignal: 'SIGKILL',
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stdout).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
  }, 40_000);
});
