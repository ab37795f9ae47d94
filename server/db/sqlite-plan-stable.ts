// SQLite plans some statements with the values bound to them: where a bound value could change the
// plan (compared with a column the query also orders by, say, or with a partial index's WHERE), it
// marks the statement, and every later binding of that value makes sqlite3_step() prepare the
// statement again. better-sqlite3 binds every call anew, so such a statement was parsed and planned
// on every run, and better-sqlite3 then compiled a new JavaScript row builder (`Function`) for it:
// 9–13 µs per query on the boosts and sessions reads (`npm run bench`, issue 25). Written `+?`
// (SQLite's unary plus: the same value, type and affinity), a value is no longer a bare variable the
// planner looks into, so the statement is planned once, as with SQLite's query planner stability
// guarantee (SQLITE_DBCONFIG_ENABLE_QPSG, which better-sqlite3 does not expose). A constant the plan
// must see (the `claimed = 0` of the partial indexes) is written into the SQL as a literal instead.

/** `sql` with every `?` placeholder outside quotes written `+?`. */
export function planStableSql(sql: string): string {
  let out = '';
  let quote: string | null = null;
  for (const c of sql) {
    if (quote) {
      // A doubled quote inside a quoted part closes and reopens it: the state is the same after both.
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '[') quote = ']';
    else if (c === '?') {
      out += '+?';
      continue;
    }
    out += c;
  }
  return out;
}
