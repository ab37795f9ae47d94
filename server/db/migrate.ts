// Runs the migrations in db/migrations/ at start. The list is static so a bundle or tsx run needs
// no directory scan; Kysely's migrator locks, so several processes starting at once are safe.
import { sql } from 'kysely';
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration';
import type { Database } from './database';
import type { Db } from './schema';
import * as core from './migrations/001-core';
import * as mining from './migrations/002-mining';
import * as quests from './migrations/003-quests';
import * as season from './migrations/004-season';
import * as push from './migrations/005-push';
import * as workerScan from './migrations/006-worker-scan';
import * as usernameKey from './migrations/008-username-key';
import * as idempotencyRequest from './migrations/009-idempotency-request';
import * as activeFriends from './migrations/011-active-friends';
import * as rateLimits from './migrations/012-rate-limits';
import * as orders from './migrations/013-orders';
import * as sessions from './migrations/014-sessions';
import * as usernameSkeleton from './migrations/015-username-skeleton';
import * as keptSecrets from './migrations/016-kept-secrets';
import * as telegramDiscord from './migrations/017-telegram-discord';
import * as discordToken from './migrations/018-discord-token';
import * as deviceEpoch from './migrations/019-device-epoch';
import * as followRewards from './migrations/020-follow-rewards';

type Step = { up: (db: any, dialect: Database['dialect']) => Promise<void> };
/** The migrations in order, by name (a migration's test builds the schema as it was before it). */
export const steps: Readonly<Record<string, Step>> = {
  '001-core': core,
  '002-mining': mining,
  '003-quests': quests,
  '004-season': season,
  '005-push': push,
  '006-worker-scan': workerScan,
  '008-username-key': usernameKey,
  '009-idempotency-request': idempotencyRequest,
  '011-active-friends': activeFriends,
  '012-rate-limits': rateLimits,
  '013-orders': orders,
  '014-sessions': sessions,
  '015-username-skeleton': usernameSkeleton,
  '016-kept-secrets': keptSecrets,
  '017-telegram-discord': telegramDiscord,
  '018-discord-token': discordToken,
  '019-device-epoch': deviceEpoch,
  '020-follow-rewards': followRewards,
};

export async function migrate(database: Database): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(steps)) out[name] = { up: (db) => step.up(db, database.dialect) };
      return out;
    },
  };
  const { error, results } = await new Migrator({ db: database.db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}

/**
 * The migrations this code needs that the database has not recorded yet (Kysely's own table):
 * a query that also proves the database answers. Throws when it does not.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const done = new Set(rows.map((r) => r.name));
  return Object.keys(steps).filter((name) => !done.has(name));
}
