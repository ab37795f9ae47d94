// Generated secrets on PostgreSQL (decisions §15): every process runs with its own DATA_DIR, so the
// secrets the environment does not give are kept in the database (table kept_secrets, migration
// 016) where every process finds the same ones. Each process offers a full set — the one an
// earlier version kept in its DATA_DIR/secrets.json if there is one, so tokens signed before the
// upgrade stay valid, else a fresh one — in one INSERT … ON CONFLICT DO NOTHING: the first insert
// wins, a process starting at the same moment waits on the winner's row and then reads it.
import type { Db } from '../db/schema';
import { generate, type KeptSecrets, NAMES, parse, readSecretsFile } from './kept-secrets';

export async function keptSecretsInDatabase(db: Db, dataDir: string): Promise<KeptSecrets> {
  const offered = { ...generate(), ...readSecretsFile(dataDir) };
  await db
    .insertInto('kept_secrets')
    .values(NAMES.map((name) => ({ name, value: offered[name] })))
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const rows = await db
    .selectFrom('kept_secrets')
    .select(['name', 'value'])
    .where('name', 'in', [...NAMES])
    .execute();
  return parse(Object.fromEntries(rows.map((r) => [r.name, r.value])));
}
