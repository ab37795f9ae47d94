// API throughput and p99 latency of the hot read calls, each as a ratio of its "limit route"
// (bench/limit-routes.ts: the same rows and JSON by hand on a bare Fastify) and of a bare Fastify
// route, measured in the same run with the same connections and duration (SQLite, production settings).
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { type Cores, pinCores } from './cores';
import { type BenchOptions, ms, perSecond, ratio, serverEnv, startServer, tempDir, tokenFor } from './context';
import { LIMIT_ROUTES } from './limit-routes';
import { load, type LoadFigure } from './load';
import { openBenchDatabase } from './players';
import type { Table } from './table';
import { seedBusyPlayer, seedPlayers } from '../tests/helpers/bulk-players';

export const API_ROUTES = ['/api/v1/auth/me', '/api/v1/mining/sessions/', '/api/v1/mining/boosts/'] as const;
/** Where each call should be relative to its limit route (issue 14; issue 25 for the mining lists). */
const LIMIT_TARGET: Record<(typeof API_ROUTES)[number], number> = {
  '/api/v1/auth/me': 0.8,
  '/api/v1/mining/sessions/': 0.8,
  '/api/v1/mining/boosts/': 0.8,
};
const APP_URL = 'http://localhost:8080';
/** A call under its target, with the median pair's figures. */
interface Missed {
  route: (typeof API_ROUTES)[number];
  f: LoadFigure;
  limit: LoadFigure;
}
/** Turns of limit route then app per call; odd, so the median is one of them. */
const PAIRS = 5;

const figure = (f: LoadFigure) =>
  `${perSecond(f.rps)}, p99 ${ms(f.p99)}, ${micros(f.cpuMicros)} CPU/answer${f.bad ? `, ${f.bad} bad answers` : ''}`;
const micros = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} µs` : 'n/a');

/** What a browser gets: the status, the headers but the date, and the JSON. */
async function answer(url: string, headers: Record<string, string>): Promise<unknown> {
  const r = await fetch(url, { headers: { 'accept-encoding': 'gzip, deflate, br', ...headers } });
  if (!r.ok) throw new Error(`${url}: ${r.status} ${await r.text()}`);
  const kept = [...r.headers].filter(([name]) => name !== 'date');
  return { status: r.status, headers: Object.fromEntries(kept.sort()), body: await r.json() };
}

export async function apiSection(table: Table, opts: BenchOptions): Promise<void> {
  const cores = pinCores();
  try {
    await apiFigures(table, opts, cores);
  } finally {
    cores.release();
  }
}

async function apiFigures(table: Table, opts: BenchOptions, cores: Cores): Promise<void> {
  const section = `API (SQLite, ${opts.connections} connections, ${opts.duration} s each; ${cores.note})`;
  const dataDir = tempDir('api');
  const database = await openBenchDatabase({ dataDir });
  await seedPlayers(database.db, 'sqlite', { count: 1000, tag: 'crowd', session: 'claimed' });
  const userId = await seedBusyPlayer(database.db, 'api');
  // A session of its own (decisions §13), as a sign-in would open it.
  const headers = { authorization: `Bearer ${await tokenFor(database.db, userId)}` };
  await database.close();

  // Request logging at its default level (info: a line when each request comes in and one when it
  // is answered), as a server runs unless told otherwise (issue 25); the limit routes log nothing.
  const env = serverEnv(dataDir, { APP_URL, LOG_LEVEL: 'info' });
  const server = await startServer({ env });
  // Started after the app, which opens the database in WAL mode; the limit routes only read it.
  const bare = await startServer({
    env: { LIMIT_DATABASE: join(dataDir, 'pxt.sqlite'), JWT_SECRET: env.JWT_SECRET, APP_URL },
    script: 'bench/bare-server.ts',
    readyPath: '/bare',
  });
  cores.server(server.pid);
  cores.server(bare.pid);
  const load_ = (pid: number, url: string, headers: Record<string, string> = {}) =>
    load(url, { headers, duration: opts.duration, connections: opts.connections, pid });

  const base = await load_(bare.pid, `${bare.baseURL}/bare`);
  table.add({
    section,
    measure: 'bare Fastify GET /bare',
    result: figure(base),
    verdict: base.bad ? 'failed' : 'info',
  });

  // Where the time goes: the app's whole request pipeline (auth hook, security headers, serialiser,
  // compression check) on a call that reads no database, next to the real calls.
  const stack = await load_(server.pid, `${server.baseURL}/api/v1/config/`, headers);
  table.add({
    section,
    measure: 'GET /config/ (same pipeline, no database)',
    result: `${figure(stack)} = ${ratio(stack.rps / base.rps)} bare`,
    verdict: stack.bad ? 'failed' : 'info',
  });
  const missed: Missed[] = [];
  for (const route of API_ROUTES) {
    const limitUrl = `${bare.baseURL}${LIMIT_ROUTES[route]}`;
    // A limit route that answers something else (another body, a header fewer) would be a yardstick of other work.
    const same = isDeepStrictEqual(await answer(limitUrl, headers), await answer(`${server.baseURL}${route}`, headers));
    // Limit and app in turns, PAIRS times: on a shared machine one pair can land in a busy second;
    // the pair with the median ratio is the figure.
    const pairs: { limit: LoadFigure; f: LoadFigure; share: number }[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const limit = await load_(bare.pid, limitUrl, headers);
      const f = await load_(server.pid, `${server.baseURL}${route}`, headers);
      pairs.push({ limit, f, share: f.rps / limit.rps });
    }
    pairs.sort((a, b) => a.share - b.share);
    const { limit, f, share } = pairs[Math.floor(PAIRS / 2)];
    const cpuShare = limit.cpuMicros / f.cpuMicros;
    const target = LIMIT_TARGET[route];
    const name = route.replace('/api/v1', '');
    table.add({
      section,
      measure: `limit route of GET ${name} (by hand, bare Fastify)`,
      result: `${figure(limit)}${same ? '' : ' — answers differ from the app’s'}`,
      verdict: limit.bad || !same ? 'failed' : 'info',
    });
    table.add({
      section,
      measure: `GET ${name}`,
      result: `${figure(f)} = ${ratio(share)} of its limit route (median of ${PAIRS} turns: ${pairs.map((p) => ratio(p.share)).join(', ')}; CPU: ${Number.isFinite(cpuShare) ? ratio(cpuShare) : 'n/a'}), ${ratio(f.rps / base.rps)} bare`,
      target: `≥ ${ratio(target)} limit`,
      verdict: f.bad ? 'failed' : share >= target ? 'met' : 'missed',
    });
    if (share < target) missed.push({ route, f, limit });
  }
  await server.stop();
  if (missed.length > 0) await whereTheTimeGoes(table, section, missed, { env, bare, load_, headers, cores });
  await bare.stop();
}

/**
 * Where the time of a missed call goes, in figures rather than a sampling profile (V8's profiler
 * counts wall time, so on two shared cores the socket write that wakes the load generator takes
 * half of every profile): the CPU per answer split into user and system time beside the limit
 * route's, and the same call once more from a server at LOG_LEVEL=warn, without the two request
 * lines, against the limit route in turns as above.
 */
async function whereTheTimeGoes(
  table: Table,
  section: string,
  missed: readonly Missed[],
  ctx: {
    env: Record<string, string>;
    bare: { pid: number; baseURL: string };
    load_: (pid: number, url: string, headers?: Record<string, string>) => Promise<LoadFigure>;
    headers: Record<string, string>;
    cores: Cores;
  },
): Promise<void> {
  const quiet = await startServer({ env: { ...ctx.env, LOG_LEVEL: 'warn' } });
  ctx.cores.server(quiet.pid);
  for (const { route, f, limit } of missed) {
    const pairs: { q: LoadFigure; share: number }[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const l = await ctx.load_(ctx.bare.pid, `${ctx.bare.baseURL}${LIMIT_ROUTES[route]}`, ctx.headers);
      const q = await ctx.load_(quiet.pid, `${quiet.baseURL}${route}`, ctx.headers);
      pairs.push({ q, share: q.rps / l.rps });
    }
    pairs.sort((a, b) => a.share - b.share);
    const { q, share } = pairs[Math.floor(PAIRS / 2)];
    const split = (x: LoadFigure) => `${micros(x.cpuMicros - x.systemMicros)} user + ${micros(x.systemMicros)} system`;
    table.add({
      section,
      measure: `where GET ${route.replace('/api/v1', '')}'s time goes`,
      result:
        `CPU/answer ${split(f)}, its limit route ${split(limit)}; ` +
        `at LOG_LEVEL=warn (no request lines): ${figure(q)} = ${ratio(share)} of its limit route ` +
        `(median of ${PAIRS} turns: ${pairs.map((p) => ratio(p.share)).join(', ')}), so the two request lines cost ` +
        `${micros(f.cpuMicros - q.cpuMicros)} CPU/answer`,
      verdict: q.bad ? 'failed' : 'info',
    });
  }
  await quiet.stop();
}
