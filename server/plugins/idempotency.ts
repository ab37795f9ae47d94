// Idempotency-Key for every state-changing call (decisions §4, §12): the first answer for a key is
// kept for 24 hours and a repeat of the same call (same method, route, parameters and body) from
// the same player gets it again without running the handler; the same key with another call or
// body is refused (422 idempotency_key_reused). Calls that change state through GET (the spec's
// /mining/claim/ and others) say so with `config: { stateChanging: true }`.
//
// Sign-in calls (`config: { signIn: true }`: their answer carries tokens, or they sign in, register
// or set a password by link) never keep an answer, even when a signed-in caller sends a key: the
// row would hold a token pair in plain text and hand it to whoever repeats the key. As a backstop
// for routes not marked, an answer carrying `access` or `refresh` is never kept either.
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { preparedWrite } from '../db/prepared';
import type { Db, Tx } from '../db/schema';
import fp from 'fastify-plugin';
import { IDEMPOTENCY_KEY_MAX } from '@shared/api/errors';
import { IDEMPOTENCY_WINDOW_MS } from '@shared/constants';
import { ApiError, conflict } from '../lib/errors';
import { MAX_JSON_DEPTH } from '../lib/json-depth';
import { listOf } from '../lib/one-or-many';

declare module 'fastify' {
  interface FastifyContextConfig {
    stateChanging?: boolean;
    /** A sign-in call: never keeps or replays an answer (see above). */
    signIn?: boolean;
  }
  interface FastifyRequest {
    /**
     * The key this request holds; `since` (the row's created_at) tells it from a later owner; `kept`
     * the answer transactionWithAnswer kept with the call's effect.
     */
    idempotency: { scope: string; key: string; since: number; kept?: string } | null;
  }
}

const MAX_KEY_LENGTH = IDEMPOTENCY_KEY_MAX;
/** A request that never answered (process killed) frees its key after this long. */
const STALLED_MS = 60_000;
const PRUNE_EVERY_MS = 60_000;
/** Expired keys deleted per statement, so a prune never holds the table for long. */
const PRUNE_BATCH = 1000;
const PRUNE_BATCHES = 10;

const TOKEN_FIELD = /"(?:access|refresh)"\s*:\s*"/;

function appliesTo(request: FastifyRequest): boolean {
  if (request.routeOptions.config?.signIn === true) return false;
  if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') {
    return request.routeOptions.config?.stateChanging === true;
  }
  return true;
}

/** Whether a route can ever take a key (`appliesTo` decides for each request). */
export function routeMayKeep(
  method: string | string[],
  config: { signIn?: boolean; stateChanging?: boolean } | undefined,
): boolean {
  if (config?.signIn === true) return false;
  const methods = Array.isArray(method) ? method : [method];
  return config?.stateChanging === true || methods.some((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS');
}

/**
 * JSON with object keys sorted, so key order never makes two equal bodies differ. Recursive, so
 * bounded: bodies deeper than MAX_JSON_DEPTH never get here (plugins/input-guard.ts), and a value
 * that did some other way is refused rather than left to overflow the stack.
 */
function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_JSON_DEPTH + 2) throw new ApiError(400, 'invalid', `JSON may nest at most ${MAX_JSON_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The call as the server read it (after validation). Keyed with a server secret: bodies can hold a
 * password (add-email-password, change-email), and a plain hash of a mostly known body would let
 * anyone holding a copy of the database test guesses at it.
 */
function requestHash(secret: KeyObject, request: FastifyRequest): string {
  const call = canonicalJson([
    request.method,
    request.routeOptions.url ?? '',
    request.params ?? null,
    request.query ?? null,
    request.body ?? null,
  ]);
  return createHmac('sha256', secret).update(call).digest('base64url');
}

/**
 * Runs a call's work in one transaction and keeps its answer (status 200) in that same
 * transaction, for every call whose effect a retry must not repeat (claims, starts, purchases,
 * top-ups). Without it, a crash between the commit and the reply leaves the key without an answer:
 * the retry would run again and pay, charge or refuse a second time. The normal reply keeps the
 * bytes actually sent: the same JSON, so usually the same bytes, and then nothing is written again.
 */
export async function transactionWithAnswer<T>(
  db: Db,
  request: FastifyRequest,
  work: (trx: Tx) => Promise<T>,
): Promise<T> {
  const idem = request.idempotency;
  let kept: string | undefined;
  const answer = await db.transaction().execute(async (trx) => {
    const result = await work(trx);
    if (idem) {
      const body = JSON.stringify(result);
      await keepWithEffect(trx, { scope: idem.scope, key: idem.key, since: idem.since, body });
      kept = body;
    }
    return result;
  });
  // Committed: storeAnswer need not write these bytes again.
  if (idem && kept !== undefined) idem.kept = kept;
  return answer;
}

// The statements every keyed call runs, compiled once (db/prepared.ts).
const keepWithEffect = preparedWrite((db, p: { scope: string; key: string; since: number; body: string }) =>
  db
    .updateTable('idempotency_keys')
    .set({ status: 200, body: p.body })
    .where('scope', '=', p.scope)
    .where('key', '=', p.key)
    .where('created_at', '=', p.since),
);
const takeFreeKey = preparedWrite((db, p: { scope: string; key: string; route: string; hash: string; now: number }) =>
  db
    .insertInto('idempotency_keys')
    .values({
      scope: p.scope,
      key: p.key,
      route: p.route,
      request_hash: p.hash,
      status: null,
      body: null,
      created_at: p.now,
    })
    .onConflict((oc) => oc.columns(['scope', 'key']).doNothing())
    .returning('key'),
);
const keepAnswerOf = preparedWrite(
  (db, p: { scope: string; key: string; since: number; status: number; body: string }) =>
    db
      .updateTable('idempotency_keys')
      .set({ status: p.status, body: p.body })
      .where('scope', '=', p.scope)
      .where('key', '=', p.key)
      .where('created_at', '=', p.since),
);

const lastPrune = new WeakMap<object, number>();
/** Deletes keys past the window (indexed on created_at); at most once a minute per database handle. */
export async function pruneIdempotencyKeys(db: Db, now = Date.now()): Promise<void> {
  if (now - (lastPrune.get(db) ?? 0) < PRUNE_EVERY_MS) return;
  lastPrune.set(db, now);
  for (let i = 0; i < PRUNE_BATCHES; i++) {
    const expired = db
      .selectFrom('idempotency_keys')
      .select('created_at')
      .where('created_at', '<', now - IDEMPOTENCY_WINDOW_MS)
      .orderBy('created_at')
      .limit(1)
      .offset(PRUNE_BATCH - 1);
    // Everything up to the PRUNE_BATCH-th oldest expired key, or all of them when fewer are left.
    const last = await expired.executeTakeFirst();
    const bound = last ? Number(last.created_at) : now - IDEMPOTENCY_WINDOW_MS;
    await db
      .deleteFrom('idempotency_keys')
      .where('created_at', last ? '<=' : '<', bound)
      .execute();
    if (!last) return;
  }
}

export default fp(
  async function idempotency(app: FastifyInstance) {
    app.decorateRequest('idempotency', null);
    // A key object: HMAC with a Buffer checks and wraps the key anew at every call.
    const secret = createSecretKey(
      createHmac('sha256', app.config.jwtSecret).update('idempotency request hash').digest(),
    );

    const keepAnswer = async (request: FastifyRequest, reply: FastifyReply) => {
      const key = request.headers['idempotency-key'];
      if (typeof key !== 'string' || key === '' || request.userId === null || !appliesTo(request)) return;
      if (key.length > MAX_KEY_LENGTH)
        throw new ApiError(
          400,
          'invalid_idempotency_key',
          `Idempotency-Key must be at most ${MAX_KEY_LENGTH} characters`,
        );
      const scope = `u:${request.userId}`;
      const route = `${request.method} ${request.routeOptions.url}`;
      const requestHashValue = requestHash(secret, request);
      const now = Date.now();
      const db = app.db;
      await pruneIdempotencyKeys(db, now);
      const fresh = { route, request_hash: requestHashValue, status: null, body: null, created_at: now };

      // A row can vanish between two of these statements (a failed attempt frees its key): go round again.
      for (let round = 0; round < 3; round++) {
        const claimed = (await takeFreeKey(db, { scope, key, route, hash: requestHashValue, now })).rows[0];
        // Expired, or abandoned mid-request: one conditional statement takes the key over, so of
        // several retries arriving together exactly one runs the call.
        const taken =
          claimed ??
          (await db
            .updateTable('idempotency_keys')
            .set(fresh)
            .where('scope', '=', scope)
            .where('key', '=', key)
            .where((eb) =>
              eb.or([
                eb('created_at', '<', now - IDEMPOTENCY_WINDOW_MS),
                eb.and([eb('status', 'is', null), eb('created_at', '<', now - STALLED_MS)]),
              ]),
            )
            .returning('key')
            .executeTakeFirst());
        if (taken) {
          request.idempotency = { scope, key, since: now };
          return;
        }
        const previous = await db
          .selectFrom('idempotency_keys')
          .selectAll()
          .where('scope', '=', scope)
          .where('key', '=', key)
          .executeTakeFirst();
        if (!previous) continue;
        if (
          previous.route !== route ||
          (previous.request_hash !== null && previous.request_hash !== requestHashValue)
        ) {
          throw new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used for another call');
        }
        if (previous.status === null) break;
        reply.header('Idempotent-Replayed', 'true').status(previous.status).type('application/json');
        return reply.send(previous.body ?? '');
      }
      throw conflict('A request with this Idempotency-Key is still in progress', 'idempotency_in_progress');
    };

    const storeAnswer = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      const idem = request.idempotency;
      if (!idem) return payload;
      request.idempotency = null;
      const status = reply.statusCode;
      if (status >= 500 || status === 429 || typeof payload !== 'string' || TOKEN_FIELD.test(payload)) {
        // A fault or a throttle is not an answer: free the key so a retry runs again. An answer kept
        // with the call's effect (transactionWithAnswer) stays: the effect is done, and a retry must
        // get that answer rather than do it twice.
        await app.db
          .deleteFrom('idempotency_keys')
          .where('scope', '=', idem.scope)
          .where('key', '=', idem.key)
          .where('created_at', '=', idem.since)
          .where('status', 'is', null)
          .execute();
        return payload;
      }
      // Kept already, byte for byte, with the call's effect: writing it again would change nothing.
      if (status === 200 && payload === idem.kept) return payload;
      if (status < 300) {
        await keepAnswerOf(app.db, { scope: idem.scope, key: idem.key, since: idem.since, status, body: payload });
        return payload;
      }
      // A refusal after the commit (rare) does not replace the answer kept with the effect.
      await app.db
        .updateTable('idempotency_keys')
        .set({ status, body: payload })
        .where('scope', '=', idem.scope)
        .where('key', '=', idem.key)
        .where('created_at', '=', idem.since)
        .where('status', 'is', null)
        .execute();
      return payload;
    };

    // Only on the routes a key can apply to: a read (most calls) pays for no hook at all. Route-level
    // hooks run after the app-level ones; first among them, so the JSON compression (route-level
    // too, plugins/compress-json.ts) comes after the answer is kept.
    app.addHook('onRoute', (route) => {
      if (!routeMayKeep(route.method, route.config)) return;
      route.preHandler = [keepAnswer, ...listOf(route.preHandler)] as typeof route.preHandler;
      route.onSend = [storeAnswer, ...listOf(route.onSend)] as typeof route.onSend;
    });
  },
  { name: 'idempotency', dependencies: ['db', 'auth', 'config'] },
);
