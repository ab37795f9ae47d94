// The request lines written by hand (server/lib/request-lines.ts) are the lines pino writes for the
// same request through Fastify's own LogController: the same keys in the same order, the same
// values. Two bare Fastify apps with the app's logger settings answer the same requests; only the
// time and the measured response time may differ. The hand-written lines are checked both ways
// they leave: at once (a plain stream), and made only when the log's batch goes out (the server's
// own output, lib/log-output.ts), when the request is long over and its player was known since.
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestSerializer } from '../../server/lib/log-redaction';
import { nonBlockingOutput } from '../../server/lib/log-output';
import { logAsUser, requestChildLogger } from '../../server/lib/request-log';
import { type LogSink, RequestLines } from '../../server/lib/request-lines';

/** Lines the hand-written way wrote (its own sink counts them). */
let byHandCount = 0;

/** Where an app's lines go, and how a test reads them. */
interface Log {
  stream: LogSink;
  /** Every line so far, once all are out. */
  lines(): Promise<string[]>;
  close(): void;
}

/** A plain stream: each line is written as it comes. */
function memoryLog(): Log {
  const lines: string[] = [];
  return { stream: { write: (line) => void lines.push(line) }, lines: async () => lines, close: () => {} };
}

/** The server's output, into a file: request lines are made when a batch goes out. */
function batchedLog(): Log {
  const dir = mkdtempSync(join(tmpdir(), 'pxt-lines-'));
  const file = join(dir, 'out.log');
  const fd = openSync(file, 'w');
  const output = nonBlockingOutput(fd);
  return {
    stream: output,
    async lines() {
      await output.flush(5000);
      return readFileSync(file, 'utf8')
        .split(/(?<=\n)/)
        .filter(Boolean);
    },
    close() {
      closeSync(fd);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function appWith(log: Log, controller?: RequestLines): FastifyInstance {
  const sink = log.stream;
  const app = Fastify({
    logger: { level: 'info', serializers: { req: requestSerializer }, stream: sink },
    childLoggerFactory: requestChildLogger,
    ...(controller ? { logController: controller } : {}),
  });
  const counted = (write: (line: string) => void) => (line: string) => {
    byHandCount++;
    write(line);
  };
  controller?.attach(app.log as pino.Logger, {
    write: counted((line) => sink.write(line)),
    ...(sink.defer ? { defer: (maker) => sink.defer!({ drain: (write) => maker.drain(counted(write)) }) } : {}),
  });
  app.addHook('onRequest', (request, reply, done) => {
    const player = request.headers['x-player'];
    if (typeof player === 'string') logAsUser(request, reply, Number(player));
    done();
  });
  app.get('/api/v1/auth/confirm-email/:token/', async () => ({ ok: true }));
  app.get('/api/v1/mining/start/', async (request) => {
    if (request.query && (request.query as Record<string, string>).warn) request.log.warn('a line of the handler');
    return { started: true };
  });
  app.get('/api/v1/refused/', async (_request, reply) => reply.code(400).send({ detail: 'no', code: 'invalid' }));
  return app;
}

/** The lines with the time and the response time, which differ by nature, set to 0. */
const comparable = (lines: string[]) =>
  lines.map((l) => l.replace(/"time":\d+/, '"time":0').replace(/"responseTime":[\d.e-]+/, '"responseTime":0'));

describe.each([
  ['at once', memoryLog],
  ["in the log's batches", batchedLog],
])('request lines written by hand, %s', (_how, logOf) => {
  const fast = logOf();
  const pinos = memoryLog();
  let byHand: FastifyInstance;
  let byPino: FastifyInstance;
  beforeAll(async () => {
    byHand = appWith(fast, new RequestLines());
    byPino = appWith(pinos);
    await Promise.all([byHand.ready(), byPino.ready()]);
  });
  afterAll(async () => {
    await Promise.all([byHand?.close(), byPino?.close()]);
    fast.close();
  });

  // `byHand`: how many of the request's two lines skip pino.
  const cases: { name: string; url: string; headers?: Record<string, string>; byHand: number }[] = [
    {
      name: 'a signed-in call with an Idempotency-Key',
      url: '/api/v1/mining/start/',
      headers: { 'x-player': '7', 'idempotency-key': 'k-"quoted"\\1' },
      byHand: 2,
    },
    { name: 'an anonymous call', url: '/api/v1/mining/start/', byHand: 2 },
    {
      // The hand-written JSON quotes plain ASCII itself and leaves the rest to JSON.stringify.
      name: 'a host and a key that JSON must escape, and text beyond ASCII',
      url: '/api/v1/mining/start/?q=%22caf%C3%A9%22',
      headers: { host: 'ex"am\\ple\u00e9.test', 'idempotency-key': 'ключ\u2028\u0007' },
      byHand: 2,
    },
    {
      name: 'a mailed token in the path and the query',
      url: '/api/v1/auth/confirm-email/secret-token/?token=abc&x=1',
      byHand: 2,
    },
    { name: 'a refused call', url: '/api/v1/refused/', headers: { 'x-player': '9' }, byHand: 2 },
    {
      name: 'a call whose handler logs a line of its own (pino writes the rest)',
      url: '/api/v1/mining/start/?warn=1',
      headers: { 'x-player': '3' },
      byHand: 1,
    },
    // Fastify's 404 handler writes a line of its own ("Route GET:/nowhere not found") through pino.
    { name: 'an unknown route', url: '/nowhere', byHand: 1 },
  ];
  it.each(cases)('$name: the same JSON as pino', async ({ url, headers, byHand: expected }) => {
    const from = [(await fast.lines()).length, (await pinos.lines()).length];
    const handBefore = byHandCount;
    const a = await byHand.inject({ method: 'GET', url, headers, remoteAddress: '192.0.2.7' });
    const b = await byPino.inject({ method: 'GET', url, headers, remoteAddress: '192.0.2.7' });
    expect(a.statusCode).toBe(b.statusCode);
    const mine = comparable((await fast.lines()).slice(from[0]));
    expect(mine.length).toBeGreaterThanOrEqual(2);
    // Request ids count per app: both apps answered the same requests in the same order.
    expect(mine).toEqual(comparable((await pinos.lines()).slice(from[1])));
    for (const line of mine) expect(() => JSON.parse(line)).not.toThrow();
    expect(mine.join('')).not.toContain('secret-token');
    expect(byHandCount - handBefore).toBe(expected);
  });

  it('leaves the lines to pino when the level is above info', async () => {
    byHand.log.level = 'warn';
    const from = (await fast.lines()).length;
    await byHand.inject({ method: 'GET', url: '/api/v1/mining/start/' });
    expect((await fast.lines()).slice(from)).toEqual([]);
    byHand.log.level = 'info';
  });
});

describe("request lines in the log's batches", () => {
  it('are made when the batch goes out, not while requests are answered', async () => {
    const log = batchedLog();
    const controller = new RequestLines();
    let made = 0;
    const app = appWith(log, controller);
    const drain = controller.drain.bind(controller);
    controller.drain = (write) => {
      made++;
      drain(write);
    };
    try {
      for (let i = 0; i < 20; i++)
        expect((await app.inject({ method: 'GET', url: '/api/v1/mining/start/' })).statusCode).toBe(200);
      expect(made).toBe(0);
      const lines = await log.lines();
      expect(made).toBe(1);
      expect(lines.map((l) => JSON.parse(l).msg)).toEqual(
        Array.from({ length: 20 }, () => ['incoming request', 'request completed']).flat(),
      );
    } finally {
      await app.close();
      log.close();
    }
  });
});
