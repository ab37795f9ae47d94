// The central error handler: every failure leaves in the shape of decisions §4. Bad input is a 4xx
// with field errors; only a real fault is a 500, and it is logged.
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isSqliteBusy } from '../db/sqlite-immediate';
import { ApiError, type FieldError, serverBusy } from '../lib/errors';

function fieldOf(path: string | undefined, fallback: string): string {
  const cleaned = (path ?? '').replace(/^\//, '').replace(/\//g, '.');
  return cleaned || fallback;
}

export default fp(async function errorHandler(app: FastifyInstance) {
  app.setErrorHandler((thrown: FastifyError, request, reply) => {
    // Another process held SQLite's write lock longer than the server waits for it
    // (db/sqlite-immediate.ts): the transaction was rolled back, so the same call can simply be retried.
    const busy = isSqliteBusy(thrown);
    if (busy) request.log.warn({ err: thrown }, 'the database was locked by another process');
    const error = busy ? serverBusy(1) : thrown;
    if (error instanceof ApiError) {
      if (error.extra.retryAfterSeconds) reply.header('Retry-After', String(error.extra.retryAfterSeconds));
      return reply.status(error.status).send({
        ...error.extra.body,
        detail: error.detail,
        code: error.code,
        ...(error.extra.errors ? { errors: error.extra.errors } : {}),
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors: FieldError[] = error.validation.map((v) => ({
        field: fieldOf(v.instancePath, error.validationContext ?? 'body'),
        message: v.message ?? 'Invalid value',
      }));
      return reply.status(400).send({ detail: errors[0]?.message ?? 'Invalid input', code: 'invalid', errors });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code =
        error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError
          ? 'invalid_json'
          : (error.code ?? 'bad_request').toLowerCase();
      return reply.status(status).send({ detail: error.message, code });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ detail: 'Internal server error', code: 'server_error' });
  });
});
