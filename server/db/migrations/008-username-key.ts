// Usernames were unique by `lower(username)`, which folds only ASCII on SQLite but all of Unicode on
// PostgreSQL: `Ärger1` and `ärger1` could both exist on one and not on the other. The key two names
// are compared by is now computed in JavaScript (shared/validation.ts `usernameKey`), the same for
// both databases, and kept in `username_key` under a unique index.
//
// Existing names that already share a key (possible on SQLite, and on PostgreSQL for look-alikes
// such as `ａｄｍｉｎ` and `admin`) are not renamed: the oldest account keeps the key, the later ones
// keep their visible name with no key (NULL, which a unique index allows) until they choose a new
// name. Nobody else can take the name meanwhile, since the oldest account holds its key.
//
// The key was this fold (NFKC, case); migration 015 replaced it by the confusable skeleton. It is
// kept here as it was, so this step does what it always did.
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../schema';

const BATCH = 2000;

const foldKey = (username: string) => username.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('users').addColumn('username_key', 'text').execute();
  await fillUsernameKeys(db, foldKey);
  await db.schema.createIndex('users_username_key_uq').on('users').unique().column('username_key').execute();
  await db.schema.dropIndex('users_username_lower_uq').execute();
}

/**
 * Gives every named player whose key column is NULL the key `keyOf` computes, oldest account first;
 * a player whose key an older one already holds keeps the NULL.
 */
export async function fillUsernameKeys(db: Kysely<any>, keyOf: (username: string) => string): Promise<void> {
  const taken = new Set<string>();
  let after = 0;
  for (;;) {
    const rows: { id: number | string; username: string }[] = await db
      .selectFrom('users')
      .select(['id', 'username'])
      .where('username', 'is not', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) break;
    after = Number(rows[rows.length - 1].id);
    const keyed: [number, string][] = [];
    for (const r of rows) {
      const key = keyOf(r.username);
      if (taken.has(key)) continue;
      taken.add(key);
      keyed.push([Number(r.id), key]);
    }
    if (keyed.length === 0) continue;
    // One statement per batch, in SQL both databases read (UPDATE … FROM: SQLite 3.33 or later).
    const values = sql.join(keyed.map(([id, key]) => sql`(CAST(${id} AS BIGINT), CAST(${key} AS TEXT))`));
    await sql`WITH v(id, k) AS (VALUES ${values}) UPDATE users SET username_key = v.k FROM v WHERE users.id = v.id`.execute(
      db,
    );
  }
}
