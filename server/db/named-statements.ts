// PostgreSQL parses and plans every statement pg sends unnamed, at every call. The statements compiled
// once (db/prepared.ts: the hot reads, the claim's writes, the ledger's) are sent as named prepared
// statements instead: each connection parses one the first time it runs it and then only binds the
// call's values. Only those: their SQL is the same at every call (the values are parameters), so the
// number of names stays that of the queries in the code.
import type pg from 'pg';

const names = new Map<string, string>();

/** Marks `sql` (a compiled query whose values are all parameters) to be sent as a named statement. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `pxt_${names.size + 1}`);
}

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** Makes a pooled client send the marked statements by name (called once per new connection). */
export function withNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const named: Query = (text, values, callback) => {
    const name =
      typeof text === 'string' && Array.isArray(values) && callback === undefined ? names.get(text) : undefined;
    return name ? query({ name, text, values }) : query(text, values, callback);
  };
  client.query = named as typeof client.query;
}
