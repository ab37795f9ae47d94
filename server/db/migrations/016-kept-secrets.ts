// Secrets the environment does not give (JWT_SECRET, the VAPID keys), kept in the database on
// PostgreSQL so every process signs and verifies with the same ones (decisions §15,
// lib/kept-secrets-db.ts). One row per secret; the first process to insert it wins. Created on
// SQLite too, so the schema stays the same; SQLite keeps them in DATA_DIR/secrets.json.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('kept_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
