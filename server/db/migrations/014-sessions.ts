// Account ownership (decisions §13):
// - `sessions`: one row per sign-in; an access token names its session (`sid`) and is refused once
//   the session has ended, so logout, "sign out everywhere" and a password reset take effect at once.
// - `refresh_tokens.session_id`: the session a refresh token renews (NULL for tokens issued before;
//   their first refresh opens a session for them).
// - `users.locale`: the language mails to the player are written in.
// - `users.*_added_at`: when each sign-in method was added (existing ones: the account's creation).
import { type Kysely, sql } from 'kysely';
import { withId } from '../columns';
import type { Dialect } from '../schema';

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('sessions'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint', (c) => c.notNull())
    .addColumn('ended_at', 'bigint')
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').columns(['user_id', 'ended_at']).execute();
  // The hourly cleanup (workers/account-cleanup.ts) finds old sessions and unconfirmed registrations by index.
  await db.schema.createIndex('sessions_ended_idx').on('sessions').column('ended_at').execute();
  await db.schema.createIndex('sessions_last_used_idx').on('sessions').column('last_used_at').execute();
  await db.schema
    .createIndex('users_pending_idx')
    .on('users')
    .column('created_at')
    .where(sql.ref('email_confirmed'), '=', 0)
    .execute();

  await db.schema
    .alterTable('refresh_tokens')
    .addColumn('session_id', 'bigint', (c) => c.references('sessions.id'))
    .execute();
  await db.schema.createIndex('refresh_tokens_session_idx').on('refresh_tokens').column('session_id').execute();

  await db.schema
    .alterTable('users')
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .execute();
  for (const column of ['password_added_at', 'wallet_added_at', 'google_added_at']) {
    await db.schema.alterTable('users').addColumn(column, 'bigint').execute();
  }
  await sql`update users set password_added_at = created_at where password_hash is not null`.execute(db);
  await sql`update users set wallet_added_at = created_at where wallet_address is not null`.execute(db);
  await sql`update users set google_added_at = created_at where google_sub is not null`.execute(db);
}
