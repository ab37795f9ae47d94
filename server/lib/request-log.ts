// Who and which retry a request log line is about: every line of a request carries its
// Idempotency-Key (known from the headers, so "incoming request" has it too), and once the access
// token is checked, the player's id (`userId`: "request completed" and every later line; Fastify
// writes "incoming request" before any hook runs). Never the token itself: no header but the key
// is logged, and bodies (refresh tokens, passwords) are not logged at all.
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, RawRequestDefaultExpression } from 'fastify';
import { LazyLogger, lazyChild } from './lazy-logger';

/** Longer keys are refused (plugins/idempotency.ts, 200); the log keeps no more than that. */
const MAX_LOGGED_KEY = 200;

/** Fastify's `childLoggerFactory`: the request's logger, with its Idempotency-Key when it has one. */
export function requestChildLogger(
  logger: FastifyBaseLogger,
  bindings: Record<string, unknown>,
  opts: object,
  rawReq: RawRequestDefaultExpression,
) {
  const key = rawReq.headers['idempotency-key'];
  if (typeof key === 'string' && key !== '') bindings.idempotencyKey = key.slice(0, MAX_LOGGED_KEY);
  // Made when the request first writes a line (lib/lazy-logger.ts): a read at level warn writes none.
  return lazyChild(logger, bindings, opts);
}

/** From here on, this request's log lines name the player. */
export function logAsUser(request: FastifyRequest, reply: FastifyReply, userId: number): void {
  // The request's own logger (requestChildLogger) takes the binding; no other request shares it.
  if (request.log instanceof LazyLogger && reply.log === request.log) return request.log.addBindings({ userId });
  const log = request.log.child({ userId });
  request.log = log;
  // Fastify writes "request completed" with the reply's logger, a reference to the request's first one.
  reply.log = log;
}
