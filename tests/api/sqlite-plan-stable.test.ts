// The statements compiled once (server/db/prepared.ts) are planned once on SQLite: their values are
// written `+?` (server/db/sqlite-plan-stable.ts), so SQLite never prepares them again because of a
// binding, and better-sqlite3 never compiles a new row builder for them (it calls `Function` each
// time SQLite did). Their plans are the plans SQLite chose with the values in sight.
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { planStableSql } from '../../server/db/sqlite-plan-stable';
import { seedBusyPlayer, seedPlayers } from '../helpers/bulk-players';
import { accessFor } from '../helpers/accounts';
import { apiCall, type TestPlayer } from '../helpers/players';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('planStableSql', () => {
  it('writes every placeholder +?, and nothing inside quotes', () => {
    expect(planStableSql('select * from "t" where "a" = ? and "b" in (?, ?) limit ? offset ?')).toBe(
      'select * from "t" where "a" = +? and "b" in (+?, +?) limit +? offset +?',
    );
    expect(planStableSql(`select '?', 'it''s ?', "col?", [x?], \`y?\` from t where c = ?`)).toBe(
      `select '?', 'it''s ?', "col?", [x?], \`y?\` from t where c = +?`,
    );
  });
});

describe('statements compiled once, on SQLite', () => {
  let t: TestApp;
  let player: TestPlayer;
  /** Each planned statement the app ran, with the values of one run. */
  const runs = new Map<string, unknown[]>();
  const restore: (() => void)[] = [];

  beforeAll(async () => {
    // Every run of a statement compiled once, with its values (the Statement class is better-sqlite3's own).
    const probe = new SQLite(':memory:').prepare('select 1');
    const proto = Object.getPrototypeOf(probe) as Record<'all' | 'get' | 'run', (...a: unknown[]) => unknown>;
    for (const method of ['all', 'get', 'run'] as const) {
      const original = proto[method];
      proto[method] = function (this: { source: string }, ...args: unknown[]) {
        if (this.source.includes('+?') && !runs.has(this.source)) runs.set(this.source, args.flat());
        return original.apply(this, args);
      };
      restore.push(() => (proto[method] = original));
    }
    t = await createTestApp('sqlite', { MINING_SESSION_SECONDS: '60' });
    await seedPlayers(t.app.db, 'sqlite', { count: 300, tag: 'crowd', session: 'claimed' });
    const id = await seedBusyPlayer(t.app.db, 'plans');
    player = { id, token: await accessFor(t, id) };
  });
  afterAll(async () => {
    for (const undo of restore) undo();
    await t?.close();
  });

  const reads = ['/auth/me', '/mining/sessions/', '/mining/boosts/'];

  it('runs the hot reads without SQLite preparing a statement again', async () => {
    for (const path of reads) expect((await apiCall(t, player, 'GET', path)).statusCode).toBe(200);
    // better-sqlite3 calls Function to compile a row builder whenever SQLite prepared a statement again.
    const compiles = vi.spyOn(globalThis, 'Function');
    try {
      for (let i = 0; i < 5; i++)
        for (const path of reads) expect((await apiCall(t, player, 'GET', path)).statusCode).toBe(200);
      expect(compiles).not.toHaveBeenCalled();
    } finally {
      compiles.mockRestore();
    }
  });

  it('plans each statement as SQLite does with the values in sight', async () => {
    // The claim's and the start's statements too.
    await apiCall(t, player, 'GET', '/mining/claim/');
    await apiCall(t, player, 'GET', '/mining/start/');
    // Recorded: the statements of the calls (not the EXPLAINs below).
    for (const undo of restore.splice(0)) undo();
    expect(runs.size).toBeGreaterThanOrEqual(8);
    const sqlite = new SQLite(`${t.dataDir}/pxt.sqlite`, { readonly: true });
    try {
      const plan = (sql: string, values: unknown[]) =>
        sqlite
          .prepare(`explain query plan ${sql}`)
          .all(...values)
          .map((r) => (r as { detail: string }).detail);
      for (const [stable, values] of runs) {
        // A write's plan is that of its WHERE: EXPLAIN QUERY PLAN takes those too.
        const bare = stable.replaceAll('+?', '?');
        expect(plan(stable, values), stable).toEqual(plan(bare, values));
      }
    } finally {
      sqlite.close();
    }
  });
});
