// One HTTP request on its own connection from a chosen loopback source address (all of 127/8 is
// loopback on Linux), so a test against a real server process can play many clients without a proxy.
import { request as httpRequest } from 'node:http';
import type { ServerProcess } from './server-process';

export interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** Status 0 when the connection failed. */
export function callFrom(
  server: ServerProcess,
  localAddress: string,
  method: string,
  path: string,
  body?: object,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const t0 = performance.now();
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        method,
        path,
        localAddress,
        agent: false,
        headers: {
          ...headers,
          ...(payload
            ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }
            : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: performance.now() - t0 }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - t0 }));
    req.end(payload);
  });
}

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
/** "p50 …, max … (n)" of latencies, for the lines a load test prints (never asserted: machines are noisy). */
export const latencyFigures = (xs: number[]) =>
  xs.length ? `p50 ${Math.round(p50(xs))} ms, max ${Math.round(Math.max(...xs))} ms (${xs.length})` : 'none';

/**
 * The environment of a real server process for sign-in load tests: the DEFAULT scrypt cost and
 * hash queue whatever the shell has, no proxy, no worker, request-rate limits off (a load from one
 * machine; the sign-in attempt limits stay on).
 */
export const defaultCostEnv = (dataDir: string, staticDir = '') => ({
  NODE_ENV: 'test',
  DATA_DIR: dataDir,
  STATIC_DIR: staticDir,
  WORKER_INTERVAL_MS: '0',
  APP_URL: 'http://app.test',
  SCRYPT_LOG_N: '',
  HASH_CONCURRENCY: '',
  HASH_QUEUE: '',
  HASH_QUEUE_PER_CLIENT: '',
  TRUST_PROXY: '',
  RATE_LIMITS: 'off',
});
