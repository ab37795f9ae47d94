// Request logs name the player (`userId`, once the access token is checked) and the call's
// Idempotency-Key, so an operator can follow one player's retries, and never carry a token: no
// Authorization header, no refresh token from a body. Read from the real app's log stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, bearer, registerAndConfirm } from '../helpers/accounts';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

interface LogLine {
  msg: string;
  reqId?: string;
  userId?: number;
  idempotencyKey?: string;
  req?: { url: string };
  res?: { statusCode: number };
}

describe.each(testDialects())('request logs on %s', (dialect) => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(dialect, { LOG_LEVEL: 'info', MINING_SESSION_SECONDS: '60' }, undefined, {
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(() => t?.close());

  /** The log lines of the one request to `url` made by `call`. */
  async function linesOf(url: string, call: () => Promise<unknown>): Promise<LogLine[]> {
    const from = lines.length;
    await call();
    const written = lines.slice(from).map((l) => JSON.parse(l) as LogLine);
    const incoming = written.filter((l) => l.msg === 'incoming request' && l.req?.url === url);
    expect(incoming, url).toHaveLength(1);
    return written.filter((l) => l.reqId === incoming[0].reqId);
  }

  it('names the player and the Idempotency-Key on the request completed line', async () => {
    const p = await createPlayer(t);
    const key = 'start-7f3c2a90-retry-me';
    const logged = await linesOf(`${API}/mining/start/`, () =>
      apiCall(t, p, 'GET', '/mining/start/', undefined, { 'idempotency-key': key }),
    );
    const completed = logged.find((l) => l.msg === 'request completed')!;
    expect(completed).toMatchObject({ userId: p.id, idempotencyKey: key, res: { statusCode: 200 } });
    // The key is in the headers from the start; the player only once the token was checked.
    expect(logged.find((l) => l.msg === 'incoming request')).toMatchObject({ idempotencyKey: key });

    // The replay of the same call is logged with the same key and player.
    const replay = await linesOf(`${API}/mining/start/`, () =>
      apiCall(t, p, 'GET', '/mining/start/', undefined, { 'idempotency-key': key }),
    );
    expect(replay.find((l) => l.msg === 'request completed')).toMatchObject({ userId: p.id, idempotencyKey: key });
  });

  it('names nobody for a signed-out call or a token that is not valid', async () => {
    const anonymous = await linesOf(`${API}/config/`, () => t.app.inject({ method: 'GET', url: `${API}/config/` }));
    expect(anonymous.find((l) => l.msg === 'request completed')).not.toHaveProperty('userId');
    const forged = await linesOf(`${API}/auth/me`, () =>
      t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer('not.a.token') }),
    );
    const completed = forged.find((l) => l.msg === 'request completed')!;
    expect(completed.res?.statusCode).toBe(401);
    expect(completed).not.toHaveProperty('userId');
  });

  it('never logs a token: not the Authorization header, not a refresh token in a body', async () => {
    const from = lines.length;
    const { access, refresh } = await registerAndConfirm(t);
    const me = await t.app.inject({
      method: 'GET',
      url: `${API}/auth/me`,
      headers: { ...bearer(access), 'idempotency-key': 'me-1' },
    });
    expect(me.statusCode).toBe(200);
    const refreshed = await t.app.inject({ method: 'POST', url: `${API}/auth/refresh/`, payload: { refresh } });
    expect(refreshed.statusCode).toBe(200);
    const logout = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/logout/`,
      payload: { refresh },
      headers: bearer(access),
    });
    expect(logout.statusCode).toBeLessThan(300);

    const text = lines.slice(from).join('\n');
    expect(text).toContain('"userId"');
    for (const secret of [access, refresh, refreshed.json().access as string]) expect(text).not.toContain(secret);
    expect(text.toLowerCase()).not.toContain('authorization');
    expect(text.toLowerCase()).not.toContain('bearer');
  });
});
