// API throughput and p99 latency of the hot read calls, each as a ratio of its "limit route"
// (bench/limit-routes.ts: the same rows and JSON by hand on a bare Fastify) and of a bare Fastify
// route, measured in the same run with the same connections and duration (SQLite, production settings).
import { isDeepStrictEqual } from 'node:util';
import { join } from 'node:path';
import { type BenchOptions, ms, perSecond, ratio, serverEnv, startServer, tempDir, tokenFor } from './context';
import { LIMIT_ROUTES } from './limit-routes';
import { load, type LoadFigure } from './load';
import { describeProfile, profileWhileLoading } from './profile';
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
/** Turns of limit route then app per call; odd, so the median is one of them. */
const PAIRS = 3;

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
  const section = `API (SQLite, ${opts.connections} connections, ${opts.duration} s each)`;
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
  const missed: string[] = [];
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
    if (share < target) missed.push(route);
  }
  await bare.stop();
  await server.stop();
  if (missed.length === 0) return;

  // Where the time of a missed call goes: the same server under V8's sampling profiler, self time
  // by package or app file (the profiler slows it, so these are shares, not figures).
  const profileFile = join(dataDir, 'api.cpuprofile');
  const profiled = await startServer({
    env: { ...env, PROFILE_FILE: profileFile },
    script: 'bench/profiled-server.ts',
  });
  for (const route of missed) {
    const summary = await profileWhileLoading(profiled.pid, profileFile, () =>
      load_(profiled.pid, `${profiled.baseURL}${route}`, headers),
    );
    table.add({
      section,
      measure: `where GET ${route.replace('/api/v1', '')}'s CPU goes (profile)`,
      result: describeProfile(summary),
      verdict: 'info',
    });
  }
  await profiled.stop();
}
