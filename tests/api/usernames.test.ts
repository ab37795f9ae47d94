// Usernames: no invisible, direction-changing or look-alike characters, and one case fold on both
// databases (SQLite's lower() folded only ASCII, so `Ärger1` and `ärger1` could both exist there).
// UTS #39 (decisions §13, issue 21): letters of one script, and a name whose confusable skeleton is
// another's is taken, by the unique key on both databases.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Migration, Migrator } from 'kysely/migration';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usernameKey } from '@shared/validation';
import { openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import * as m001 from '../../server/db/migrations/001-core';
import * as m002 from '../../server/db/migrations/002-mining';
import * as m003 from '../../server/db/migrations/003-quests';
import * as m004 from '../../server/db/migrations/004-season';
import * as m005 from '../../server/db/migrations/005-push';
import * as m006 from '../../server/db/migrations/006-worker-scan';
import { usernameColumns } from '../../server/services/users';
import { API, bearer, otherIp, quickUser, walletLogin } from '../helpers/accounts';
import { createPgDatabase, createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const REFUSED = [
  'ad\u200bmin1', // zero-width space
  'ad\u202emin1', // right-to-left override
  'ad\u2066min1', // left-to-right isolate
  'ad\u0085min1', // next line (C1 control)
  'ad\u00a0min1', // no-break space
  'ad\u2028min1', // line separator
  'ad\ufeffmin1', // byte-order mark
  'ad\u00admin1', // soft hyphen
  'ad\u0007min1',
  'ａｄｍｉｎ', // full-width
  'ﬁnder1', // ligature
  'x²abcd',
  'e\u0301clair', // decomposed: NFKC composes it
  'big  miner',
];

describe.each(testDialects())('usernames on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(() => t.close());

  const complete = (access: string, username: string) =>
    t.app.inject({
      method: 'PATCH',
      url: `${API}/auth/complete-registration/`,
      payload: { username },
      headers: bearer(access),
      remoteAddress: otherIp(),
    });
  const row = (id: number) =>
    t.app.db.selectFrom('users').select(['username', 'username_key']).where('id', '=', id).executeTakeFirstOrThrow();
  let n = 0;
  const suffix = () => `${dialect[0]}${++n}`;

  it('refuses control, format and separator characters and names NFKC would change, naming the field', async () => {
    const { user, access } = await quickUser(t, { username: `keep${suffix()}` });
    for (const name of REFUSED) {
      const res = await complete(access, name);
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json(), JSON.stringify(name)).toMatchObject({
        errors: [{ field: 'username', message: 'Username contains invisible or look-alike characters' }],
      });
    }
    expect((await row(user.id)).username).toBe(user.username);
  });

  it('takes `ärger` once `Ärger` exists, and other fold-alikes, on both databases', async () => {
    const s = suffix();
    const pairs: [string, string][] = [
      [`Ärger${s}`, `ärger${s}`],
      [`ÉCOLE${s}`, `école${s}`],
      [`Straße${s}`, `STRASSE${s}`],
      [`ЁЛКА${n + 100}`, `ёлка${n + 100}`],
    ];
    for (const [first, second] of pairs) {
      const a = await quickUser(t);
      const b = await quickUser(t);
      expect((await complete(a.access, first)).statusCode, first).toBe(200);
      const res = await complete(b.access, second);
      expect(res.statusCode, `${second} after ${first}`).toBe(400);
      expect(res.json()).toMatchObject({ code: 'username_taken', detail: 'username is already taken' });
      expect(await row(a.user.id)).toEqual({ username: first, username_key: usernameKey(first) });
      // The owner may change the case of their own name.
      expect((await complete(a.access, second)).statusCode).toBe(200);
    }
  });

  it('the unique key holds when two players claim fold-alike names at once', async () => {
    const s = suffix();
    const [a, b] = [await quickUser(t), await quickUser(t)];
    const results = await Promise.all([complete(a.access, `Ärger${s}`), complete(b.access, `ärger${s}`)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    // And directly in the database, past the route's check (either of the two may have won).
    const [winner, loser] = results[0].statusCode === 200 ? [a, b] : [b, a];
    await expect(
      t.app.db
        .updateTable('users')
        .set({ username: `ÄRGER${s}`, username_key: usernameKey(`ÄRGER${s}`) })
        .where('id', '=', winner.user.id)
        .execute(),
    ).resolves.toBeDefined();
    await expect(
      t.app.db
        .updateTable('users')
        .set({ username: `ärger${s}`, username_key: usernameKey(`ärger${s}`) })
        .where('id', '=', loser.user.id)
        .execute(),
    ).rejects.toThrow();
  });

  it('refuses the look-alikes of `admin7042` (issue 21): other scripts, invisible and combining marks, and same-skeleton names', async () => {
    const owner = await quickUser(t);
    expect((await complete(owner.access, 'admin7042')).statusCode).toBe(200);
    const { user, access } = await quickUser(t, { username: `keep${suffix()}` });
    const byCharacters = [
      '\u0430dmin7042', // Cyrillic а among Latin letters
      'ad\u034fmin7042', // combining grapheme joiner
      '\u115fadmin7042', // Hangul choseong filler
      'admin\u28007042', // Braille blank
      'a\u0336dmin7042', // combining long stroke overlay
      '\u2800'.repeat(5), // a name of five blanks
    ];
    for (const name of byCharacters) {
      const res = await complete(access, name);
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json(), JSON.stringify(name)).toMatchObject({
        code: 'invalid',
        errors: [{ field: 'username', message: 'Username contains invisible or look-alike characters' }],
      });
    }
    // Valid on their own, but they read as `admin7042`.
    for (const name of ['adm1n7042', 'ADMIN7042', 'admln7042', 'adrnin7042', 'admin7O42']) {
      const res = await complete(access, name);
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toMatchObject({ code: 'username_taken', detail: 'username is already taken' });
    }
    // Whole-Cyrillic names that read as a Latin one.
    expect((await complete(owner.access, 'ace_1234')).statusCode).toBe(200);
    const res = await complete(access, '\u0430\u0441\u0435_1234');
    expect(res.json()).toMatchObject({ code: 'username_taken' });
    expect((await row(user.id)).username).toBe(user.username);
  });

  it('the database refuses a confusable duplicate past the route (two claims racing)', async () => {
    const [a, b] = [await quickUser(t), await quickUser(t)];
    const results = await Promise.all([complete(a.access, 'rocket_77'), complete(b.access, 'r0cket_77')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const winner = results[0].statusCode === 200 ? a : b;
    const loser = winner === a ? b : a;
    await expect(
      t.app.db.updateTable('users').set(usernameColumns('rocket_77')).where('id', '=', loser.user.id).execute(),
    ).rejects.toThrow();
    await expect(
      t.app.db.updateTable('users').set(usernameColumns('ROCKET_77')).where('id', '=', loser.user.id).execute(),
    ).rejects.toThrow();
  });

  it('gives a wallet player the checksummed address as username, with its key', async () => {
    const { account, access } = await walletLogin(t);
    const me = await t.app.inject({ method: 'GET', url: `${API}/auth/me`, headers: bearer(access) });
    expect(me.json().username).toBe(account.address);
    const user = await t.app.db
      .selectFrom('users')
      .select(['username', 'username_key'])
      .where('wallet_address', '=', account.address)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ username: account.address, username_key: usernameKey(account.address) });
  });
});

describe.each(testDialects())('migrations 008 and 015 (username_key) on %s', (dialect) => {
  it('fills the key of existing players; of names that already fold together or share a skeleton the oldest keeps it, none is renamed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pxt-m008-'));
    const pgDb = dialect === 'postgres' ? await createPgDatabase() : null;
    const database = openDatabase({ databaseUrl: pgDb?.url ?? null, dataDir: dir });
    try {
      // The schema as it was before migration 008.
      const before: Record<string, Migration> = {};
      for (const [name, step] of Object.entries({
        '001-core': m001,
        '002-mining': m002,
        '003-quests': m003,
        '004-season': m004,
        '005-push': m005,
        '006-worker-scan': m006,
      })) {
        before[name] = { up: (db) => step.up(db, database.dialect) };
      }
      const first = await new Migrator({
        db: database.db,
        provider: { getMigrations: async () => before },
      }).migrateToLatest();
      expect(first.error).toBeUndefined();
      // lower() kept these apart (ASCII-only on SQLite; full-width and ß on both).
      const names = [
        'Ärger1',
        'ärger1',
        'admin',
        'ａｄｍｉｎ',
        'Straße1',
        'STRASSE1',
        'plain1',
        null,
        'admin7042',
        '\u0430dmin7042',
        'adm1n7042',
      ];
      const raw = database.db as unknown as import('kysely').Kysely<any>;
      for (const [i, username] of names.entries()) {
        await raw
          .insertInto('users')
          .values({ username, referral_code: `m8_${i}`, created_at: 1000 + i })
          .execute();
      }
      // Many rows, so the backfill goes through more than one batch.
      await raw
        .insertInto('users')
        .values(
          Array.from({ length: 2500 }, (_, i) => ({
            username: `Bulk${i}`,
            referral_code: `m8_b${i}`,
            created_at: 5000 + i,
          })),
        )
        .execute();

      await migrate(database);
      const rows = await database.db.selectFrom('users').select(['username', 'username_key']).orderBy('id').execute();
      expect(rows.slice(0, names.length)).toEqual([
        { username: 'Ärger1', username_key: usernameKey('ärger1') },
        { username: 'ärger1', username_key: null },
        { username: 'admin', username_key: usernameKey('admin') },
        { username: 'ａｄｍｉｎ', username_key: null },
        { username: 'Straße1', username_key: usernameKey('strasse1') },
        { username: 'STRASSE1', username_key: null },
        { username: 'plain1', username_key: usernameKey('plain1') },
        { username: null, username_key: null },
        // Distinct under 008's fold; one skeleton under 015's.
        { username: 'admin7042', username_key: usernameKey('admin7042') },
        { username: '\u0430dmin7042', username_key: null },
        { username: 'adm1n7042', username_key: null },
      ]);
      expect(
        rows
          .slice(names.length)
          .every((r, i) => r.username === `Bulk${i}` && r.username_key === usernameKey(`bulk${i}`)),
      ).toBe(true);
      // The new index holds and the old one is gone (it would refuse nothing new, but keep the rules one).
      await expect(
        database.db
          .insertInto('users')
          .values({ username: 'ÄRGER1', username_key: usernameKey('ÄRGER1'), referral_code: 'm8_x', created_at: 1 })
          .execute(),
      ).rejects.toThrow();
    } finally {
      await database.close();
      await pgDb?.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
