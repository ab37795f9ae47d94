// Probes for a load balancer or an orchestrator (decisions §12), outside /api/v1/:
//  - GET /healthz: the process runs and answers; never touches the database, so a slow database
//    does not get healthy processes restarted.
//  - GET /readyz: the database answers and every migration this code needs is recorded; 503
//    otherwise (not reachable, closed, still migrating), so traffic goes to other processes.
// Both are called every few seconds by machines: their request log lines go out at warn level only.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { pendingMigrations } from '../db/migrate';

/** A readiness check waits this long for the database (a pg pool waits for ever by default). */
const READY_TIMEOUT_MS = 2000;

type Readiness = { ready: true } | { ready: false; detail: string; code: string };

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const late = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export default fp(
  async function probes(app: FastifyInstance) {
    async function readiness(): Promise<Readiness> {
      let pending: string[];
      try {
        pending = await withTimeout(pendingMigrations(app.db), READY_TIMEOUT_MS);
      } catch (err) {
        app.log.warn({ err }, 'readiness: database does not answer');
        return { ready: false, detail: 'The database does not answer', code: 'database_unavailable' };
      }
      if (pending.length)
        return { ready: false, detail: `Migrations pending: ${pending.join(', ')}`, code: 'migrations_pending' };
      return { ready: true };
    }

    app.get('/healthz', { logLevel: 'warn', schema: { hide: true } }, async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { status: 'ok' };
    });

    app.get('/readyz', { logLevel: 'warn', schema: { hide: true } }, async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      const state = await readiness();
      if (state.ready) return { status: 'ok' };
      return reply.status(503).send({ status: 'unavailable', detail: state.detail, code: state.code });
    });
  },
  { name: 'probes', dependencies: ['db'] },
);
