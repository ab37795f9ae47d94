// Migration 011 (issue 11, decisions §12 "Active friends"): referral boosts granted before a
// friend had to claim a session are taken back for friends who never claimed one; the rest stay.
// The schema is built as it was before the migration, on both dialects.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { type Migration, Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import * as m001 from '../../server/db/migrations/001-core';
import * as m002 from '../../server/db/migrations/002-mining';
import * as m003 from '../../server/db/migrations/003-quests';
import * as m004 from '../../server/db/migrations/004-season';
import * as m005 from '../../server/db/migrations/005-push';
import * as m006 from '../../server/db/migrations/006-worker-scan';
import * as m008 from '../../server/db/migrations/008-username-key';
import { createPgDatabase, testDialects } from '../helpers/test-app';

describe.each(testDialects())('migration 011 (active friends) on %s', (dialect) => {
  it('takes back referral boosts granted for friends who never claimed a session, and keeps the rest', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pxt-m011-'));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
    const database = openDatabase({ databaseUrl: pgDb?.url ?? null, dataDir: dir });
    try {
      // The schema as it was before migration 011.
      const steps = {
        '001-core': m001,
        '002-mining': m002,
        '003-quests': m003,
        '004-season': m004,
        '005-push': m005,
        '006-worker-scan': m006,
        '008-username-key': m008,
      };
      const before: Record<string, Migration> = {};
      for (const [name, step] of Object.entries(steps)) before[name] = { up: (db) => step.up(db, database.dialect) };
      expect(
        (await new Migrator({ db: database.db, provider: { getMigrations: async () => before } }).migrateToLatest())
          .error,
      ).toBeUndefined();

      const raw = database.db as unknown as Kysely<any>;
      const user = async (code: string, referrerId: number | null = null) =>
        Number(
          (
            await raw
              .insertInto('users')
              .values({ referral_code: code, referrer_id: referrerId, created_at: 1 })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
        );
      const referrer = await user('m11_r');
      const [played, farmed] = [await user('m11_p', referrer), await user('m11_f', referrer)];
      await raw
        .insertInto('ledger')
        .values({
          user_id: played,
          currency: 'token',
          amount: 1000,
          reason: 'mining_claim',
          ref: 'session:1',
          unique_key: 'mining_claim:1',
          created_at: 1,
        })
        .execute();
      await raw
        .insertInto('rate_boosts')
        .values([
          { user_id: referrer, kind: 'referral', percent: 10, task_title: null, referral_id: played, created_at: 1 },
          { user_id: referrer, kind: 'referral', percent: 10, task_title: null, referral_id: farmed, created_at: 1 },
          {
            user_id: referrer,
            kind: 'task',
            percent: 5,
            task_title: 'Добавить никнейм',
            referral_id: null,
            created_at: 1,
          },
        ])
        .execute();

      await migrate(database);
      const boosts = await raw.selectFrom('rate_boosts').select(['kind', 'referral_id']).orderBy('id').execute();
      expect(boosts.map((b) => [b.kind, b.referral_id === null ? null : Number(b.referral_id)])).toEqual([
        ['referral', played],
        ['task', null],
      ]);
      const users = await raw.selectFrom('users').select(['id', 'username_chosen_at']).execute();
      expect(users.every((u) => u.username_chosen_at === null)).toBe(true);
    } finally {
      await database.close();
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
