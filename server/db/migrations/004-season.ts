import type { Kysely } from 'kysely';
import { withId } from '../columns';
import { DEFAULT_SEASON_DAYS } from '@shared/season';
import type { Dialect } from '../schema';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await withId(db.schema.createTable('seasons'), dialect)
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'bigint', (c) => c.notNull())
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('seasons_starts_idx').on('seasons').column('starts_at').execute();

  await withId(db.schema.createTable('season_claims'), dialect)
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id'))
    .addColumn('season_id', 'bigint', (c) => c.notNull().references('seasons.id'))
    .addColumn('tier', 'integer', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('season_claims_user_season_tier', ['user_id', 'season_id', 'tier'])
    .execute();

  // So the app works out of the box, the first start opens a "Season 1" of DEFAULT_SEASON_DAYS from now; later
  // seasons come from the operator (`npm run admin -- season create`). Doing it here runs it once,
  // even when several processes start together (the migrator holds a lock).
  const now = Date.now();
  await db
    .insertInto('seasons')
    .values({ title: 'Season 1', starts_at: now, ends_at: now + DEFAULT_SEASON_DAYS * DAY_MS, created_at: now })
    .execute();
}
