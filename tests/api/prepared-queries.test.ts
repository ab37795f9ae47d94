// The hot reads (/auth/me, /mining/sessions/, /mining/boosts/) run queries compiled once
// (server/db/prepared.ts): after the first call, no SQL is compiled for them, and each call still
// answers with its own player's rows; on SQLite they run straight on the handle when the connection is free,
// never inside another call's transaction.
import type { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared, preparedWrite } from '../../server/db/prepared';
import { meWithMiningFlag } from '../../server/services/mining-status';
import { openSession } from '../../server/services/sessions';
import { endSession, openSessionId } from '../helpers/mining';
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

  // A claim is the hottest write: its statements spent more in Kysely's chain of promises than in
  // SQLite (issue 25). Inside its transaction they run on the handle the transaction holds.
  it('runs a claim’s statements straight on SQLite’s handle inside its transaction (Kysely’s way on PostgreSQL)', async () => {
    const p = await createPlayer(t);
    // With a key too: the expired keys' prune (once a minute, plugins/idempotency.ts) runs here.
    const started = await apiCall(t, p, 'GET', '/mining/start/', undefined, { 'idempotency-key': `start-${p.id}` });
    expect(started.statusCode).toBe(200);
    await endSession(t, (await openSessionId(t, p.id))!);
    // A transaction's executor is another object of the same class: count on the class.
    let owner = t.app.db.getExecutor() as object;
    while (!Object.prototype.hasOwnProperty.call(owner, 'executeQuery')) owner = Object.getPrototypeOf(owner);
    const methods = owner as { executeQuery: (q: CompiledQuery) => Promise<unknown> };
    const execute = methods.executeQuery;
    const throughKysely: string[] = [];
    methods.executeQuery = function (this: unknown, q: CompiledQuery) {
      throughKysely.push(q.sql);
      return execute.call(this, q);
    };
    let claim;
    try {
      claim = await apiCall(t, p, 'GET', '/mining/claim/', undefined, { 'idempotency-key': `direct-${p.id}` });
    } finally {
      methods.executeQuery = execute;
    }
    expect(claim.statusCode).toBe(200);
    const paid = await t.app.db
      .selectFrom('ledger')
      .select('amount')
      .where('user_id', '=', p.id)
      .where('reason', '=', 'mining_claim')
      .execute();
    expect(paid).toHaveLength(1);
    // The ledger counts millionths of a PXT.
    expect(Number(paid[0].amount) / 1e6).toBe(Number(claim.json().reward));
    // On PostgreSQL every statement goes to the pool's connection, Kysely's way.
    if (dialect === 'sqlite') expect(throughKysely, throughKysely.join('\n')).toEqual([]);
  });

  it('undoes a statement run straight on the handle when its transaction rolls back', async () => {
    const p = await createPlayer(t);
    const rename = preparedWrite((db, q: { id: number; name: string }) =>
      db.updateTable('users').set({ username: q.name }).where('id', '=', q.id).returning('username'),
    );
    const before = (
      await t.app.db.selectFrom('users').select('username').where('id', '=', p.id).executeTakeFirstOrThrow()
    ).username;
    await expect(
      t.app.db.transaction().execute(async (trx) => {
        const renamed = await rename(trx, { id: p.id, name: `gone_${p.id}` });
        expect(renamed).toEqual({ rows: [{ username: `gone_${p.id}` }], changed: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await t.app.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', p.id)
      .executeTakeFirstOrThrow();
    expect(after.username).toBe(before);
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
    // Inside a transaction too (on SQLite straight on the handle the transaction holds).
    const inTx = await t.app.db.transaction().execute((trx) => byId(trx, { id: a.id }));
    expect(inTx.map((r) => Number(r.id))).toEqual([a.id]);
    await createPlayer(t);
    const wrong = prepared(
      (db, p: { above: number }) => db.selectFrom('users').select('id').where('id', '>', p.above),
      {
        oneRow: true,
      },
    );
    // A read that waits for a connection another transaction holds takes Kysely's way: there a
    // second row is an error (PostgreSQL's reads always go that way).
    let release!: () => void;
    let holding!: Promise<void>;
    await new Promise<void>((entered) => {
      holding = t.app.db.transaction().execute(() => {
        entered();
        return new Promise<void>((done) => (release = done));
      });
    });
    // The expectation listens before the holder commits: on PostgreSQL the read runs on a connection
    // of its own and can fail before the COMMIT answers, and a rejection nobody listens to yet is
    // reported as unhandled (it failed CI once).
    const refused = expect(wrong(t.app.db, { above: 0 })).rejects.toThrow(/one-row prepared read returned \d+ rows/);
    release();
    await holding;
    await refused;
  });
});
