// Refuses text no database column can hold: a NUL character, in the path, the query or any string
// of a JSON body. PostgreSQL rejects NUL in text outright, so without this a stray \u0000 would
// surface as a 500 from whichever query first met it.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../lib/errors';

const nulRefusal = (field: string) =>
  new ApiError(400, 'invalid', 'Text may not contain NUL characters', { errors: [{ field, message: 'Text may not contain NUL characters' }] });

/** The dotted path of the first string holding a NUL, or null. */
function findNul(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null;
  if (value === null || typeof value !== 'object' || depth > 32) return null;
  for (const [k, v] of Object.entries(value)) {
    const hit = findNul(v, path ? `${path}.${k}` : k, depth + 1);
    if (hit !== null) return hit;
  }
  return null;
}

export default fp(async function inputGuard(app: FastifyInstance) {
  // Callback hooks: every request passes them and almost none is refused.
  app.addHook('onRequest', (request, _reply, done) => {
    if (!/%00/i.test(request.url)) return done();
    done(nulRefusal(request.url.includes('?') && /%00/i.test(request.url.split('?')[1]) ? 'query' : 'path'));
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body === undefined || request.body === null || typeof request.body !== 'object') return done();
    const field = findNul(request.body, '');
    done(field === null ? undefined : nulRefusal(field || 'body'));
  });
}, { name: 'input-guard' });
