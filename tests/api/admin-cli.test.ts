// The operator CLI run for real, as a child process on the test app's database (SQLite file in its
// DATA_DIR, or its fresh PostgreSQL database), checked by its output, exit code and the rows it wrote.
// It runs compiled, as `npm run admin` does (dist-server/admin.js), built once from the sources
// into .tmp/ for this file: some ninety runs through tsx would each compile the CLI again.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { ledgerSum } from '../../server/services/ledger';
import { bookCheckout, createOrder } from '../../server/services/payments/orders';
import { createUser, type NewUser } from '../../server/services/users';
import { createTestApp, type TestApp, testDialects } from '../helpers/test-app';

const ROOT = join(import.meta.dirname, '..', '..');
const outdir = join(ROOT, '.tmp', `dist-admin-${randomBytes(4).toString('hex')}`);
beforeAll(() => buildServer(outdir), 60_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

describe.each(testDialects())('operator CLI on %s', (dialect) => {
  let t: TestApp;
  const suffix = randomBytes(3).toString('hex');
  const alice = { username: `alice_${suffix}`, email: `alice.${suffix}@example.com` };
  const bob = { username: `bobby${suffix}`, email: `Bob.${suffix}@Example.com`.toLowerCase() };
  const wallet = `0x${'ab'.repeat(10)}${randomBytes(10).toString('hex')}`;
  const ids: Record<string, number> = {};

  function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
    const base: Record<string, string> = {};
    for (const [k, v] of Object.entries(process.env))
      if (v !== undefined && !/^(DATABASE_URL|BLOG_DIR|ICO_|DATA_DIR)/.test(k)) base[k] = v;
    const childEnv = {
      ...base,
      NODE_ENV: 'test',
      DATA_DIR: t.dataDir,
      ...(t.app.config.databaseUrl ? { DATABASE_URL: t.app.config.databaseUrl } : {}),
      ...env,
    };
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        ['--enable-source-maps', join(outdir, 'admin.js'), ...args],
        { cwd: ROOT, env: childEnv, timeout: 25_000 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });
  }

  async function user(id: number) {
    return t.app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  async function adminRows(id: number) {
    return t.app.db
      .selectFrom('ledger')
      .selectAll()
      .where('user_id', '=', id)
      .where('reason', '=', 'admin_grant')
      .orderBy('id')
      .execute();
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const make = (u: NewUser) => t.app.db.transaction().execute((trx) => createUser(trx, u));
    ids.alice = Number((await make({ ...alice, emailConfirmed: true })).id);
    ids.bob = Number((await make(bob)).id);
    ids.wallet = Number((await make({ walletAddress: wallet, username: wallet })).id);
  });
  afterAll(() => t.close());

  it('shows help, with no command too, and refuses unknown commands', async () => {
    const [help, bare, unknown] = await Promise.all([cli(['help']), cli([]), cli(['frobnicate'])]);
    expect(help.code).toBe(0);
    for (const form of [
      'users [text]',
      'orders [user]',
      'flag <user> ico|language on|off',
      'grant <user> coins|gems|pxt <amount>',
      'blog reload',
      'season create <title> <starts> <ends>',
    ]) {
      expect(help.stdout).toContain(form);
    }
    expect(bare.code).toBe(0);
    expect(bare.stdout).toBe(help.stdout);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown command "frobnicate"');
  });

  it('lists players as a table and finds them by part of a username, e-mail or wallet', async () => {
    const all = await cli(['users']);
    expect(all.code).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^id\s+username\s+email\s+wallet\s+coins\s+pxt\s+gems\s+ico\s+language\s+created \(UTC\)$/,
    );
    expect(lines[1]).toMatch(/^-+( +-+)+$/);
    expect(all.stdout).toContain(alice.username);
    expect(all.stdout).toContain(bob.email);
    expect(all.stdout).toContain(wallet);
    expect(lines.at(-1)).toBe('3 players');

    const [byEmail, byWallet, underscore, none] = await Promise.all([
      cli(['users', `BOB.${suffix.toUpperCase()}@`]),
      cli(['users', wallet.slice(2, 12).toUpperCase()]),
      cli(['users', '_']),
      cli(['users', 'nobody-has-this']),
    ]);
    expect(byEmail.code).toBe(0);
    expect(byEmail.stdout).toContain(bob.username);
    expect(byEmail.stdout).not.toContain(alice.username);
    expect(byEmail.stdout.trim().split('\n').at(-1)).toBe('1 player');
    expect(byWallet.stdout).toContain(wallet);
    expect(byWallet.stdout).not.toContain(bob.username);
    // `_` is a LIKE wildcard: it must match only a literal underscore (alice's username).
    expect(underscore.stdout).toContain(alice.username);
    expect(underscore.stdout).not.toContain(bob.username);
    expect(none.code).toBe(0);
    expect(none.stdout.trim()).toBe('no player matches "nobody-has-this"');
  });

  it('turns flags on and off for a player named by username, e-mail or wallet', async () => {
    const on = await cli(['flag', alice.username, 'ico', 'on']);
    expect(on.code).toBe(0);
    expect(on.stdout).toContain('ico flag of');
    expect(on.stdout).toContain('off → on');
    expect(Number((await user(ids.alice)).ico)).toBe(1);

    expect((await cli(['flag', bob.email.toUpperCase(), 'language', 'on'])).code).toBe(0);
    expect(Number((await user(ids.bob)).language)).toBe(1);
    expect((await cli(['flag', wallet.toUpperCase().replace('0X', '0x'), 'ico', 'on'])).code).toBe(0);
    expect(Number((await user(ids.wallet)).ico)).toBe(1);

    const off = await cli(['flag', alice.email, 'ico', 'off']);
    expect(off.code).toBe(0);
    expect(Number((await user(ids.alice)).ico)).toBe(0);
    expect(Number((await user(ids.bob)).ico)).toBe(0);
  });

  it('refuses bad flags, states and unknown players', async () => {
    const [flag, state, ghost, missing] = await Promise.all([
      cli(['flag', alice.username, 'admin', 'on']),
      cli(['flag', alice.username, 'ico', 'yes']),
      cli(['flag', 'ghost_player', 'ico', 'on']),
      cli(['flag', alice.username, 'ico']),
    ]);
    expect([flag.code, state.code, ghost.code, missing.code]).toEqual([1, 1, 1, 1]);
    expect(flag.stderr).toContain('unknown flag "admin"');
    expect(state.stderr).toContain('unknown state "yes"');
    expect(ghost.stderr).toContain('no player with username, e-mail or wallet "ghost_player"');
    expect(missing.stderr).toContain('usage: npm run admin -- flag <user> ico|language on|off');
    expect(Number((await user(ids.alice)).ico)).toBe(0);
  });

  it('grants and takes coins, Gems and PXT through the ledger', async () => {
    const give = await cli(['grant', alice.username, 'coins', '100']);
    expect(give.code).toBe(0);
    expect(give.stdout).toContain('gave 100 coins to');
    expect(give.stdout).toContain('coins now 100');
    expect((await cli(['grant', alice.email, 'coins', '-30'])).code).toBe(0);
    expect((await cli(['grant', alice.username, 'gems', '+25'])).code).toBe(0);
    const pxt = await cli(['grant', wallet, 'pxt', '1.234567']);
    expect(pxt.code).toBe(0);
    expect(pxt.stdout).toContain('pxt now 1.234567');
    const takePxt = await cli(['grant', wallet, 'pxt', '-0.000007']);
    expect(takePxt.stdout).toContain('took 0.000007 pxt');
    expect(takePxt.stdout).toContain('pxt now 1.23456');

    const a = await user(ids.alice);
    expect(Number(a.balance)).toBe(70);
    expect(Number(a.gems)).toBe(25);
    expect(Number((await user(ids.wallet)).token)).toBe(1_234_560);
    expect(await ledgerSum(t.app.db, ids.alice, 'balance')).toBe(70);
    expect(await ledgerSum(t.app.db, ids.wallet, 'token')).toBe(1_234_560);
    const rows = await adminRows(ids.alice);
    expect(rows.map((r) => [r.currency, Number(r.amount)])).toEqual([
      ['balance', 100],
      ['balance', -30],
      ['gems', 25],
    ]);
  });

  it('refuses a take beyond the balance, bad amounts and unknown currencies, changing nothing', async () => {
    const before = await user(ids.bob);
    const runs = await Promise.all([
      cli(['grant', bob.username, 'coins', '-1']),
      cli(['grant', bob.username, 'coins', '2.5']),
      cli(['grant', bob.username, 'coins', '0']),
      cli(['grant', bob.username, 'coins', 'lots']),
      cli(['grant', bob.username, 'pxt', '1.0000001']),
      cli(['grant', bob.username, 'gems', '99999999999999999999']),
      cli(['grant', bob.username, 'gold', '5']),
      cli(['grant', 'ghost_player', 'coins', '5']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(runs[0].stderr).toContain('has only 0 coins; cannot take 1');
    expect(runs[1].stderr).toContain('bad amount "2.5"');
    expect(runs[2].stderr).toContain('must not be zero');
    expect(runs[3].stderr).toContain('bad amount "lots"');
    expect(runs[4].stderr).toContain('at most 6 decimals');
    expect(runs[5].stderr).toContain('too large');
    expect(runs[6].stderr).toContain('unknown currency "gold"');
    expect(runs[7].stderr).toContain('no player');
    for (const r of runs) expect(r.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
    const after = await user(ids.bob);
    expect([after.balance, after.gems, after.token]).toEqual([before.balance, before.gems, before.token]);
    expect(await adminRows(ids.bob)).toHaveLength(0);
  });

  it('creates seasons after checking dates and overlaps', async () => {
    const [first] = await t.app.db.selectFrom('seasons').selectAll().orderBy('starts_at').execute();
    const endOfFirst = new Date(Number(first.ends_at)).toISOString();
    const ok = await cli(['season', 'create', 'Season 2', endOfFirst, '2099-01-01']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('created season #');
    expect(ok.stdout).toContain('"Season 2"');
    const created = await t.app.db.selectFrom('seasons').selectAll().where('title', '=', 'Season 2').execute();
    expect(created).toHaveLength(1);
    expect(Number(created[0].starts_at)).toBe(Number(first.ends_at));
    expect(Number(created[0].ends_at)).toBe(Date.parse('2099-01-01T00:00:00Z'));

    const runs = await Promise.all([
      cli(['season', 'create', 'Clash', '2098-06-01', '2100-01-01']),
      cli([
        'season',
        'create',
        'Inside',
        new Date(Date.now() + 60_000).toISOString(),
        new Date(Date.now() + 120_000).toISOString(),
      ]),
      cli(['season', 'create', 'Backwards', '2101-02-01', '2101-01-01']),
      cli(['season', 'create', 'Bad', 'next-monday', '2101-01-01']),
      cli(['season', 'create', 'Bad', '2101-02-30', '2101-03-01']),
      cli(['season', 'create', 'Too few', '2101-01-01']),
      cli(['season', 'delete', '1']),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(runs[0].stderr).toContain('overlap season');
    expect(runs[0].stderr).toContain('"Season 2"');
    expect(runs[1].stderr).toContain('"Season 1"');
    expect(runs[2].stderr).toContain('must end after it starts');
    expect(runs[3].stderr).toContain('bad start date "next-monday"');
    expect(runs[4].stderr).toContain('no such day');
    expect(runs[5].stderr).toContain('usage:');
    expect(runs[6].stderr).toContain('unknown season command "delete"');
    expect(await t.app.db.selectFrom('seasons').select('id').execute()).toHaveLength(2);

    const list = await cli(['season', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/Season 1 .* active/);
    expect(list.stdout).toMatch(/Season 2 .* planned/);
  });

  it("lists Gems orders with status and provider reference, all or one player's", async () => {
    expect((await cli(['orders', alice.email])).stdout.trim()).toBe(`no orders of ${alice.username} (id ${ids.alice})`);
    const paid = await createOrder(t.app.db, {
      userId: ids.alice,
      itemId: 'gems_50',
      quantity: 2,
      method: 'sbp',
      provider: 'yookassa',
      walletAddress: null,
    });
    await t.app.db.transaction().execute((trx) =>
      bookCheckout(trx, paid, {
        status: 'paid',
        externalId: 'yk-payment-1',
        charge: { amount: '898.20', currency: 'RUB' },
      }),
    );
    const pending = await createOrder(t.app.db, {
      userId: ids.bob,
      itemId: 'gems_50',
      quantity: 1,
      method: 'card',
      provider: 'stripe',
      walletAddress: null,
    });
    await t.app.db.transaction().execute((trx) =>
      bookCheckout(trx, pending, {
        status: 'pending',
        externalId: 'cs_test_2',
        checkoutUrl: 'https://checkout.test/2',
      }),
    );

    const all = await cli(['orders']);
    expect(all.code).toBe(0);
    const lines = all.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^id\s+player\s+status\s+method\s+provider\s+reference\s+gems\s+usd\s+charged\s+created \(UTC\)\s+paid \(UTC\)$/,
    );
    expect(lines[2]).toMatch(
      new RegExp(
        `^${pending.id}\\s+${bob.username}\\s+pending\\s+card\\s+stripe\\s+cs_test_2\\s+50 \\(1×\\)\\s+4\\.99\\s+\\d{4}-`,
      ),
    );
    expect(lines[3]).toMatch(
      new RegExp(
        `^${paid.id}\\s+${alice.username}\\s+paid\\s+sbp\\s+yookassa\\s+yk-payment-1\\s+100 \\(2×\\)\\s+9\\.98\\s+898\\.20 RUB\\s+\\d{4}-.*\\d{4}-`,
      ),
    );
    expect(lines.at(-1)).toBe('2 orders');

    const mine = await cli(['orders', alice.username]);
    expect(mine.stdout).toContain('yk-payment-1');
    expect(mine.stdout).not.toContain('cs_test_2');
    expect(mine.stdout.trim().split('\n').at(-1)).toBe('1 order');
    const nobody = await cli(['orders', 'nobody-at-all']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('no player with username, e-mail or wallet "nobody-at-all"');
  });

  describe('blog reload', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'pxt-cli-blog-'));
      mkdirSync(join(dir, 'en'));
      mkdirSync(join(dir, 'ru'));
      writeFileSync(join(dir, 'en', 'hello.md'), '---\ntitle: Hello\ndate: 2026-05-01\nsummary: Hi\n---\n\nText.\n');
      writeFileSync(
        join(dir, 'ru', 'hello.md'),
        '---\ntitle: Привет\ndate: 2026-05-01\nsummary: Привет\n---\n\nТекст.\n',
      );
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('checks the articles that ship with the app', async () => {
      const res = await cli(['blog', 'reload']);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/content\/blog: \d+ articles \(\d+ en, \d+ ru\)/);
      expect(res.stdout).toContain('SIGHUP');
    });

    it('reports a valid folder and fails on broken files', async () => {
      const good = await cli(['blog', 'reload'], { BLOG_DIR: dir });
      expect(good.code).toBe(0);
      expect(good.stdout).toContain(`${dir}: 1 articles (1 en, 1 ru)`);
      expect(good.stdout).toContain('ru  hello  Привет');

      writeFileSync(join(dir, 'en', 'broken.md'), '---\ntitle: Broken\nsumary: typo\n---\n\nText.\n');
      const bad = await cli(['blog', 'reload'], { BLOG_DIR: dir });
      expect(bad.code).toBe(1);
      expect(bad.stdout).toContain('broken.md: unknown front matter key "sumary"');
      expect(bad.stdout).toContain('broken.md: date is missing');
      expect(bad.stderr).toContain('problems in the blog folder');

      const unknown = await cli(['blog', 'refresh']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('unknown blog command "refresh"');
    });
  });
});
