// Which Telegram or Discord account each verified follow was paid for (decisions §14): a follow pays
// once per account, not once per player who links it, so removing Telegram and linking it to another
// player does not pay the same channel again. Filled from the follows already paid to the accounts
// linked today.
import { type Kysely, sql } from 'kysely';

/** The follow quests and the column of `users` holding the account each is checked with. */
const FOLLOWS = [
  ['telegram_ru', 'telegram_id'],
  ['telegram_eng', 'telegram_id'],
  ['discord', 'discord_id'],
] as const;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('follow_rewards')
    .addColumn('network', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('paid_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('follow_rewards_pk', ['network', 'account_id'])
    .execute();
  for (const [network, column] of FOLLOWS)
    await sql`
      insert into follow_rewards (network, account_id, user_id, paid_at)
      select ${sql.lit(network)}, u.${sql.ref(column)}, u.id, l.created_at
      from ledger l join users u on u.id = l.user_id
      where u.${sql.ref(column)} is not null and l.unique_key = 'quest:' || u.id || ${sql.lit(`:${network}`)}
    `.execute(db);
}
