// Queries built and compiled once, then run with each call's values: Kysely builds the operation
// tree and compiles it to SQL on every call, which on the hot reads (/auth/me, the mining lists)
// cost more than running the SQL (`npm run bench`). The query is written with Kysely as usual; the
// values that change from call to call are named parameters, stand-ins that land in the compiled
// query's parameter list and are swapped for the call's values. Compiled once per database handle
// (its dialect's SQL), so SQLite and PostgreSQL apps in one process each get their own.
import { type Compilable, type CompiledQuery, SqliteAdapter } from 'kysely';
import type { NowOrLater } from '../lib/now-or-later';
import { directRunOf } from './direct-statements';
import { nameStatement } from './named-statements';
import { planStableSql } from './sqlite-plan-stable';
import type { Tx } from './schema';

class Slot {
  constructor(readonly name: string) {}
}

interface Compiled<Row> {
  query: CompiledQuery<Row>;
  /** Per parameter: the name of the call's value that goes there, or null for a constant of the query. */
  slots: (string | null)[];
}

/**
 * `prepared((db, p) => db.selectFrom('users').selectAll().where('id', '=', p.userId))` returns
 * `(db, { userId }) => rows`. A parameter must stand for one value (not a list: `in` lists have a
 * length, so compile one query per length), and the query must not branch on it.
 */
export interface Prepared<Params, Row> {
  (db: Tx, params: Params): Promise<Row[]>;
  /** The rows at once when the read can run synchronously (SQLite, connection free), else null: take the promise then. */
  now(db: Tx, params: Params): Row[] | null;
  /** The rows at once when they can be read so, else their promise (lib/now-or-later.ts). */
  read(db: Tx, params: Params): NowOrLater<Row[]>;
}

/** The query `build` makes, compiled once per database handle, with a call's values put in its parameters. */
function compiler<Params extends Record<string, unknown>, Row>(build: (db: Tx, p: Params) => Compilable<Row>) {
  const byAdapter = new WeakMap<object, Compiled<Row>>();
  const stand = new Proxy({}, { get: (_target, name) => new Slot(String(name)) }) as Params;
  const compiledFor = (db: Tx, params: Params) => {
    // A transaction shares its database's adapter, so it reuses the compiled query too.
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (!compiled) {
      let query = build(db, stand).compile();
      if (adapter instanceof SqliteAdapter) query = { ...query, sql: planStableSql(query.sql) };
      nameStatement(query.sql);
      compiled = { query, slots: query.parameters.map((v) => (v instanceof Slot ? v.name : null)) };
      if (compiled.slots.every((s) => s === null) && Object.keys(params).length > 0)
        throw new Error('prepared query uses none of its parameters');
      byAdapter.set(adapter, compiled);
    }
    const { query, slots } = compiled;
    return { query, parameters: query.parameters.map((v, i) => (slots[i] === null ? v : params[slots[i]!])) };
  };
  return compiledFor;
}

export interface PreparedOptions {
  /**
   * The query yields at most one row (it looks a row up by a unique key, or counts without grouping):
   * SQLite reads it without building a list. A second row is an error where it can be seen (the
   * promised way, which PostgreSQL always takes).
   */
  oneRow?: boolean;
}

export function prepared<Params extends Record<string, unknown>, Row>(
  build: (db: Tx, p: Params) => Compilable<Row>,
  { oneRow = false }: PreparedOptions = {},
): Prepared<Params, Row> {
  const compiledFor = compiler(build);
  // On SQLite, straight on the handle when Kysely would run it at once (db/direct-statements.ts).
  const now = (db: Tx, params: Params): Row[] | null => {
    const runDirect = directRunOf(db);
    if (!runDirect) return null;
    const { query, parameters } = compiledFor(db, params);
    return (runDirect(query.sql, parameters, oneRow, db.isTransaction)?.rows as Row[] | undefined) ?? null;
  };
  const run = async (db: Tx, params: Params): Promise<Row[]> => {
    const { query, parameters } = compiledFor(db, params);
    const direct = directRunOf(db)?.(query.sql, parameters, oneRow, db.isTransaction);
    if (direct) return direct.rows as Row[];
    const result = await db.executeQuery<Row>({ ...query, parameters });
    if (oneRow && result.rows.length > 1)
      throw new Error(`a one-row prepared read returned ${result.rows.length} rows: ${query.sql}`);
    return result.rows;
  };
  const read = (db: Tx, params: Params): NowOrLater<Row[]> => now(db, params) ?? run(db, params);
  return Object.assign(run, { now, read });
}

/** What a prepared write returns: the rows of its `returning`, and how many rows it changed. */
export interface WriteResult<Row> {
  rows: Row[];
  changed: number;
}

/**
 * `prepared` for a statement that writes (an insert, update or delete, with or without `returning`):
 * compiled once the same way; on SQLite run straight on the handle when Kysely would run it at once
 * (inside its transaction, or with the connection free), else through Kysely's executor.
 */
export function preparedWrite<Params extends Record<string, unknown>, Row>(
  build: (db: Tx, p: Params) => Compilable<Row>,
): (db: Tx, params: Params) => Promise<WriteResult<Row>> {
  const compiledFor = compiler(build);
  return async (db, params) => {
    const { query, parameters } = compiledFor(db, params);
    const direct = directRunOf(db)?.(query.sql, parameters, false, db.isTransaction);
    if (direct) return direct as WriteResult<Row>;
    const result = await db.executeQuery<Row>({ ...query, parameters });
    // PostgreSQL counts the rows a `returning` statement changed too; SQLite gives the rows only.
    return { rows: result.rows, changed: Number(result.numAffectedRows ?? result.rows.length) };
  };
}
