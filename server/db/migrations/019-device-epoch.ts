// The generation of an account's known-device strings (services/known-devices.ts): a string is valid
// only for the generation it was issued in, so setting a password or undoing an e-mail change (the
// owner taking the account back) makes every device string issued before it unknown at once.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('device_epoch', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}
