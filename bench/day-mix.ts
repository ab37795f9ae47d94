// One step of the day of play (bench/day.ts): the mix of calls a real day makes, sent open-loop at a
// given rate of claims, with each call's latency, errors, the CPU of server and generator, and the
// ledger checked afterwards.
//
// The model (one player's day, from what the app calls: src/features/mining/state/mining-actions.ts):
//   - A session lasts 8 hours, so a player who mines claims about twice a day (the night's session
//     waits for the morning): 2 claims a day. Each claim is followed at once by the next start.
//   - The player opens the app about 6 times a day; every open asks GET /auth/me (the shell's
//     current player): 6 / 2 = 3 per claim.
//   - 4 of those opens go to the miner page, which lists GET /mining/sessions/: 4 / 2 = 2 per claim.
//   - One session in 4 is boosted: right after the start, a temporary boost is applied to it
//     (POST /mining/apply-temp-boost/, the welcome boost every account owns); one session in 20
//     buys that boost in the shop first (POST /mining/shop/buy/, 5 Gems).
// At bench/day.ts's 300 claims/s: 900 /auth/me, 600 /mining/sessions/, 300 claims, 300 starts, 75 boosts and
// 15 purchases per second, 2,190 calls per second. (After each tap the app also refreshes
// /mining/boosts/ and the assets; the day names the calls above, and the api section
// measures the others alone.)
//
// Open loop: /auth/me, /mining/sessions/ and the claims are sent at the times a schedule gives them
// (evenly spaced at their rates), whether or not earlier calls have answered, and each one's latency
// is counted from its scheduled time (no coordinated omission: a server that falls behind shows as
// latency, not as a lower rate). A start, a purchase and a boost follow the answer before them, as
// the player's taps do, and count from that answer. Every claimer is a different player seeded with
// a finished session (tests/helpers/bulk-players.ts), so every claim is a real paid claim; the
// ledger is checked afterwards (one `mining_claim` row per claim, no key twice).
//
// The load comes from bench/http-client.ts, keep-alive sockets at a fraction of fetch's CPU per call;
// the bench's own CPU and how late it sent against the schedule are printed, so a figure limited by
// the generator is seen as such.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sql } from 'kysely';
import type { Db } from '../server/db/schema';
import { seedPlayers } from '../tests/helpers/bulk-players';
import type { ServerProcess } from '../tests/helpers/server-process';
import { percentile, tokensFor } from './context';
import { type Answer, LoadClient, NOT_SENT } from './http-client';
import { cpuSeconds } from './load';
import { cpuTimes, stolenShare } from './steal';

/** Calls per claim (see the model above). */
export const ME_PER_CLAIM = 3;
export const SESSIONS_PER_CLAIM = 2;
export const BOOST_EVERY = 4;
export const BUY_EVERY = 20;
const SHOP_ITEM = { id: 'boost_1h', gems: 5 };
/** Every call of the mix per claim: the claim, its start, the reads, the boosts and purchases. */
export const CALLS_PER_CLAIM = 1 + 1 + ME_PER_CLAIM + SESSIONS_PER_CLAIM + 1 / BOOST_EVERY + 1 / BUY_EVERY;
/** An answer later than this is counted as an error (and the socket dropped). */
const TIMEOUT_MS = 10_000;
/** Sockets the generator keeps open; more calls than this wait in its queue (counted in their latency). */
const SOCKETS = 64;

export const KINDS = ['me', 'sessions', 'claim', 'start', 'boost', 'buy'] as const;
export type Kind = (typeof KINDS)[number];
export const ROUTE: Record<Kind, string> = {
  me: 'GET /auth/me',
  sessions: 'GET /mining/sessions/',
  claim: 'GET /mining/claim/',
  start: 'GET /mining/start/',
  boost: 'POST /mining/apply-temp-boost/',
  buy: 'POST /mining/shop/buy/',
};

export interface KindFigures {
  latencies: number[];
  /** Non-2xx answers (the model makes no call the server should refuse), network errors, timeouts. */
  errors: Map<string, number>;
}

export interface StepResult {
  claimsPerSecond: number;
  seconds: number;
  byKind: Record<Kind, KindFigures>;
  /** Server CPU over the step, share of one core. */
  serverCpu: number;
  /** The bench's own CPU over the step, share of one core. */
  generatorCpu: number;
  /** Share of the step the server's thread was ready to run but waited for a core (other processes). */
  serverWaited: number;
  generatorWaited: number;
  /** How late the generator sent the scheduled calls (p99, ms): over a few ms, it is the bottleneck. */
  sendLagP99: number;
  /** Server CPU per call that reached it (µs), and the bench's own per call it sent. */
  serverMicrosPerCall: number;
  generatorMicrosPerCall: number;
  problems: string[];
  load: number;
  /** Share of the cores' time the hypervisor took during the step (bench/steal.ts). */
  stolen: number;
}

/** The day's calls as a signed-in player makes them, through the bench's load client. */
class Player {
  constructor(
    readonly id: number,
    private readonly token: string,
    readonly welcomeBoostId: number,
  ) {}
  call(client: LoadClient, method: string, path: string, opts: { key?: string; body?: unknown; read?: boolean } = {}) {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    if (opts.key) headers['idempotency-key'] = opts.key;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    return client.call(method, `/api/v1${path}`, {
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      read: opts.read,
    });
  }
}

/**
 * Seconds a process's main thread has waited, ready to run, for a core (Linux's schedstat): on a
 * shared machine the difference between a server that is slow and one that was not given a core.
 */
function runQueueSeconds(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]) / 1e9;
  } catch {
    return NaN;
  }
}

const sleep = (msecs: number) => new Promise((r) => setTimeout(r, msecs));
let keys = 0;
const newKey = () => `day-${process.pid}-${++keys}`;

/** `count` new players with a finished session and 5 Gems (through the ledger), ready to claim. */
async function seedClaimers(db: Db, count: number, tag: string): Promise<Player[]> {
  const { ids } = await seedPlayers(db, 'sqlite', { count, tag, session: 'ended' });
  const [first, last] = [ids[0], ids[ids.length - 1]];
  const now = Date.now();
  await sql`INSERT INTO ledger (user_id, currency, amount, reason, ref, unique_key, created_at)
    SELECT id, 'gems', ${SHOP_ITEM.gems}, 'admin_grant', 'bench:day', NULL, ${now}
    FROM users WHERE id >= ${first} AND id <= ${last}`.execute(db);
  await sql`UPDATE users SET gems = gems + ${SHOP_ITEM.gems} WHERE id >= ${first} AND id <= ${last}`.execute(db);
  const boosts = await db
    .selectFrom('temp_boosts')
    .select(['id', 'user_id'])
    .where('user_id', '>=', first)
    .where('user_id', '<=', last)
    .where('source', '=', 'welcome')
    .execute();
  const welcome = new Map(boosts.map((b) => [Number(b.user_id), Number(b.id)]));
  const tokens = await tokensFor(db, ids);
  return ids.map((id) => new Player(id, tokens.get(id)!, welcome.get(id)!));
}

/**
 * Runs the day's mix at `claimsPerSecond` for `seconds` (one claimer each) and answers its figures;
 * the claimers' ledger rows are checked afterwards.
 */
export async function runStep(
  server: ServerProcess,
  db: Db,
  claimsPerSecond: number,
  seconds: number,
  tag: string,
): Promise<StepResult> {
  const claims = Math.round(claimsPerSecond * seconds);
  const players = await seedClaimers(db, claims, tag);
  if (!server.baseURL.startsWith('http://127.0.0.1:')) throw new Error('the bench only loads loopback servers');
  const client = new LoadClient(server.port, SOCKETS, TIMEOUT_MS);
  /** Calls that reached the server (not dropped from the generator's queue). */
  let sent = 0;
  const byKind = Object.fromEntries(KINDS.map((k) => [k, { latencies: [], errors: new Map() }])) as unknown as Record<
    Kind,
    KindFigures
  >;
  const record = (kind: Kind, since: number, { status, failure }: Answer) => {
    const f = byKind[kind];
    f.latencies.push(performance.now() - since);
    if (failure !== NOT_SENT) sent++;
    if (status < 200 || status > 299) {
      const what = failure ?? String(status);
      f.errors.set(what, (f.errors.get(what) ?? 0) + 1);
      return false;
    }
    return true;
  };
  const claimed: number[] = [];
  // Chains still running; `drained` is called when the last ends after the schedule.
  let inFlight = 0;
  let drained = () => {};
  const track = (p: Promise<void>) => {
    inFlight++;
    void p.finally(() => {
      if (--inFlight === 0) drained();
    });
  };
  // A player's claim, then the taps that follow it; a refused call ends the chain.
  const claimChain = async (n: number, scheduled: number) => {
    const p = players[n];
    const c = await p.call(client, 'GET', '/mining/claim/', { key: newKey() });
    if (!record('claim', scheduled, c)) return;
    claimed.push(p.id);
    let t = performance.now();
    const s = await p.call(client, 'GET', '/mining/start/', { key: newKey() });
    if (!record('start', t, s) || n % BOOST_EVERY !== 0) return;
    let boostId = p.welcomeBoostId;
    if (n % BUY_EVERY === 0) {
      t = performance.now();
      const b = await p.call(client, 'POST', '/mining/shop/buy/', {
        key: newKey(),
        body: { item_id: SHOP_ITEM.id },
        read: true,
      });
      if (!record('buy', t, b)) return;
      boostId = (JSON.parse(b.body) as { boost: { id: number } }).boost.id;
    }
    t = performance.now();
    const a = await p.call(client, 'POST', '/mining/apply-temp-boost/', {
      key: newKey(),
      body: { boost_id: boostId, force_apply: false },
    });
    record('boost', t, a);
  };
  const reader = (path: string, kind: Kind) => async (n: number, scheduled: number) => {
    // Anyone of the step's players opens the app: spread over them.
    const p = players[(n * 7919) % players.length];
    const r = await p.call(client, 'GET', path);
    record(kind, scheduled, r);
  };
  const schedules = [
    { rate: claimsPerSecond, total: claims, fire: claimChain },
    {
      rate: claimsPerSecond * ME_PER_CLAIM,
      total: claims * ME_PER_CLAIM,
      fire: reader('/auth/me', 'me'),
    },
    {
      rate: claimsPerSecond * SESSIONS_PER_CLAIM,
      total: claims * SESSIONS_PER_CLAIM,
      fire: reader('/mining/sessions/?page=1&page_size=20', 'sessions'),
    },
  ].map((s) => ({ ...s, sent: 0 }));

  const sendLags: number[] = [];
  const cpuBefore = cpuSeconds(server.pid);
  const ownBefore = process.cpuUsage();
  const waitedBefore = [runQueueSeconds(server.pid), runQueueSeconds(process.pid)];
  const timesBefore = cpuTimes();
  const t0 = performance.now() + 20;
  const wallStart = t0;
  // The schedule: every millisecond or so, send every call whose time has come (bounded by totals).
  while (schedules.some((s) => s.sent < s.total)) {
    const now = performance.now();
    for (const s of schedules) {
      while (s.sent < s.total) {
        const at = t0 + (s.sent * 1000) / s.rate;
        if (at > now) break;
        sendLags.push(now - at);
        track(s.fire(s.sent, at));
        s.sent++;
      }
    }
    await sleep(1);
  }
  // Bounded: every call has its own timeout, so this ends.
  if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
  const wall = (performance.now() - wallStart) / 1000;
  const own = process.cpuUsage(ownBefore);
  const serverCpuSeconds = cpuSeconds(server.pid) - cpuBefore;
  const [serverWaited, generatorWaited] = [server.pid, process.pid].map(
    (pid, i) => (runQueueSeconds(pid) - waitedBefore[i]) / wall,
  );
  const stolen = stolenShare(timesBefore);
  client.close();

  const problems = await checkLedger(db, players, claimed);
  return {
    claimsPerSecond,
    seconds,
    byKind,
    serverCpu: serverCpuSeconds / wall,
    generatorCpu: (own.user + own.system) / 1e6 / wall,
    serverWaited,
    generatorWaited,
    sendLagP99: percentile(sendLags, 99),
    serverMicrosPerCall: (serverCpuSeconds * 1e6) / sent,
    generatorMicrosPerCall: (own.user + own.system) / sent,
    problems,
    load: loadavg()[0],
    stolen,
  };
}

/** Every claim answered 200 paid once: one `mining_claim` row each, none for the others, no key twice. */
async function checkLedger(db: Db, players: Player[], claimed: number[]): Promise<string[]> {
  const rows = await db
    .selectFrom('ledger')
    .select(['user_id', 'unique_key'])
    .where('reason', '=', 'mining_claim')
    .where('user_id', '>=', players[0].id)
    .where('user_id', '<=', players[players.length - 1].id)
    .execute();
  const problems: string[] = [];
  const paid = new Map<number, number>();
  for (const r of rows) paid.set(Number(r.user_id), (paid.get(Number(r.user_id)) ?? 0) + 1);
  const answered = new Set(claimed);
  const unpaid = claimed.filter((id) => !paid.has(id)).length;
  const twice = [...paid.values()].filter((n) => n > 1).length;
  // A claim whose answer was lost (timeout) may still have been paid, once: an error, not a double payment.
  const lost = [...paid.keys()].filter((id) => !answered.has(id)).length;
  if (unpaid) problems.push(`${unpaid} claims answered 200 but not paid`);
  if (twice) problems.push(`${twice} players paid twice`);
  if (lost) console.log(`    (${lost} claims paid once whose answer was lost)`);
  if (new Set(rows.map((r) => r.unique_key)).size !== rows.length) problems.push('a unique_key twice');
  return problems;
}
