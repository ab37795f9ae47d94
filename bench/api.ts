// API throughput and p99 latency of the hot read calls, each as a ratio of a bare Fastify route
// measured in the same run with the same connections and duration (SQLite, production settings).
import { type BenchOptions, ms, perSecond, ratio, serverEnv, startServer, tempDir, tokenFor } from './context';
import { load, type LoadFigure } from './load';
import { openBenchDatabase } from './players';
import type { Table } from './table';
import { seedBusyPlayer, seedPlayers } from '../tests/helpers/bulk-players';

export const API_ROUTES = ['/api/v1/auth/me', '/api/v1/mining/sessions/', '/api/v1/mining/boosts/'] as const;
/** Where /auth/me should be relative to the bare route. */
const ME_TARGET = 0.8;

const figure = (f: LoadFigure) => `${perSecond(f.rps)}, p99 ${ms(f.p99)}, ${micros(f.cpuMicros)} CPU/answer${f.bad ? `, ${f.bad} bad answers` : ''}`;
const micros = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} µs` : 'n/a');

export async function apiSection(table: Table, opts: BenchOptions): Promise<void> {
  const section = `API (SQLite, ${opts.connections} connections, ${opts.duration} s each)`;
  const dataDir = tempDir('api');
  const database = await openBenchDatabase({ dataDir });
  await seedPlayers(database.db, 'sqlite', { count: 1000, tag: 'crowd', session: 'claimed' });
  const userId = await seedBusyPlayer(database.db, 'api');
  await database.close();

  const bare = await startServer({ env: {}, script: 'bench/bare-server.ts', readyPath: '/bare' });
  const server = await startServer({ env: serverEnv(dataDir) });
  const load_ = (pid: number, url: string, headers: Record<string, string> = {}) => load(url, { headers, duration: opts.duration, connections: opts.connections, pid });

  const base = await load_(bare.pid, `${bare.baseURL}/bare`);
  await bare.stop();
  table.add({ section, measure: 'bare Fastify GET /bare', result: figure(base), verdict: base.bad ? 'failed' : 'info' });

  const headers = { authorization: `Bearer ${tokenFor(userId)}` };
  // Where the time goes: the app's whole request pipeline (auth hook, security headers, zod
  // serialiser, compression check) on a call that reads no database, next to the real calls.
  const stack = await load_(server.pid, `${server.baseURL}/api/v1/config/`, headers);
  table.add({
    section,
    measure: 'GET /config/ (same pipeline, no database)',
    result: `${figure(stack)} = ${ratio(stack.rps / base.rps)} bare`,
    verdict: stack.bad ? 'failed' : 'info',
  });
  for (const route of API_ROUTES) {
    const f = await load_(server.pid, `${server.baseURL}${route}`, headers);
    const share = f.rps / base.rps;
    const cpuShare = base.cpuMicros / f.cpuMicros;
    const isMe = route.endsWith('/auth/me');
    table.add({
      section,
      measure: `GET ${route.replace('/api/v1', '')}`,
      result: `${figure(f)} = ${ratio(share)} bare (CPU: ${Number.isFinite(cpuShare) ? ratio(cpuShare) : 'n/a'})`,
      target: isMe ? `≥ ${ratio(ME_TARGET)}` : undefined,
      verdict: f.bad ? 'failed' : isMe ? (share >= ME_TARGET ? 'met' : 'missed') : 'info',
    });
  }
  await server.stop();
}
