// Each request's logger (with its reqId, Idempotency-Key and player) becomes a pino child only when
// the request writes a line: at the production level a read writes none, so it makes no child.
// The lines that are written still carry every binding (tests/api/request-log.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('request loggers on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      dialect,
      { LOG_LEVEL: 'warn' },
      (app) => {
        app.get('/api/v1/test/warns', async (request) => {
          request.log.warn('something to look at');
          return { ok: true };
        });
      },
      { logStream: { write: (line) => void lines.push(line) } },
    );
  });
  afterAll(() => t.close());

  it('makes no pino child for a signed-in read that logs nothing', async () => {
    const p = await createPlayer(t);
    const root = t.app.log as unknown as { child: (...a: unknown[]) => unknown };
    const child = root.child;
    let children = 0;
    root.child = function (this: unknown, ...args: unknown[]) {
      children++;
      return child.apply(this, args);
    };
    try {
      expect((await apiCall(t, p, 'GET', '/auth/me', undefined, { 'idempotency-key': 'k-1' })).statusCode).toBe(200);
    } finally {
      root.child = child;
    }
    expect(children).toBe(0);
  });

  it('still writes a line with the request id, the Idempotency-Key and the player', async () => {
    const p = await createPlayer(t);
    const from = lines.length;
    expect((await apiCall(t, p, 'GET', '/test/warns', undefined, { 'idempotency-key': 'k-2' })).statusCode).toBe(200);
    const written = lines.slice(from).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      msg: 'something to look at',
      userId: p.id,
      idempotencyKey: 'k-2',
      reqId: expect.any(String),
    });
  });
});
