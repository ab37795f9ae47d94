// Request bodies have a deadline (decisions §15, REQUEST_TIMEOUT_MS, default 30 s): a client that
// sends its body one byte at a time cannot hold a connection (and a body parser) for ever. Checked
// against a real server process on loopback with a short setting and a slow client that gives up
// after SLOW_CLIENT_MS; before, the server waited for the body as long as the client kept sending.
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { createPgDatabase, testDialects } from '../helpers/test-app';

const REQUEST_TIMEOUT_MS = 1500;
const SLOW_CLIENT_MS = 10_000;

/** POSTs a 100-byte body one byte every 300 ms; resolves with what the server answered and when the connection ended. */
function slowBody(port: number): Promise<{ answer: string; endedAfterMs: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    const finish = () => {
      clearInterval(timer);
      socket.destroy();
      resolve({ answer, endedAfterMs: Date.now() - started });
    };
    socket.on('data', (d) => (answer += d));
    socket.on('close', finish);
    socket.on('error', () => {});
    socket.write(
      'POST /api/v1/auth/login-by-email/ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const timer = setInterval(() => socket.write(' '), 300);
    setTimeout(finish, SLOW_CLIENT_MS);
  });
}

describe.each(testDialects())('request deadline on %s', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-deadline-'));
  let server: ServerProcess;
  let drop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const pg = dialect === 'postgres' ? await createPgDatabase() : null;
    drop = pg?.drop;
    server = await startServerProcess({
      env: {
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        STATIC_DIR: '',
        WORKER_INTERVAL_MS: '0',
        REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
        ...(pg ? { DATABASE_URL: pg.url } : {}),
      },
      readyPath: '/healthz',
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('ends a request whose body is still trickling in after REQUEST_TIMEOUT_MS', async () => {
    const { answer, endedAfterMs } = await slowBody(server.port);
    expect(endedAfterMs).toBeLessThan(REQUEST_TIMEOUT_MS + 3000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  }, 20_000);
});

describe('REQUEST_TIMEOUT_MS', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-deadline-cfg-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it('is 30 s unless set, and a positive number of milliseconds', () => {
    expect(loadConfig({ DATA_DIR: dir }).requestTimeoutMs).toBe(30_000);
    expect(loadConfig({ DATA_DIR: dir, REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs).toBe(5000);
    expect(() => loadConfig({ DATA_DIR: dir, REQUEST_TIMEOUT_MS: '0' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});
