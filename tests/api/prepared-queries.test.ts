// The hot reads (/auth/me, /mining/sessions/, /mining/boosts/) run queries compiled once
// (server/db/prepared.ts): after the first call, no SQL is compiled for them, and each call still
// answers with its own player's rows; on SQLite they run straight on the handle when the connection is free,
// never inside another call's transaction.
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared } from '../../server/db/prepared';
import { meWithMiningFlag } from '../../server/services/mining-status';
import { openSession } from '../../server/services/sessions';
import { apiCall, createPlayer } from '../helpers/players';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

describe.each(testDialects())('prepared queries on %s', (dialect) => {
  let t: TestApp;
  const sessionOf = (userId: number) => openSession(t.app.db, userId, { userAgent: 'test', ip: '127.0.0.1' });
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  it('compiles no SQL for the hot reads after their first call', async () => {
    const a = await createPlayer(t);
    const b = await createPlayer(t);
    const routes = ['/auth/me', '/mining/sessions/', '/mining/boosts/'];
    for (const route of routes) expect((await apiCall(t, a, 'GET', route)).statusCode).toBe(200);
    const executor = t.app.db.getExecutor() as unknown as { compileQuery: (...args: unknown[]) => unknown };
    const compile = executor.compileQuery;
    let compiled = 0;
    executor.compileQuery = function (this: unknown, ...args: unknown[]) {
      compiled++;
      return compile.apply(this, args);
    };
    try {
      const me = await apiCall(t, b, 'GET', '/auth/me');
      expect(me.json().username).not.toBe((await apiCall(t, a, 'GET', '/auth/me')).json().username);
      for (const route of routes.slice(1)) expect((await apiCall(t, b, 'GET', route)).statusCode).toBe(200);
    } finally {
      executor.compileQuery = compile;
    }
    expect(compiled).toBe(0);
  });

  // SQLite chooses a partial index (here the one on unclaimed sessions) by the value bound to its
  // condition, and expires the prepared statement whenever that value is bound again: a bound
  // `claimed = 0` made every /auth/me parse and plan its query anew.
  it('binds only the player’s id in /auth/me’s query, so SQLite keeps its prepared statement', async () => {
    // Compiled once per database: a fresh app, so its first /auth/me compiles here.
    const fresh = await createTestApp(dialect);
    try {
      const p = await createPlayer(fresh);
      const executor = fresh.app.db.getExecutor() as unknown as { compileQuery: (...args: unknown[]) => CompiledQuery };
      const compile = executor.compileQuery;
      const compiled: CompiledQuery[] = [];
      executor.compileQuery = function (this: unknown, ...args: unknown[]) {
        const q = compile.apply(this, args);
        compiled.push(q);
        return q;
      };
      try {
        expect((await apiCall(fresh, p, 'GET', '/auth/me')).json().mining).toBe(false);
      } finally {
        executor.compileQuery = compile;
      }
      const me = compiled.filter((q) => q.sql.includes('"mining_sessions"'));
      expect(me).toHaveLength(1);
      // Two parameters: the stand-ins for the player's id and the token's session (db/prepared.ts); `claimed = 0` is in the SQL.
      expect(me[0].parameters).toHaveLength(2);
    } finally {
      await fresh.close();
    }
  });

  it('runs a hot read straight on SQLite’s handle while nobody holds the connection (Kysely’s way on PostgreSQL)', async () => {
    const p = await createPlayer(t);
    const sid = await sessionOf(p.id);
    const executor = t.app.db.getExecutor() as unknown as { executeQuery: (q: CompiledQuery) => Promise<unknown> };
    const execute = executor.executeQuery;
    let throughKysely = 0;
    executor.executeQuery = function (this: unknown, q: CompiledQuery) {
      throughKysely++;
      return execute.call(this, q);
    };
    try {
      const [me] = await meWithMiningFlag(t.app.db, { userId: p.id, sessionId: sid });
      expect(Number(me.id)).toBe(p.id);
    } finally {
      executor.executeQuery = execute;
    }
    expect(throughKysely).toBe(dialect === 'sqlite' ? 0 : 1);
  });

  it('never reads inside another call’s open transaction: the read waits, and sees nothing rolled back', async () => {
    const p = await createPlayer(t);
    const sid = await sessionOf(p.id);
    const before = (await meWithMiningFlag(t.app.db, { userId: p.id, sessionId: sid }))[0].username;
    let read: Promise<{ username: string | null }[]> | null = null;
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        await trx.updateTable('users').set({ username: 'never_committed' }).where('id', '=', p.id).execute();
        // On SQLite the one connection is held by this transaction now.
        read = meWithMiningFlag(t.app.db, { userId: p.id, sessionId: sid });
        await new Promise((r) => setTimeout(r, 20));
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect((await read!)[0].username).toBe(before);
  });

  it('puts each call’s values where the query named them, and keeps the constants', async () => {
    const a = await createPlayer(t);
    const b = await createPlayer(t);
    const byIdOrAbove = prepared((db, p: { id: number; above: number }) =>
      db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb.or([eb('id', '=', p.id), eb('id', '>', p.above)]))
        .where('id', '!=', 0)
        .orderBy('id'),
    );
    expect((await byIdOrAbove(t.app.db, { id: a.id, above: b.id })).map((r) => Number(r.id))).toEqual([a.id]);
    expect((await byIdOrAbove(t.app.db, { id: b.id, above: a.id })).map((r) => Number(r.id))).toEqual([b.id]);
    // Inside a transaction too.
    const inTx = await t.app.db.transaction().execute((trx) => byIdOrAbove(trx, { id: 0, above: a.id }));
    expect(inTx.map((r) => Number(r.id))).toEqual([b.id]);
  });

  it('reads a one-row query as its row or none, the same on both ways, and refuses one that finds two', async () => {
    const a = await createPlayer(t);
    const byId = prepared((db, p: { id: number }) => db.selectFrom('users').select('id').where('id', '=', p.id), {
      oneRow: true,
    });
    expect((await byId(t.app.db, { id: a.id })).map((r) => Number(r.id))).toEqual([a.id]);
    expect(await byId(t.app.db, { id: -1 })).toEqual([]);
    // Inside a transaction the read takes Kysely's way, on SQLite too.
    const inTx = await t.app.db.transaction().execute((trx) => byId(trx, { id: a.id }));
    expect(inTx.map((r) => Number(r.id))).toEqual([a.id]);
    await createPlayer(t);
    const wrong = prepared(
      (db, p: { above: number }) => db.selectFrom('users').select('id').where('id', '>', p.above),
      {
        oneRow: true,
      },
    );
    await expect(t.app.db.transaction().execute((trx) => wrong(trx, { above: 0 }))).rejects.toThrow(
      /one-row prepared read returned \d+ rows/,
    );
  });
});
