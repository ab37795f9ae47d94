// The linked Discord account's OAuth2 access token (decisions §14): the guild member call
// (`GET /users/@me/guilds/{guild}/member`) is asked with the player's own token, so the follow
// quest's "Check again" can ask Discord without sending the player through Discord once more. The
// token is kept encrypted with a key derived from DISCORD_CLIENT_SECRET (services/discord.ts): a
// copy of the database alone reads no usable token. Expired or undecryptable: the player links again.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('discord_token', 'text').execute();
  await db.schema.alterTable('users').addColumn('discord_token_expires_at', 'bigint').execute();
}
