// Migration 020 (decisions §14, verified follows once per account): the follows already paid are
// noted for the Telegram or Discord account linked to the player today, so that account does not
// pay the same follow to another player later; unpaid follows and unlinked players note nothing.
// The schema is built as it was before the migration, on both dialects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { migrate, steps } from '../../server/db/migrate';
import { createPgDatabase, testDialects } from '../helpers/test-app';

describe.each(testDialects())('migration 020 (follow rewards) on %s', (dialect) => {
  it('notes the paid follows for the accounts linked today, and nothing else', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pxt-m020-'));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
    const database = openDatabase({ databaseUrl: pgDb?.url ?? null, dataDir: dir });
    try {
      const before: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(steps))
        if (name !== '020-follow-rewards') before[name] = { up: (db) => step.up(db, database.dialect) };
      expect(
        (await new Migrator({ db: database.db, provider: { getMigrations: async () => before } }).migrateToLatest())
          .error,
      ).toBeUndefined();

      const raw = database.db as unknown as Kysely<any>;
      const user = async (code: string, linked: { telegram_id?: string; discord_id?: string }) =>
        Number(
          (
            await raw
              .insertInto('users')
              .values({ referral_code: code, created_at: 1, ...linked })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const paid = (userId: number, key: string, createdAt: number) =>
        raw
          .insertInto('ledger')
          .values({
            user_id: userId,
            currency: 'balance',
            amount: 15,
            reason: 'quest_social',
            ref: key,
            unique_key: `quest:${userId}:${key}`,
            created_at: createdAt,
          })
          .execute();
      const both = await user('m20_b', { telegram_id: '111', discord_id: '900' });
      const unpaid = await user('m20_u', { telegram_id: '222' });
      const unlinked = await user('m20_n', {});
      await paid(both, 'telegram_ru', 10);
      await paid(both, 'discord', 11);
      await paid(unlinked, 'telegram_eng', 12);
      // Another quest's key that ends like a follow's is not a follow.
      await paid(unpaid, 'x:telegram_ru', 13);

      await migrate(database);
      const rows = await raw.selectFrom('follow_rewards').selectAll().orderBy('network').execute();
      expect(rows.map((r) => ({ ...r, user_id: Number(r.user_id), paid_at: Number(r.paid_at) }))).toEqual([
        { network: 'discord', account_id: '900', user_id: both, paid_at: 11 },
        { network: 'telegram_ru', account_id: '111', user_id: both, paid_at: 10 },
      ]);
    } finally {
      await database.close();
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
