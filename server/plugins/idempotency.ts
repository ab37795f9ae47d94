// Idempotency-Key for every state-changing call (decisions §4): the first answer for a key is kept
// for 24 hours and a repeat from the same player gets it again without running the handler.
// Calls that change state through GET (the spec's /mining/claim/ and others) say so with
// `config: { stateChanging: true }`. Keys belong to a signed-in player: anonymous calls (sign-in,
// registration) are not replayed, so no answer carrying fresh tokens is ever stored.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/schema';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_WINDOW_MS } from '../../shared/constants';
import { ApiError, conflict } from '../lib/errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    stateChanging?: boolean;
  }
  interface FastifyRequest {
    idempotency: { scope: string; key: string } | null;
  }
}

const MAX_KEY_LENGTH = 200;
/** A request that never answered (process killed) frees its key after this long. */
const STALLED_MS = 60_000;

function appliesTo(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') {
    return request.routeOptions.config?.stateChanging === true;
  }
  return true;
}

/**
 * Runs a call's work in one transaction and keeps its answer (status 200) in that same
 * transaction, for the calls a client replays after a lost answer (the offline claim above all).
 * Without it, a crash between the commit and the reply leaves the key without an answer: the retry
 * would run again and, finding the reward paid, say there is nothing to claim. The normal reply
 * overwrites the kept answer with the bytes actually sent, which are the same JSON.
 */
export function transactionWithAnswer<T>(db: Db, request: FastifyRequest, work: (trx: Tx) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const answer = await work(trx);
    const idem = request.idempotency;
    if (idem) {
      await trx.updateTable('idempotency_keys').set({ status: 200, body: JSON.stringify(answer) })
        .where('scope', '=', idem.scope).where('key', '=', idem.key).execute();
    }
    return answer;
  });
}

export default fp(
  async function idempotency(app: FastifyInstance) {
    app.decorateRequest('idempotency', null);

    app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string' || key === '' || request.userId === null || !appliesTo(request)) return;
      if (key.length > MAX_KEY_LENGTH) throw new ApiError(400, 'invalid_idempotency_key', `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters`);
      const scope = `u:${request.userId}`;
      const route = `${request.method} ${request.routeOptions.url}`;
      const now = Date.now();
      const db = app.db;

      const claimed = await db
        .insertInto('idempotency_keys')
        .values({ scope, key, route, status: null, body: null, created_at: now })
        .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      if (claimed) {
        request.idempotency = { scope, key };
        return;
      }
      const previous = await db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).where('key', '=', key).executeTakeFirst();
      const stale = previous && (previous.created_at < now - IDEMPOTENCY_WINDOW_MS || (previous.status === null && previous.created_at < now - STALLED_MS));
      if (!previous || stale) {
        // Expired, abandoned mid-request, or vanished meanwhile: take the key over for this request.
        await db.deleteFrom('idempotency_keys').where('scope', '=', scope).where('key', '=', key).execute();
        await db.insertInto('idempotency_keys').values({ scope, key, route, status: null, body: null, created_at: now })
          .onConflict((oc) => oc.columns(['scope', 'key']).doNothing()).execute();
        request.idempotency = { scope, key };
        return;
      }
      if (previous.route !== route) throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for another call');
      if (previous.status === null) throw conflict('A request with this Idempotency-Key is still in progress', 'idempotency_in_progress');
      reply.header('Idempotent-Replayed', 'true').status(previous.status).type('application/json');
      return reply.send(previous.body ?? '');
    });

    app.addHook('onSend', async (request, reply, payload) => {
      const idem = request.idempotency;
      if (!idem) return payload;
      request.idempotency = null;
      const where = app.db.updateTable('idempotency_keys').where('scope', '=', idem.scope).where('key', '=', idem.key);
      if (reply.statusCode >= 500 || reply.statusCode === 429 || typeof payload !== 'string') {
        // A fault or a throttle is not an answer: let the client retry with the same key.
        await app.db.deleteFrom('idempotency_keys').where('scope', '=', idem.scope).where('key', '=', idem.key).execute();
      } else {
        await where.set({ status: reply.statusCode, body: payload }).execute();
      }
      return payload;
    });
  },
  { name: 'idempotency', dependencies: ['db', 'auth'] },
);
