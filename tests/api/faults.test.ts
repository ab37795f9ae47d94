// The server killed with SIGKILL in the middle of a burst of claims, then restarted: every client
// retries its claim with the same Idempotency-Key until it has an answer, and afterwards every
// player is paid exactly once and no ledger row is lost. The server is a real child process on the
// test's database (SQLite file in DATA_DIR, or a fresh PostgreSQL database), so the kill cuts off
// open transactions and unanswered requests exactly as a crash would.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_SECONDS } from '@shared/constants';
import { type Database, openDatabase } from '../../server/db/database';
import { migrate } from '../../server/db/migrate';
import { createJwt } from '../../server/services/jwt';
import { openSessions, seedPlayers } from '../helpers/bulk-players';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { createPgDatabase, testDialects } from '../helpers/test-app';

const PLAYERS = 100;

interface Client {
  userId: number;
  token: string;
  key: string;
  /** Answers received, in order: HTTP status, or 0 when the connection failed. */
  answers: number[];
  bodies: unknown[];
}

async function claim(server: ServerProcess, c: Client): Promise<void> {
  try {
    const res = await fetch(`${server.baseURL}/api/v1/mining/claim/`, {
      headers: { authorization: `Bearer ${c.token}`, 'idempotency-key': c.key },
    });
    const body = await res.json().catch(() => null);
    c.answers.push(res.status);
    c.bodies.push(body);
  } catch {
    c.answers.push(0);
    c.bodies.push(null);
  }
}

const last = (c: Client) => c.answers[c.answers.length - 1];
const lastCode = (c: Client) => (c.bodies[c.bodies.length - 1] as { code?: string } | null)?.code;

describe.each(testDialects())('claims survive a SIGKILL on %s', (dialect) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'pxt-faults-'));
  const jwtSecret = randomBytes(32).toString('base64url');
  let database: Database;
  let dropPg: (() => Promise<void>) | null = null;
  let env: Record<string, string>;
  let server: ServerProcess | null = null;

  beforeAll(async () => {
    let databaseUrl: string | null = null;
    if (dialect === 'postgres') {
      const created = await createPgDatabase();
      databaseUrl = created.url;
      dropPg = created.drop;
    }
    database = openDatabase({ databaseUrl, dataDir });
    await migrate(database);
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'fatal',
      DATA_DIR: dataDir,
      STATIC_DIR: '',
      WORKER_INTERVAL_MS: '0',
      JWT_SECRET: jwtSecret,
      APP_URL: 'http://app.test',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    };
  });

  afterAll(async () => {
    await server?.kill();
    await database?.close();
    await dropPg?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('pays every player exactly once after a kill and retries with the same keys', async () => {
    const { ids } = await seedPlayers(database.db, dialect, {
      count: PLAYERS,
      tag: `kill${dialect}`,
      session: 'ended',
    });
    const jwt = createJwt(jwtSecret);
    const sessions = await openSessions(database.db, ids);
    const clients: Client[] = ids.map((userId) => ({
      userId,
      token: jwt.issueAccess(userId, sessions.get(userId)!, ACCESS_TOKEN_SECONDS),
      key: `claim-${userId}-${randomBytes(8).toString('hex')}`,
      answers: [],
      bodies: [],
    }));

    server = await startServerProcess({ env });
    const first = server;
    // The burst: everyone claims at once; the server dies right after the first answers arrive.
    let answered = 0;
    let killing: Promise<void> | null = null;
    const burst = clients.map((c) =>
      claim(first, c).then(() => {
        if (last(c) !== 0 && ++answered >= 5 && !killing) killing = first.kill();
      }),
    );
    await Promise.all(burst);
    await (killing ?? first.kill());
    const paidBeforeKill = clients.filter((c) => c.answers[0] === 200);
    const cutOff = clients.filter((c) => c.answers[0] === 0);
    // The kill must have landed mid-burst, or this test proves nothing.
    expect(cutOff.length).toBeGreaterThan(0);

    server = await startServerProcess({ env });
    const second = server;
    // Every client without an answer retries with its key. A key whose request died with the
    // process stays "in progress" (409) until the server's stall window (60 s) frees it; instead
    // of sleeping, the keys of requests that are certainly dead (no retry is under way: they run
    // one round at a time) are aged past that window, as endSession() ages mining sessions.
    for (let round = 0; round < 4; round++) {
      const pending = clients.filter((c) => last(c) === 0 || lastCode(c) === 'idempotency_in_progress');
      if (pending.length === 0) break;
      await Promise.all(pending.map((c) => claim(second, c)));
      const stalled = clients.filter((c) => lastCode(c) === 'idempotency_in_progress').map((c) => `u:${c.userId}`);
      if (stalled.length > 0) {
        await database.db
          .updateTable('idempotency_keys')
          .set({ created_at: sql`created_at - 61000` })
          .where('scope', 'in', stalled)
          .where('status', 'is', null)
          .execute();
      }
    }
    await second.stop();
    server = null;

    const problems: string[] = [];
    for (const c of clients) {
      // Every client ends with the claim's answer: paid now, or the answer its first attempt
      // committed together with the payment before the kill (replayed), never "nothing to claim".
      const ok = last(c) === 200;
      if (!ok) problems.push(`player ${c.userId}: answers ${c.answers.join(',')} (${lastCode(c)})`);
    }
    expect(problems).toEqual([]);

    const rows = await database.db
      .selectFrom('ledger')
      .select(['user_id', 'amount', 'unique_key'])
      .where('reason', '=', 'mining_claim')
      .where('user_id', 'in', ids)
      .execute();
    const perUser = new Map<number, number>();
    for (const r of rows) perUser.set(Number(r.user_id), (perUser.get(Number(r.user_id)) ?? 0) + 1);
    expect(rows.length).toBe(PLAYERS);
    expect(new Set(rows.map((r) => r.unique_key)).size).toBe(PLAYERS);
    expect(ids.filter((id) => perUser.get(id) !== 1)).toEqual([]);

    // No ledger row lost: each cached balance equals its rows, and every 200 before the kill is in.
    const sums = await database.db
      .selectFrom('ledger')
      .select(['user_id', (eb) => eb.fn.sum<number>('amount').as('total')])
      .where('currency', '=', 'token')
      .where('user_id', 'in', ids)
      .groupBy('user_id')
      .execute();
    const sumOf = new Map(sums.map((s) => [Number(s.user_id), Number(s.total)]));
    const users = await database.db.selectFrom('users').select(['id', 'token']).where('id', 'in', ids).execute();
    expect(
      users.filter((u) => Number(u.token) <= 0 || Number(u.token) !== sumOf.get(Number(u.id))).map((u) => u.id),
    ).toEqual([]);
    for (const c of paidBeforeKill) {
      const reward = (c.bodies[0] as { reward: number }).reward;
      expect(sumOf.get(c.userId)).toBe(Math.round(reward * 1_000_000));
    }
    // Every session is claimed exactly once with its reward recorded.
    const open = await database.db
      .selectFrom('mining_sessions')
      .select('id')
      .where('user_id', 'in', ids)
      .where((eb) => eb.or([eb('claimed', '=', 0), eb('reward', 'is', null)]))
      .execute();
    expect(open).toEqual([]);
  }, 90_000);
});
